"""Hand-made given/when/then scenarios, each checking one rule of the Palace Poker texts.

Every test is named after the rules file and section it checks (palace-poker.txt unless named) and cites
it in its docstring. Decks are prearranged (no randomness): ``deal`` builds a table whose seats
deal from seat 0 (the dealer is the last seat unless told otherwise), gives the banners in deal
order from the top of the banner shuffle, and deals the named palace cards one at a time
round-robin; the named ``stock`` cards come next, top first. Moves are written as short strings
("0 buy", "0 keep", "1 bet 0", "1 bet 0 100", "0 raise", "2 discard Ah Kd"); see ``play``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from games.engine.cards import FULL_DECK, parse_cards
from games.engine.errors import EngineError
from games.engine.evaluator import best_hand
from games.engine.poker.state import PokerState
from games.engine.protocol import Action, Event
from tests.games.engine.poker.helpers import GAME, act, only, shuffle_with

BASE = {"betting": "limit", "small_bet": 5, "big_bet": 10, "ante": 2, "starting_stack": 1000, "max_hands": 1}
TEN_BANNERS = "Ac Ad Ah As Kc Kd Kh Ks Qc Qd"  # ten players, no banner rejected


# Helpers ------------------------------------------------------------------------------------------


def table(seats: int, **options) -> PokerState:
    """A new match; the dealer is the last seat, so seat 0 is dealt first and plays first."""
    return GAME.new_game({**BASE, "first_dealer": seats - 1, **options}, seats)


def palace_top(state: PokerState, hands: dict[int, str], stock: str = "") -> str:
    """The top of a palace shuffle giving ``hands`` (three codes per seat; other seats get unnamed
    low cards), dealt one at a time from the dealer's left, then ``stock`` top first."""
    named = set(parse_cards(" ".join([*hands.values(), stock])))
    filler = (card.code for card in sorted(GAME.chance_request(state).cards) if card not in named)
    order = state.deal_order()
    palace = {seat: hands[seat].split() if seat in hands else [next(filler) for _ in range(3)] for seat in order}
    return " ".join([*(palace[seat][k] for k in range(3) for seat in order), stock])


def deal(
    seats: int, banners: str = "", hands: dict[int, str] | None = None, stock: str = "", **options
) -> tuple[PokerState, list[Event]]:
    """Antes, banner deal and palace deal from prearranged decks."""
    state = table(seats, **options)
    state, banner_events = shuffle_with(state, banners)
    state, palace_events = shuffle_with(state, palace_top(state, hands or {}, stock))
    return state, [*banner_events, *palace_events]


def play(state: PokerState, *moves: str) -> tuple[PokerState, list[Event]]:
    """Apply moves "seat action [args]": ``keep`` is a discard step naming no card; ``discard``
    takes card codes, ``bet`` a target and an optional amount, ``raise`` an optional amount."""
    events: list[Event] = []
    for move in moves:
        seat, type_, *args = move.split()
        fields: dict = {}
        if type_ == "keep":
            type_ = "discard"
        elif type_ == "discard":
            fields["cards"] = " ".join(args)
        elif type_ == "bet":
            fields["target"] = int(args[0]) if args else None
            fields["amount"] = int(args[1]) if len(args) > 1 else None
        elif type_ == "raise":
            fields["amount"] = int(args[0]) if args else None
        state, new = act(state, int(seat), type_, **fields)
        events.extend(new)
    return state, events


def refused(state: PokerState, move: str) -> str:
    """The error code with which the engine refuses ``move``."""
    with pytest.raises(EngineError) as info:
        play(state, move)
    return info.value.code


def apply_refused(state: PokerState, action: Action) -> str:
    with pytest.raises(EngineError) as info:
        GAME.apply(state, action)
    return info.value.code


def legal(state: PokerState, seat: int) -> dict:
    """``legal_actions`` as ``{type: LegalAction}``."""
    return {action.type: action for action in GAME.legal_actions(state, seat)}


def codes(cards) -> list[str]:
    return [card.code for card in cards]


def seats_of(events: list[Event], type_: str) -> list[int | None]:
    return [event.seat for event in only(events, type_)]


def drawn(events: list[Event]) -> str:
    """The code of the soldier just drawn."""
    (event,) = only(events, "soldier_drawn")
    return event.cards["card"].cards[0].code


def award(events: list[Event]) -> tuple[str, dict[str, int]]:
    (event,) = only(events, "pot_awarded")
    return event.data["reason"], dict(event.data["amounts"])


def strings_in(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def twelve_buys(*, keep: bool) -> PokerState:
    """Ten players (12 cards in the stock) buy in turn, twelve times, keeping or discarding each."""
    state, _ = deal(10, TEN_BANNERS)
    assert len(state.stock) == 12
    for _ in range(12):
        (seat,) = GAME.to_act(state)
        state, events = play(state, f"{seat} buy")
        state, _ = play(state, f"{seat} keep" if keep else f"{seat} discard {drawn(events)}")
    return state


# The Deal -----------------------------------------------------------------------------------------


def test_first_dealer_is_high_card_with_redeal_among_tied_high_cards_palace_poker_the_deal():
    """palace-poker.txt, "The Deal": one card each, no suit rank; the holders of tied high cards
    are dealt one more card each until the dealer is decided."""
    state = GAME.new_game({**BASE}, 4)
    assert GAME.chance_request(state).purpose == "first_dealer"
    assert GAME.to_act(state) == ()
    # Kings for 0, 2, 3 tie (1 drops out); queens for 0 and 2 tie (3 drops out); 7 beats 3.
    state, events = shuffle_with(state, "Ks 9c Kd Kh Qc Qd 5h 3c 7d")
    dealt = [(event.seat, event.cards["card"].cards[0].code) for event in only(events, "dealer_card")]
    assert dealt == [(0, "Ks"), (1, "9c"), (2, "Kd"), (3, "Kh"), (0, "Qc"), (2, "Qd"), (3, "5h"), (0, "3c"), (2, "7d")]
    assert seats_of(events, "dealer_chosen") == [2]
    assert state.dealer == 2
    assert GAME.chance_request(state).purpose == "banner_deal"
    state, events = shuffle_with(state, "")
    assert only(events, "hand_started")[0].data["seats"] == [3, 0, 1, 2], "the deal starts at the dealer's left"


def test_dealer_draw_starts_again_if_the_deck_runs_out_among_ties_palace_poker_the_deal():
    """palace-poker.txt, "The Deal" is silent on a deck exhausted by ties; the engine gathers the
    cards and draws again among the tied players (a new ``first_dealer`` shuffle)."""
    state = GAME.new_game({**BASE}, 2)
    by_rank = " ".join(card.code for card in sorted(FULL_DECK))  # 2c 2d 2h 2s 3c ...: every pair ties
    state, events = shuffle_with(state, by_rank)
    assert len(only(events, "dealer_card")) == 52
    assert only(events, "dealer_draw_restarted")[0].data["contenders"] == [0, 1]
    assert GAME.chance_request(state).purpose == "first_dealer"
    state, events = shuffle_with(state, "3c Ah")
    assert seats_of(events, "dealer_chosen") == [1]


def test_explicit_first_dealer_skips_the_draw_palace_poker_the_deal():
    """palace-poker.txt, "The Deal" and "The Play": with a chosen first dealer the banner deal and
    the first turn start at his left."""
    state = GAME.new_game({**BASE, "first_dealer": 1}, 3)
    assert state.dealer == 1
    assert GAME.chance_request(state).purpose == "banner_deal"
    state, events = shuffle_with(state, "")
    assert not only(events, "dealer_card")
    assert only(events, "hand_started")[0].data == {"hand": 1, "dealer": 1, "seats": [2, 0, 1]}
    assert seats_of(events, "banner_dealt") == [2, 0, 1]
    state, _ = shuffle_with(state, "")
    assert GAME.to_act(state) == (2,)


# Banner Cards -------------------------------------------------------------------------------------


def test_banner_suits_differ_within_groups_of_four_palace_poker_banner_cards():
    """palace-poker.txt, "Banner Cards": players 1-4 get four suits; players 5-8 are a separate
    group (not compared with 1-4); players 9-10 are another."""
    state = table(10)
    state, events = shuffle_with(state, "Ac Ad Ah As Kc Kd Qd Kh Qc Qh Ks Jc Tc Jd")
    assert codes(state.banners) == ["Ac", "Ad", "Ah", "As", "Kc", "Kd", "Kh", "Ks", "Jc", "Jd"]
    rejected = [(event.seat, event.cards["card"].cards[0].code) for event in only(events, "banner_rejected")]
    assert rejected == [(6, "Qd"), (7, "Qc"), (7, "Qh"), (9, "Tc")]
    assert codes(state.set_aside) == ["Qd", "Qc", "Qh", "Tc"]
    assert GAME.chance_request(state).purpose == "palace_deal"
    assert len(GAME.chance_request(state).cards) == 42, "the rejects go back into the deck"


def test_stock_running_out_mid_banner_deal_reshuffles_the_rejects_palace_poker_banner_cards():
    """palace-poker.txt, "Banner Cards": if the dealer runs out of cards before the deal is through,
    the cards not used as banners are reshuffled and the deal continues where it left off.

    Construction (8 players): player 1 gets Ah and player 2 is dealt the twelve other hearts (all
    rejected) before Ac; players 3-7 get Ad As Kc Kd Ks, so player 8 must get a heart and none is
    left: the 33 remaining cards are all set aside and the stock runs dry at him.
    """
    state = table(8)
    top = "Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ac Ad As Kc Kd Ks"
    state, events = shuffle_with(state, top)
    assert codes(state.banners[:7]) == ["Ah", "Ac", "Ad", "As", "Kc", "Kd", "Ks"]
    assert state.banners[7] is None
    (exhausted,) = only(events, "stock_exhausted")
    assert exhausted.seat == 7 and exhausted.data["set_aside"] == 45
    assert seats_of(events, "banner_rejected").count(7) == 33
    request = GAME.chance_request(state)
    assert request.purpose == "banner_redeal"
    assert sorted(request.cards) == sorted(state.set_aside) and len(request.cards) == 45
    state, events = shuffle_with(state, "Qc 5h")
    assert [(e.type, e.seat) for e in events if e.type.startswith("banner")] == [
        ("banner_rejected", 7),
        ("banner_dealt", 7),
    ]
    assert codes(state.banners) == ["Ah", "Ac", "Ad", "As", "Kc", "Kd", "Ks", "5h"]
    request = GAME.chance_request(state)
    assert request.purpose == "palace_deal" and len(request.cards) == 44


def test_player_short_of_the_ante_antes_all_he_has_palace_poker_banner_cards():
    """palace-poker.txt, "Banner Cards": each player antes; a stack below the ante antes all of it
    (the text is silent on short stacks) and still plays the hand."""
    state, _ = deal(2, starting_stack=8, max_hands=2)
    state, events = play(state, "0 buy", "0 keep", "1 stay", "0 fold")
    assert award(events) == ("last_player", {"1": 9})
    assert state.stacks == (1, 15)
    state, events = shuffle_with(state, "")
    assert [(event.seat, event.data["amount"]) for event in only(events, "ante")] == [(1, 2), (0, 1)]
    assert state.stacks == (0, 13) and state.pot == 3
    state, _ = shuffle_with(state, "")
    assert state.in_hand == (True, True)
    state, _ = play(state, "1 stay")
    assert set(legal(state, 0)) == {"stay", "fold"}


# Buy ----------------------------------------------------------------------------------------------


def test_buy_costs_a_small_bet_and_draws_a_face_up_soldier_palace_poker_buy():
    """palace-poker.txt, "Buy": pay a small bet, take the top card of the deck face up as a soldier,
    then discard any number of soldiers (none: keep)."""
    state, _ = deal(2, stock="Ah Kh")
    assert legal(state, 0)["buy"].cost == 5
    state, events = play(state, "0 buy")
    assert only(events, "buy")[0].data["cost"] == 5
    assert state.stacks[0] == 1000 - 2 - 5 and state.pot == 4 + 5
    (event,) = only(events, "soldier_drawn")
    assert event.to_json(1)["cards"]["card"]["cards"] == ["Ah"], "a soldier is face up"
    assert event.to_json("spectator")["cards"]["card"]["cards"] == ["Ah"]
    assert GAME.to_act(state) == (0,) and state.step == "discard"
    step = legal(state, 0)
    assert set(step) == {"discard"} and step["discard"].min_cards == 0 and codes(step["discard"].cards) == ["Ah"]
    kept, _ = play(state, "0 keep")
    assert codes(kept.soldiers[0]) == ["Ah"] and GAME.to_act(kept) == (1,)
    tossed, _ = play(state, "0 discard Ah")
    assert tossed.soldiers[0] == () and codes(tossed.discards) == ["Ah"], "the card just bought may go"
    assert tossed.stacks[0] == kept.stacks[0]


def test_buy_with_five_soldiers_forces_a_discard_palace_poker_buy():
    """palace-poker.txt, "Buy": at most five soldiers; a buy with five up forces at least one
    discard (any number from one to all)."""
    state, _ = deal(2, stock="9h Th Jh Qh Kh Ah")
    for _ in range(5):
        state, _ = play(state, "0 buy", "0 keep", "1 stay")
    assert codes(state.soldiers[0]) == ["9h", "Th", "Jh", "Qh", "Kh"]
    state, _ = play(state, "0 buy")
    step = legal(state, 0)["discard"]
    assert (step.min_cards, step.max_cards) == (1, 6)
    assert refused(state, "0 keep") == "too_many_soldiers"
    one, _ = play(state, "0 discard 9h")
    assert codes(one.soldiers[0]) == ["Th", "Jh", "Qh", "Kh", "Ah"] and GAME.to_act(one) == (1,)
    every, _ = play(state, "0 discard 9h Th Jh Qh Kh Ah")
    assert every.soldiers[0] == ()


def test_buy_rebuilds_stock_from_discards_only_when_needed_palace_poker_buy():
    """palace-poker.txt, "Buy": with no card left in the draw deck the discard pile is reshuffled
    into a new one, not when the last card is taken but when a later player wishes to Buy."""
    state = twelve_buys(keep=False)
    assert state.stock == () and len(state.discards) == 12
    assert state.chance is None and GAME.to_act(state) == (2,), "taking the last card rebuilds nothing"
    state, _ = play(state, "2 stay")
    assert state.chance is None and state.stock == ()
    assert "buy" in legal(state, 3)
    pile = state.discards
    state, events = play(state, "3 buy")
    assert only(events, "buy") and not only(events, "soldier_drawn")
    assert state.stacks[3] == 1000 - 2 - 5 - 5, "the buyer pays before the rebuild"
    request = GAME.chance_request(state)
    assert request.purpose == "stock_rebuild" and request.cards == tuple(sorted(pile))
    assert GAME.to_act(state) == ()
    top = pile[4].code
    state, events = shuffle_with(state, top)
    assert only(events, "stock_rebuilt")[0].data["size"] == 12
    assert drawn(events) == top and only(events, "soldier_drawn")[0].seat == 3
    assert len(state.stock) == 11 and state.discards == ()
    assert GAME.to_act(state) == (3,) and state.step == "discard"


def test_buy_not_available_when_stock_and_discards_are_empty_palace_poker_buy():
    """palace-poker.txt, "Buy": with no card in the draw deck nor in the discard pile, Buy is not
    available. Reachable with ten players: 10 banners and 30 palace cards leave 12 in the stock,
    and twelve buys that keep their soldier leave no card anywhere to buy."""
    state = twelve_buys(keep=True)
    assert state.stock == () and state.discards == ()
    assert GAME.to_act(state) == (2,)
    assert "buy" not in legal(state, 2)
    assert refused(state, "2 buy") == "nothing_to_buy"


# Discard ------------------------------------------------------------------------------------------


def test_discard_is_free_needs_a_card_and_only_own_soldiers_palace_poker_discard():
    """palace-poker.txt, "Discard": the player pays nothing, draws nothing, and discards one or
    more of his own soldier cards."""
    state, _ = deal(2, stock="Ah Kh")
    assert "discard" not in legal(state, 0), "no soldier, nothing to discard"
    state, _ = play(state, "0 buy", "0 keep", "1 buy", "1 keep")
    offered = legal(state, 0)["discard"]
    assert (offered.cost, offered.min_cards, offered.max_cards) == (0, 1, 1)
    assert refused(state, "0 discard") == "no_cards"
    assert refused(state, "0 discard Kh") == "not_your_soldier"
    after, events = play(state, "0 discard Ah")
    assert after.stacks[0] == state.stacks[0] and after.pot == state.pot
    assert after.soldiers[0] == () and codes(after.discards) == ["Ah"]
    assert only(events, "discard")[0].seat == 0 and not only(events, "soldier_drawn")
    assert GAME.to_act(after) == (1,)


# Bet (or battle) ----------------------------------------------------------------------------------


def test_bet_costs_face_up_cards_times_small_bet_palace_poker_bet():
    """palace-poker.txt, "Bet (or battle)": (soldiers + 1 banner) x small bet; in limit exactly."""
    state, _ = deal(2)
    assert legal(state, 0)["bet"].cost == 5
    state, _ = play(state, "0 buy", "0 keep", "1 stay", "0 buy", "0 keep", "1 stay")
    offered = legal(state, 0)["bet"]
    assert offered.cost == 15 and offered.targets == ((1, 15),)
    assert refused(state, "0 bet 1 10") == "invalid_amount"
    assert refused(state, "0 bet 1 20") == "invalid_amount"
    before = state.stacks[0]
    state, events = play(state, "0 bet 1")
    assert only(events, "bet")[0].data == {"target": 1, "amount": 15}
    assert state.stacks[0] == before - 15
    assert GAME.to_act(state) == (1,)


def test_no_bet_against_own_banner_suit_palace_poker_bet():
    """palace-poker.txt, "Bet (or battle)": one cannot bet against a player whose banner is of the
    same suit (possible with 5+ players: player 5 starts a new banner group)."""
    state, _ = deal(5, "Ac Ad Ah As Kc")
    assert [seat for seat, _ in legal(state, 0)["bet"].targets] == [1, 2, 3]
    assert refused(state, "0 bet 4") == "same_banner_suit"
    state, _ = play(state, "0 stay", "1 stay", "2 stay", "3 stay")
    assert [seat for seat, _ in legal(state, 4)["bet"].targets] == [1, 2, 3]
    assert refused(state, "4 bet 0") == "same_banner_suit"


def test_bet_needs_another_player_still_in_palace_poker_bet():
    """palace-poker.txt, "Bet (or battle)": the bettor declares one other player (in the hand)."""
    state, _ = deal(3)
    state, _ = play(state, "0 stay", "1 fold")
    assert [seat for seat, _ in legal(state, 2)["bet"].targets] == [0]
    for move in ("2 bet 1", "2 bet 2", "2 bet 3", "2 bet -1", "2 bet"):
        assert refused(state, move) == "invalid_target", move


def test_bet_and_buy_need_the_chips_palace_poker_bet():
    """palace-poker.txt, "Bet (or battle)" and "Buy": both cost chips; a player short of them may
    not (there is no all-in bet)."""
    state, _ = deal(2, starting_stack=6)
    assert state.stacks == (4, 4)
    assert set(legal(state, 0)) == {"stay", "fold"}
    assert refused(state, "0 bet 1") == "insufficient_chips"
    assert refused(state, "0 buy") == "insufficient_chips"
    rich, _ = deal(2, betting="no_limit")
    assert refused(rich, "0 bet 1 999") == "insufficient_chips"
    assert legal(rich, 0)["bet"].max_amount == 998


@pytest.mark.parametrize(
    ("moves", "defender_soldiers", "owed"),
    [
        # Dave 3 soldiers, Christine 1: a 100 bet is called for 90.
        (["0 buy", "0 keep", "1 buy", "1 keep", "0 buy", "0 keep", "1 stay", "0 buy", "0 keep", "1 stay"], 1, 90),
        # Christine with 4 soldiers: 105.
        (["0 buy", "0 keep", "1 buy", "1 keep"] * 3 + ["0 stay", "1 buy", "1 keep"], 4, 105),
    ],
)
def test_no_limit_bet_minimum_and_call_shift_palace_poker_call(moves, defender_soldiers, owed):
    """palace-poker.txt, "Bet (or battle)" (no-limit: the formula is the minimum) and "Call" (the
    Dave/Christine example, $5/$10 no-limit: Dave bets $100 with three soldiers)."""
    state, _ = deal(2, betting="no_limit")
    state, _ = play(state, *moves)
    assert (len(state.soldiers[0]), len(state.soldiers[1])) == (3, defender_soldiers)
    offered = legal(state, 0)["bet"]
    assert (offered.min_amount, offered.max_amount) == (20, state.stacks[0])
    assert refused(state, "0 bet 1 15") == "invalid_amount"
    state, _ = play(state, "0 bet 1 100")
    assert state.battle.owed == owed
    assert legal(state, 1)["call"].cost == owed
    state, events = play(state, "1 call")
    assert only(events, "call")[0].data == {"cost": owed, "all_in": False}


def test_limit_call_costs_defenders_own_face_up_cards_palace_poker_call():
    """palace-poker.txt, "Call": the defender pays (# of his own face-up cards) x small bet, not
    necessarily the attacker's bet."""
    state, _ = deal(2)
    state, _ = play(state, "0 stay", "1 buy", "1 keep", "0 stay", "1 buy", "1 keep", "0 bet 1")
    assert state.battle.bet == 5
    offered = legal(state, 1)
    assert offered["call"].cost == 15
    assert offered["raise"].cost == 15 + 10
    state, events = play(state, "1 call")
    assert only(events, "call")[0].data == {"cost": 15, "all_in": False}


# Fold (defender) ----------------------------------------------------------------------------------


def test_defender_fold_gives_attacker_banner_and_soldiers_palace_poker_fold():
    """palace-poker.txt, "Fold" (the defender's): his palace cards go to the discard pile, he pays
    nothing more and is out; the attacker takes his banner and soldiers as soldiers. The bet stays
    in the pot."""
    state, _ = deal(3, "2c 2d 2h", hands={1: "Ac Ad Ah"}, stock="Kh")
    state, _ = play(state, "0 stay", "1 buy", "1 keep", "2 stay", "0 bet 1")
    pot, stack = state.pot, state.stacks[1]
    state, events = play(state, "1 fold")
    assert [event.type for event in events] == ["battle_fold", "captured"]
    assert not only(events, "palace_shown"), "nobody sees the folded palace"
    assert codes(only(events, "captured")[0].cards["cards"].cards) == ["2d", "Kh"]
    assert codes(state.soldiers[0]) == ["2d", "Kh"]
    assert codes(state.discards) == ["Ac", "Ad", "Ah"], "face down in the discard pile"
    assert not state.in_hand[1] and state.stacks[1] == stack
    assert state.pot == pot == 6 + 5 + 5, "the attacker's bet stays in the pot"
    assert GAME.to_act(state) == (0,) and state.step == "discard"
    for viewer in (0, 2, "spectator"):
        assert not {"Ac", "Ad", "Ah"} & set(strings_in(GAME.view(state, viewer))), viewer


def test_captured_cards_beyond_five_soldiers_must_be_discarded_palace_poker_fold():
    """palace-poker.txt, "Fold": the attacker treats the captured banner and soldiers as new
    soldiers; he can only end up with five, but can discard as many as he wants."""
    state, _ = deal(3)
    state, _ = play(state, "0 buy", "0 keep", "1 buy", "1 keep", "2 stay")
    for _ in range(4):
        state, _ = play(state, "0 buy", "0 keep", "1 stay", "2 stay")
    assert (len(state.soldiers[0]), len(state.soldiers[1])) == (5, 1)
    state, _ = play(state, "0 bet 1")
    assert state.battle.bet == 30 and state.battle.owed == 10
    state, _ = play(state, "1 fold")
    soldiers = codes(state.soldiers[0])
    assert len(soldiers) == 7
    assert legal(state, 0)["discard"].min_cards == 2
    assert refused(state, "0 keep") == "too_many_soldiers"
    assert refused(state, f"0 discard {soldiers[0]}") == "too_many_soldiers"
    state, _ = play(state, f"0 discard {soldiers[0]} {soldiers[1]}")
    assert len(state.soldiers[0]) == 5 and GAME.to_act(state) == (2,)


def test_fold_on_own_turn_is_free_and_leaves_the_hand_palace_poker_fold():
    """palace-poker.txt, "Fold" (the player's own): he leaves the hand; staying being free, it only
    makes sense in an emergency. The text does not say where his face-up cards go: the engine puts
    banner and soldiers, with the palace cards, face down on the discard pile."""
    state, _ = deal(3, "2c 2d 2h", hands={0: "As Ah Kh"}, stock="9c")
    state, _ = play(state, "0 buy", "0 keep", "1 buy", "1 keep", "2 stay")
    stack, pot = state.stacks[0], state.pot
    state, events = play(state, "0 fold")
    assert [event.type for event in events] == ["fold"] and not only(events, "palace_shown")
    assert not state.in_hand[0] and state.stacks[0] == stack and state.pot == pot
    assert sorted(codes(state.discards)) == sorted(["As", "Ah", "Kh", "2c", "9c"])
    assert GAME.to_act(state) == (1,)


# Raise --------------------------------------------------------------------------------------------


def test_attacker_folding_to_a_raise_leaves_the_raise_with_the_defender_palace_poker_raise():
    """palace-poker.txt, "Raise": if the attacker folds to a defender's raise, only the attacker's
    bet and the defender's call go into the pot; the defender keeps what he raised and takes the
    attacker's face-up cards."""
    state, _ = deal(3, "2c 2d 2h")
    state, _ = play(state, "0 bet 1", "1 raise")
    assert state.stacks[1] == 1000 - 2 - 10
    state, events = play(state, "0 fold")
    (returned,) = only(events, "chips_returned")
    assert (returned.seat, returned.data) == (1, {"amount": 5, "reason": "uncalled_raise"})
    assert state.stacks == (1000 - 2 - 5, 1000 - 2 - 5, 1000 - 2)
    assert state.pot == 6 + 5 + 5
    assert not state.in_hand[0] and codes(state.soldiers[1]) == ["2c"]
    assert GAME.to_act(state) == (1,)


def test_defender_folding_to_a_reraise_leaves_the_reraise_with_the_attacker_palace_poker_raise():
    """palace-poker.txt, "Raise" (the same rule the other way round; the text is explicit only for
    the attacker folding): the folder's opponent takes back his uncalled re-raise."""
    state, _ = deal(3, "2c 2d 2h")
    state, _ = play(state, "0 bet 1", "1 raise", "0 raise")
    assert state.stacks[0] == 1000 - 2 - 5 - 15
    state, events = play(state, "1 fold")
    assert [(e.seat, e.data["amount"]) for e in only(events, "chips_returned")] == [(0, 10)]
    assert state.stacks[0] == 1000 - 2 - 5 - 5, "he keeps only the 5 that called the defender's raise in"
    assert state.pot == 6 + 5 + 10 + 5


def test_defender_first_raise_is_small_bet_without_soldiers_else_big_bet_palace_poker_raise():
    """palace-poker.txt, "Raise" (limit): the defender raises one big bet, unless he has no soldier
    cards, when he only doubles to two small bets; the attacker's re-raise is a big bet."""
    bare, _ = deal(2)
    bare, _ = play(bare, "0 bet 1")
    offered = legal(bare, 1)["raise"]
    assert (offered.min_amount, offered.max_amount, offered.cost) == (5, 5, 5 + 5)
    assert refused(bare, "1 raise 10") == "invalid_amount"
    bare, _ = play(bare, "1 raise")
    assert legal(bare, 0)["raise"].cost == 5 + 10, "re-raise: call the 5 and add a big bet"

    armed, _ = deal(2)
    armed, _ = play(armed, "0 stay", "1 buy", "1 keep", "0 bet 1")
    offered = legal(armed, 1)["raise"]
    assert (offered.min_amount, offered.cost) == (10, 10 + 10)
    assert refused(armed, "1 raise 5") == "invalid_amount"
    before = armed.stacks[1]
    armed, events = play(armed, "1 raise")
    assert before - armed.stacks[1] == 20 and only(events, "raise")[0].data == {"cost": 20, "amount": 10}


def test_no_limit_raise_is_at_least_big_bet_or_small_bet_without_soldiers_palace_poker_raise():
    """palace-poker.txt, "Raise" (no-limit): any amount at least the big bet, or at least a small
    bet if the defender has no soldiers."""
    bare, _ = deal(2, betting="no_limit")
    bare, _ = play(bare, "0 bet 1")
    offered = legal(bare, 1)["raise"]
    assert (offered.min_amount, offered.max_amount) == (5, bare.stacks[1] - 5)
    armed, _ = deal(2, betting="no_limit")
    armed, _ = play(armed, "0 stay", "1 buy", "1 keep", "0 bet 1")
    assert legal(armed, 1)["raise"].min_amount == 10
    assert refused(armed, "1 raise 9") == "invalid_amount"
    before = armed.stacks[1]
    armed, _ = play(armed, "1 raise 50")
    assert before - armed.stacks[1] == 10 + 50 and armed.battle.owed == 50


def test_no_limit_reraise_of_one_chip_is_accepted_palace_poker_raise():
    """palace-poker.txt, "Raise", third bullet: after the defender's first raise, a no-limit
    re-raise can be any amount the re-raiser wants.

    Given a no-limit battle where the defender raised 50, when the attacker re-raises 1 chip and
    the defender re-raises 1 chip back, then both are accepted (a raise of nothing is refused: it
    would be a call) and the attacker owes 1 chip to call."""
    state, _ = deal(2, betting="no_limit")
    state, _ = play(state, "0 bet 1", "1 raise 50")
    offered = legal(state, 0)["raise"]
    assert (offered.min_amount, offered.cost) == (1, 50 + 1)
    assert refused(state, "0 raise 0") == "invalid_amount"
    before = state.stacks[0]
    state, events = play(state, "0 raise 1")
    assert only(events, "raise")[0].data == {"cost": 51, "amount": 1} and before - state.stacks[0] == 51
    assert legal(state, 1)["raise"].min_amount == 1
    state, _ = play(state, "1 raise 1")
    assert (state.battle.responder, state.battle.owed, state.battle.raises) == (0, 1, 3)
    assert "raise" not in legal(state, 0), "three raises: the cap"


def test_limit_reraise_stays_one_big_bet_palace_poker_raise():
    """palace-poker.txt, "Raise", third bullet: in a limit game a re-raise is one big bet; only
    no-limit re-raises are free in size. Given a limit battle with the defender's raise, when the
    attacker re-raises 1 chip, then it is refused."""
    state, _ = deal(2)
    state, _ = play(state, "0 bet 1", "1 raise")
    assert legal(state, 0)["raise"].min_amount == 10
    assert refused(state, "0 raise 1") == "invalid_amount"


# Banner Suits -------------------------------------------------------------------------------------


def test_opponents_banner_suit_does_not_count_in_a_battle_palace_poker_banner_suits():
    """palace-poker.txt, "Banner Suits": in a battle, cards of the opponent's banner suit are
    worthless. Seat 0 (clubs) holds Ad As 7h: aces counting the diamond, ace-high without it,
    which loses to seat 1's (diamonds) pair of kings."""
    state, _ = deal(2, "2c 3d", hands={0: "Ad As 7h", 1: "Kh Ks 9s"})
    counted = best_hand(parse_cards("Ad As 7h 2c"))
    assert counted.rank > best_hand(parse_cards("Kh Ks 9s 3d")).rank, "without the rule seat 0 wins"
    state, events = play(state, "0 bet 1", "1 call")
    shown = only(events, "palace_shown")
    assert [(e.seat, e.data["to"], e.cards["palace"].hand) for e in shown] == [
        (0, 1, "high card, ace"),  # the caller sees the attacker's palace first
        (1, 0, "pair of kings"),  # and, winning, shows his own
    ]
    assert [(e.seat, e.data["loser"]) for e in only(events, "battle_won")] == [(1, 0)]
    assert award(events) == ("last_player", {"1": 4 + 5 + 5})


def test_four_of_a_kind_counts_whole_in_a_battle_palace_poker_banner_suits():
    """palace-poker.txt, "Banner Suits": four of a kind counts all four cards even though one is of
    the opponent's banner suit. Seat 0 (Ac banner, Ad Ah As) has four aces against diamonds, not
    just three aces, and beats seat 1's full house (3d 3h 3s Kh Ks)."""
    state, _ = deal(2, "Ac 3d", hands={0: "Ad Ah As", 1: "3h 3s Kh"}, stock="Ks")
    state, _ = play(state, "0 stay", "1 buy", "1 keep", "0 bet 1")
    assert legal(state, 1)["call"].cost == 10
    state, events = play(state, "1 call")
    shown = {e.seat: e.cards["palace"].hand for e in only(events, "palace_shown")}
    assert shown == {0: "four aces"}, "the caller lost: only the attacker's palace is shown"
    full_house = best_hand(parse_cards("3h 3s Kh Ks 3d"), exclude_suit="c")
    assert full_house.name == "full house, threes over kings"
    assert best_hand(parse_cards("Ac Ah As")).rank < full_house.rank, "three aces alone would lose"
    assert [e.seat for e in only(events, "battle_won")] == [0]


# Ties ---------------------------------------------------------------------------------------------

TIE_HANDS = {0: "As Ks Qs", 1: "Ah Kh Qh"}  # with banners 2c and 2d: A K Q 2 each, one own-suit card


def test_battle_tie_goes_to_more_own_suit_cards_palace_poker_ties():
    """palace-poker.txt, "Ties": the same hand value is won by the player with more cards of his own
    banner suit in it. Seat 0 (2c, Qc) has two clubs, seat 1 (2d) one diamond: A K Q 2 both."""
    state, _ = deal(2, "2c 2d", hands={0: "As Ks Qc", 1: "Ah Kh Qh"})
    state, events = play(state, "0 bet 1", "1 call")
    assert not only(events, "battle_tied")
    assert [(e.seat, e.data["loser"]) for e in only(events, "battle_won")] == [(0, 1)]
    assert award(events) == ("last_player", {"0": 14})


def test_full_battle_tie_with_others_left_puts_both_out_palace_poker_ties():
    """palace-poker.txt, "Ties": still tied, and not the last two, both fold and all their cards,
    banners and soldiers included, go to the discard pile."""
    state, _ = deal(4, "2c 2d 3h 3s", hands=TIE_HANDS, stock="Js Jh")
    state, _ = play(state, "0 buy", "0 keep", "1 buy", "1 keep", "2 stay", "3 stay", "0 bet 1")
    state, events = play(state, "1 call")
    (tie,) = only(events, "battle_tied")
    assert (tie.seat, tie.data) == (0, {"defender": 1, "outcome": "both_out"})
    assert sorted((e.seat, e.data["to"]) for e in only(events, "palace_shown")) == [(0, 1), (1, 0)]
    assert state.in_hand == (False, False, True, True)
    assert sorted(codes(state.discards)) == sorted(["As", "Ks", "Qs", "2c", "Js", "Ah", "Kh", "Qh", "2d", "Jh"])
    assert state.banners[:2] == (None, None) and state.soldiers[:2] == ((), ())
    assert state.pot == 8 + 5 + 5 + 10 + 10 and not only(events, "pot_awarded")
    assert GAME.to_act(state) == (2,) and state.step == "turn"


def test_full_battle_tie_between_last_two_splits_the_pot_palace_poker_ties():
    """palace-poker.txt, "Ties": if the two tied players are the only two left, they split the pot."""
    state, _ = deal(2, "2c 2d", hands=TIE_HANDS)
    state, events = play(state, "0 bet 1", "1 call")
    assert only(events, "battle_tied")[0].data["outcome"] == "split"
    assert award(events) == ("battle_tie", {"0": 7, "1": 7})
    assert state.stacks == (1000, 1000)


# Stay ---------------------------------------------------------------------------------------------


def test_run_of_stay_discard_fold_ends_in_public_showdown_palace_poker_stay():
    """palace-poker.txt, "Stay": when all players Stay, Discard or Fold in a row the hand ends; all,
    from the one who began the run, show their palace cards; no suit constraint applies. Seat 0's
    pair of aces uses the ace of diamonds, seat 1's banner suit."""
    hands = {0: "Ad As 7h", 1: "Kh Ks 9s", 2: "5s 6c 8c"}
    state, _ = deal(3, "2c 3d 4h", hands=hands, stock="Jc")
    state, events = play(state, "0 buy", "0 keep", "1 stay", "2 fold")
    assert not only(events, "palace_shown") and GAME.to_act(state) == (0,)
    state, events = play(state, "0 discard Jc")
    shown = only(events, "palace_shown")
    assert [e.seat for e in shown] == [1, 0], "from the player who began the run; the folder shows nothing"
    for event in shown:
        for viewer in (0, 1, 2, "spectator"):
            assert event.to_json(viewer)["cards"]["palace"]["cards"] == hands[event.seat].split()
    assert shown[1].data["hand"] == "pair of aces"
    assert award(events) == ("showdown", {"0": 6 + 5})


def test_chips_in_the_middle_restart_the_run_palace_poker_stay():
    """palace-poker.txt, "Stay": only a full round of turns with no money put in ends the hand."""
    state, _ = deal(3)
    state, events = play(state, "0 stay", "1 stay", "2 buy", "2 keep", "0 stay", "1 stay")
    assert not only(events, "pot_awarded") and GAME.to_act(state) == (2,)
    state, events = play(state, "2 stay")
    assert [e.seat for e in only(events, "palace_shown")] == [0, 1, 2]
    assert award(events)[0] == "showdown"


# Winning the Pot ----------------------------------------------------------------------------------


def test_last_player_left_takes_the_pot_unseen_palace_poker_winning_the_pot():
    """palace-poker.txt, "Winning the Pot" and "Fold": the last player takes the pot; nobody shows."""
    state, _ = deal(2)
    state, events = play(state, "0 bet 1", "1 fold")
    assert award(events) == ("last_player", {"0": 4 + 5})
    assert not only(events, "palace_shown")
    state, _ = deal(3)
    state, events = play(state, "0 fold", "1 fold")
    assert award(events) == ("last_player", {"2": 6}) and not only(events, "palace_shown")


def test_players_left_sharing_one_banner_suit_split_at_once_palace_poker_winning_the_pot():
    """palace-poker.txt, "Winning the Pot": if the only players remaining all have the same banner
    suit, the hand is immediately over and they split the pot (seats 0 and 4 are clubs)."""
    state, _ = deal(5, "Ac Ad Ah As Kc")
    state, events = play(state, "0 stay", "1 fold", "2 fold")
    assert not only(events, "pot_awarded")
    state, events = play(state, "3 fold")
    assert award(events) == ("same_banner_suit", {"0": 5, "4": 5})
    assert not only(events, "palace_shown")


def test_showdown_tie_goes_to_more_own_suit_cards_elena_aaron_palace_poker_winning_the_pot():
    """palace-poker.txt, "Winning the Pot" example: Elena (Jh banner) and Aaron (5c banner) both have
    K K J 9 8; Elena's has three hearts, Aaron's two clubs, so Elena wins. Aaron uses the 9h (her
    suit): a showdown is no battle."""
    aaron, elena = 0, 1
    hands = {aaron: "Kc Ks 9h", elena: "Kh Kd 9s"}
    state, _ = deal(2, "5c Jh", hands=hands, stock="Jc 8h 8d")
    state, _ = play(state, "0 buy", "0 keep", "1 buy", "1 keep", "0 buy", "0 keep", "1 stay")
    state, events = play(state, "0 stay")
    shown = {e.seat: e for e in only(events, "palace_shown")}
    assert {seat: e.data["hand"] for seat, e in shown.items()} == {0: "pair of kings", 1: "pair of kings"}
    assert sorted(codes(shown[aaron].cards["hand"].cards)) == sorted(["Kc", "Ks", "Jc", "9h", "8d"])
    assert sorted(codes(shown[elena].cards["hand"].cards)) == sorted(["Kh", "Kd", "Jh", "9s", "8h"])
    assert (shown[elena].data["own_suit_cards"], shown[aaron].data["own_suit_cards"]) == (3, 2)
    assert award(events) == ("showdown", {"1": 4 + 15})


def test_full_showdown_tie_splits_odd_chip_left_of_dealer_palace_poker_winning_the_pot():
    """palace-poker.txt, "Winning the Pot": still tied on own-suit cards, the pot is split. The odd
    chip (the text is silent) goes to the first winner left of the dealer: seat 2, not seat 0."""
    hands = {1: "4s 5s 7c", 2: "As Ks Qs", 0: "Ah Kh Qh"}
    state, _ = deal(3, "3h 2c 2d", hands=hands, first_dealer=0, ante=1)
    assert state.banners == parse_cards("2d 3h 2c")
    state, events = play(state, "1 stay", "2 stay", "0 stay")
    assert [e.seat for e in only(events, "palace_shown")] == [1, 2, 0]
    assert award(events) == ("showdown", {"2": 2, "0": 1})


# Match --------------------------------------------------------------------------------------------


def test_dealer_moves_left_and_max_hands_ends_the_match_palace_poker_example_game_continued():
    """palace-poker.txt, "Example Game Continued" (the player at the dealer's left deals next); the
    match ends after ``max_hands`` hands."""
    state = GAME.new_game({**BASE, "first_dealer": 0, "max_hands": 3}, 3)
    dealers = []
    for _ in range(3):
        state, events = shuffle_with(state, "")
        dealers.append(only(events, "hand_started")[0].data["dealer"])
        state, _ = shuffle_with(state, "")
        first, second, _ = state.deal_order()
        state, events = play(state, f"{first} fold", f"{second} fold")
    assert dealers == [0, 1, 2]
    (ended,) = only(events, "match_ended")
    assert ended.data["hands"] == 3 and GAME.is_over(state)
    assert ended.data["winners"] == list(state.winners) and sum(state.stacks) == 3000
    assert apply_refused(state, Action(type="stay", seat=0)) == "game_over"


def test_player_without_chips_leaves_and_is_skipped_poker_basics_penguin_out_of_chips():
    """palace-poker.txt has no match rules; poker-basics-penguin.txt, "Out of chips" (they may buy
    back only for the next hand): a player left with no chips after a hand leaves the match
    (``player_left``) and the next deal, moving left, skips him."""
    hands = {0: "As Ah Kh", 1: "7s 5h 3d", 2: "4c 6c 8c"}
    state, _ = deal(3, "2c 2d 2h", hands=hands, starting_stack=7, max_hands=2)
    state, events = play(state, "0 bet 1", "1 call")
    assert only(events, "call")[0].data == {"cost": 5, "all_in": False}
    state, events = play(state, "0 keep", "2 fold")
    assert award(events) == ("last_player", {"0": 6 + 10})
    assert state.stacks == (16, 0, 5)
    assert [(e.seat, e.data["reason"]) for e in only(events, "player_left")] == [(1, "no_chips")]
    assert state.in_match == (True, False, True) and state.dealer == 0
    state, events = shuffle_with(state, "")
    assert only(events, "hand_started")[0].data["seats"] == [2, 0]
    assert GAME.view(state, 1)["seats"][1]["in_hand"] is False


def test_defender_short_of_the_call_calls_all_in_palace_poker_call():
    """palace-poker.txt, "Call" is silent on short stacks: a defender with less than the call may
    call with all he has (``all_in``); here he loses, leaves, and the match ends."""
    hands = {0: "As Ah Kh", 1: "7s 5h 3d"}
    state, _ = deal(2, "2c 2d", hands=hands, stock="9h", starting_stack=12, max_hands=None)
    state, _ = play(state, "0 stay", "1 buy", "1 keep", "0 bet 1")
    assert state.stacks[1] == 5 and state.battle.owed == 10
    offered = legal(state, 1)
    assert offered["call"].cost == 5 and "raise" not in offered
    state, events = play(state, "1 call")
    assert only(events, "call")[0].data == {"cost": 5, "all_in": True}
    assert award(events) == ("last_player", {"0": 4 + 5 + 5 + 5})
    assert seats_of(events, "player_left") == [1]
    assert only(events, "match_ended")[0].data["winners"] == [0] and state.stacks == (24, 0)


def test_attacker_short_of_a_raise_calls_all_in_and_the_rest_goes_back_palace_poker_raise():
    """palace-poker.txt, "Raise" ("if the attacker calls, he must meet however much the defender
    raised") is silent on a short stack: he calls with all he has and the part of the raise he
    cannot meet goes back to the defender."""
    state = replace(table(2), stacks=(10, 1000))
    state, _ = shuffle_with(state, "2c 2d")
    state, _ = shuffle_with(state, palace_top(state, {0: "As Ah Kh", 1: "7s 5h 3d"}))
    state, _ = play(state, "0 bet 1", "1 raise")
    assert state.stacks[0] == 3 and legal(state, 0)["call"].cost == 3
    state, events = play(state, "0 call")
    assert only(events, "call")[0].data == {"cost": 3, "all_in": True}
    assert [(e.seat, e.data["amount"]) for e in only(events, "chips_returned")] == [(1, 2)]
    assert award(events) == ("last_player", {"0": 4 + 5 + 10 + 3 - 2})
    assert state.stacks == (20, 990)


def test_views_never_show_stock_cards_palace_poker_the_play():
    """palace-poker.txt, "Palace Cards" and "Buy": the draw deck is face down; no view (staff
    included) names a card in it, in any phase."""
    state = table(3)
    state, _ = shuffle_with(state, "")
    checked = [state]  # palace shuffle pending: the undealt cards are the stock
    state, _ = shuffle_with(state, "")
    checked.append(state)
    state, _ = play(state, "0 buy")
    checked.append(state)
    state, _ = play(state, "0 keep", "1 bet 0")
    checked.append(state)
    for snapshot in checked:
        stock = set(codes(snapshot.stock))
        assert stock
        for viewer in (0, 1, 2, "spectator", "staff"):
            view = GAME.view(snapshot, viewer)
            assert view["stock_size"] == len(snapshot.stock)
            assert not stock & set(strings_in(view)), (snapshot.phase, viewer)


# Errors -------------------------------------------------------------------------------------------


def test_errors_not_your_turn_and_unknown_action_palace_poker_the_play():
    """palace-poker.txt, "The Play": turns go clockwise; the five choices (and a battle's answers)."""
    state, _ = deal(3)
    assert refused(state, "1 stay") == "not_your_turn"
    assert apply_refused(state, Action(type="stay")) == "not_your_turn"
    assert refused(state, "0 check") == "unknown_action"
    state, _ = play(state, "0 bet 2")
    assert refused(state, "1 call") == "not_your_turn"
    assert refused(state, "0 call") == "not_your_turn", "the attacker waits for the defender"


def test_errors_action_not_allowed_and_unexpected_field_palace_poker_the_play():
    """palace-poker.txt, "The Play" and "Bet (or battle)": call/raise answer a bet, the turn actions
    do not; actions carry only their own fields."""
    state, _ = deal(2)
    assert refused(state, "0 call") == "action_not_allowed"
    assert refused(state, "0 raise") == "action_not_allowed"
    assert apply_refused(state, Action(type="stay", seat=0, target=1)) == "unexpected_field"
    assert apply_refused(state, Action(type="buy", seat=0, amount=5)) == "unexpected_field"
    assert apply_refused(state, Action(type="fold", seat=0, cards=parse_cards("2c"))) == "unexpected_field"
    bought, _ = play(state, "0 buy")
    assert refused(bought, "0 buy") == "action_not_allowed"
    assert refused(bought, "0 stay") == "action_not_allowed"
    battle, _ = play(state, "0 bet 1")
    assert refused(battle, "1 stay") == "action_not_allowed"
    assert refused(battle, "1 bet 0") == "action_not_allowed"


def test_errors_awaiting_shuffle_and_invalid_shuffle_palace_poker_the_deal():
    """palace-poker.txt, "The Deal": nothing is decided while the dealer shuffles; a shuffle orders
    exactly the cards being shuffled."""
    state = table(2)
    assert refused(state, "0 stay") == "awaiting_shuffle"
    deck = list(FULL_DECK)
    assert apply_refused(state, Action(type="shuffle", cards=tuple(deck[1:]))) == "invalid_shuffle"
    duplicated = (deck[1], *deck[1:])
    assert len(duplicated) == 52
    assert apply_refused(state, Action(type="shuffle", cards=duplicated)) == "invalid_shuffle"
    assert apply_refused(state, Action(type="shuffle", seat=0, cards=tuple(deck))) == "invalid_shuffle"
    state, _ = deal(2)
    assert apply_refused(state, Action(type="shuffle", cards=tuple(deck))) == "no_shuffle_due"


def test_errors_game_over_palace_poker_winning_the_pot():
    """palace-poker.txt, "Winning the Pot": the last player left takes the pot; with ``max_hands``
    1 that ends the match (the text has no match) and nothing more is applied (``game_over``)."""
    state, _ = deal(2)
    state, _ = play(state, "0 fold")
    assert GAME.is_over(state) and GAME.to_act(state) == () and GAME.chance_request(state) is None
    assert refused(state, "1 stay") == "game_over"
    assert apply_refused(state, Action(type="shuffle", cards=FULL_DECK)) == "game_over"
