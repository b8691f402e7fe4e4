"""The example game of palace-poker.txt ("The Play" example in "Raise", and "Example Game
Continued"), played through the engine from a deck built to agree with every sentence.

Seats: Aaron 0, Brad 1, Christine 2, Dave 3, Elena 4, Frank 5 (the dealer). Limit 5/10, ante 2.
The text drops the suit symbols; these suits satisfy it: Aaron 8c (clubs, "since Aaron already has
clubs"), Brad's first card Jc is rejected and 3h kept, Christine Ts ("Ten of Spades"), Dave is
dealt 2c 5h Tc Ks before his diamond Jd, Elena 4d, Frank's Td is rejected and Qs kept ("he is
spades"). Palace cards: Aaron 4c Kh Th, Brad Ah Ad 9c, Christine 6d 6c 8h (the diamond six is
useless against Dave), Dave Js Jh 5s (the spade jack does not count against Christine), Elena 9d
4h 3c, Frank Qd Qc 8s (trips against Brad; his diamond queen is useless against Dave). The stock
then gives Aaron 5c, Christine 7h, Dave 9h, Elena 2h and Christine Jc.
"""

from __future__ import annotations

from games.engine.cards import parse_cards
from games.engine.poker.legal import legal_actions
from tests.games.engine.poker.helpers import GAME, act, only, shuffle_with

AARON, BRAD, CHRISTINE, DAVE, ELENA, FRANK = range(6)
BANNER_DECK = "8c Jc 3h Ts 2c 5h Tc Ks Jd 4d Td Qs"
PALACE_DECK = (
    "4c Ah 6d Js 9d Qd "  # first palace card of each, from the dealer's left
    "Kh Ad 6c Jh 4h Qc "
    "Th 9c 8h 5s 3c 8s "
    "5c 7h 9h 2h Jc"  # the stock: what the buyers draw
)
OPTIONS = {"betting": "limit", "small_bet": 5, "big_bet": 10, "ante": 2, "first_dealer": FRANK, "max_hands": 1}


def deal_example():
    state = GAME.new_game(OPTIONS, 6)
    state, banner_events = shuffle_with(state, BANNER_DECK)
    state, palace_events = shuffle_with(state, PALACE_DECK)
    return state, banner_events + palace_events


def test_banner_deal_gives_the_texts_banners_palace_poker_banner_cards():
    """palace-poker.txt, "Banner Cards" example: distinct suits among players 1-4, Elena starts a
    new group, Frank may not take a diamond after Elena's."""
    state, events = deal_example()
    assert [card.code for card in state.banners] == ["8c", "3h", "Ts", "Jd", "4d", "Qs"]
    rejected = [(event.seat, event.cards["card"].cards[0].code) for event in only(events, "banner_rejected")]
    assert rejected == [(BRAD, "Jc"), (DAVE, "2c"), (DAVE, "5h"), (DAVE, "Tc"), (DAVE, "Ks"), (FRANK, "Td")]
    assert [event.type for event in only(events, "ante")] == ["ante"] * 6
    assert state.pot == 12
    assert state.palace[BRAD] == parse_cards("Ah Ad 9c")
    assert GAME.to_act(state) == (AARON,)


def test_palace_cards_are_seen_by_their_owner_only_palace_poker_palace_cards():
    state, events = deal_example()
    dealt = only(events, "palace_dealt")
    assert [event.to_json(DAVE)["cards"]["palace"]["cards"] for event in dealt][DAVE] == ["Js", "Jh", "5s"]
    assert dealt[BRAD].to_json(DAVE)["cards"]["palace"]["cards"] == [None, None, None]
    assert GAME.view(state, DAVE)["seats"][BRAD]["palace"] == [None, None, None]
    assert GAME.view(state, "spectator")["seats"][DAVE]["palace"] == [None, None, None]
    assert GAME.view(state, "staff")["seats"][BRAD]["palace"] == ["Ah", "Ad", "9c"]


def play_first_battle(state):
    """Aaron buys; Brad attacks Frank: 5, Frank calls 5 and raises 5, Brad 15, Frank 20, Brad calls 10."""
    state, _ = act(state, AARON, "buy")
    state, _ = act(state, AARON, "discard")  # keep the 5c
    costs = []
    for seat, type_ in [(BRAD, "bet"), (FRANK, "raise"), (BRAD, "raise"), (FRANK, "raise"), (BRAD, "call")]:
        offered = {a.type: a.cost for a in legal_actions(state, seat)}
        fields = {"target": FRANK} if type_ == "bet" else {}
        before = state.stacks[seat]
        state, events = act(state, seat, type_, **fields)
        costs.append((type_, offered[type_], before - state.stacks[seat]))
    return state, events, costs


def test_brad_frank_raise_sequence_palace_poker_raise():
    """palace-poker.txt, "Raise" example: each bet, raise and call costs what the text says."""
    state, _ = deal_example()
    state, events, costs = play_first_battle(state)
    assert costs == [("bet", 5, 5), ("raise", 10, 10), ("raise", 15, 15), ("raise", 20, 20), ("call", 10, 10)]
    assert state.pot == 12 + 5 + 60
    shown = only(events, "palace_shown")
    assert [(event.seat, event.data["to"]) for event in shown] == [(FRANK, BRAD)], "Brad loses: Frank never sees his"
    assert shown[0].to_json(BRAD)["cards"]["palace"] == {"cards": ["Qd", "Qc", "8s"], "hand": "three queens"}
    assert shown[0].to_json(AARON)["cards"]["palace"]["cards"] == [None, None, None]
    assert not state.in_hand[BRAD]
    assert state.soldiers[FRANK] == parse_cards("3h"), "Frank takes Brad's banner as a soldier"
    assert GAME.to_act(state) == (FRANK,), "the battle's winner owes a discard step"
    assert GAME.view(state, BRAD)["seats"][FRANK]["palace"] == ["Qd", "Qc", "8s"]
    assert GAME.view(state, AARON)["seats"][FRANK]["palace"] == [None, None, None]


def test_fourth_raise_is_refused_palace_poker_raise():
    """palace-poker.txt, "Raise": three raises are the limit."""
    state, _ = deal_example()
    state, _ = act(state, AARON, "buy")
    state, _ = act(state, AARON, "discard")
    state, _ = act(state, BRAD, "bet", target=FRANK)
    for seat in (FRANK, BRAD, FRANK):
        state, _ = act(state, seat, "raise")
    assert "raise" not in {a.type for a in legal_actions(state, BRAD)}
    try:
        act(state, BRAD, "raise")
    except Exception as error:
        assert getattr(error, "code", None) == "raise_cap"
    else:
        raise AssertionError("a fourth raise was accepted")


def test_example_game_dave_wins_a_pot_of_142_palace_poker_example_game_continued():
    """palace-poker.txt, "Example Game Continued": the whole hand, ending with Dave's four jacks."""
    state, _ = deal_example()
    state, _, _ = play_first_battle(state)
    steps = [
        (FRANK, "discard", {"cards": "3h"}, 0),
        (CHRISTINE, "buy", {}, 5),
        (CHRISTINE, "discard", {}, 0),
        (DAVE, "buy", {}, 5),
        (DAVE, "discard", {}, 0),
        (ELENA, "buy", {}, 5),
        (ELENA, "discard", {}, 0),
        (FRANK, "bet", {"target": AARON}, 5),
        (AARON, "fold", {}, 0),
        (FRANK, "discard", {"cards": "5c"}, 0),
        # Round two.
        (CHRISTINE, "buy", {}, 5),
        (CHRISTINE, "discard", {}, 0),
        (DAVE, "bet", {"target": CHRISTINE}, 10),
        (CHRISTINE, "fold", {}, 0),
        (DAVE, "discard", {"cards": "Ts 7h 9h"}, 0),
        (ELENA, "stay", {}, 0),
        (FRANK, "bet", {"target": ELENA}, 10),
        (ELENA, "fold", {}, 0),
        (FRANK, "discard", {"cards": "4d 2h"}, 0),
        # Round three.
        (DAVE, "bet", {"target": FRANK}, 10),
    ]
    for seat, type_, fields, cost in steps:
        assert GAME.to_act(state) == (seat,), (seat, type_)
        before = state.stacks[seat]
        state, _ = act(state, seat, type_, **fields)
        assert before - state.stacks[seat] == cost, (seat, type_)
    assert state.soldiers[DAVE] == parse_cards("Jc")
    assert state.soldiers[FRANK] == parse_cards("8c")
    assert state.pot == 132
    final, events = act(state, FRANK, "call")
    assert final.stacks[FRANK] == state.stacks[FRANK] - 10
    shown = only(events, "palace_shown")
    assert [(event.seat, event.data["to"]) for event in shown] == [(DAVE, FRANK)], "Frank called and lost"
    assert shown[0].cards["palace"].hand == "four jacks", "four of a kind counts whole despite the spade jack"
    (award,) = only(events, "pot_awarded")
    assert award.data == {"pot": 142, "reason": "last_player", "amounts": {str(DAVE): 142}}
    assert final.stacks[DAVE] == 1000 - 2 - 5 - 10 - 10 + 142
    assert sum(final.stacks) == 6000
    assert GAME.is_over(final) and final.winners == (DAVE,)
