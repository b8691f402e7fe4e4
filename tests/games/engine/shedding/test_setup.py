"""The first dealer, the deal, the simultaneous face-up choice and the first player, one rule each
(given / when / then). Decks are prearranged: see ``helpers``."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.cards import parse_cards
from games.engine.errors import EngineError, IllegalAction
from games.engine.protocol import SPECTATOR, STAFF, Action
from games.engine.shedding import PALACE as GAME
from games.engine.shedding.state import DEAL, PLAY, SETUP, pack
from tests.games.engine.shedding.helpers import THREE_SEATS, TWO_SEATS, act, codes, deal, keep_all, only, shuffle_with


def test_a6_the_highest_card_drawn_deals_first_and_a_two_ranks_highest():
    """palace-shedding-a.txt ¶6.1-2, ranks as in ¶5.2: given draws K, 2, A in seat order, then the two
    deals; the cards drawn are public; then the whole pack is shuffled again for the deal."""
    state = GAME.new_game({}, 3)
    assert GAME.chance_request(state).purpose == "first_dealer"
    state, events = shuffle_with(state, "Kc 2d Ah")
    assert state.dealer == 1 and state.phase == DEAL
    assert [(e.seat, e.cards["card"].visible_to) for e in only(events, "dealer_card")] == [
        (0, None),
        (1, None),
        (2, None),
    ]
    request = GAME.chance_request(state)
    assert request.purpose == "deal" and len(request.cards) == 52


def test_a6_tied_high_cards_draw_again():
    """Given aces for seats 0 and 1 and a three for seat 2, when the tied seats draw again (K, 5),
    then seat 0 deals."""
    state, events = shuffle_with(GAME.new_game({}, 3), "Ac As 3d Kc 5h")
    assert state.dealer == 0
    assert [e.seat for e in only(events, "dealer_card")] == [0, 1, 2, 0, 1]


def test_a8_the_deal_puts_three_face_down_three_face_up_and_three_in_hand_from_the_dealers_left():
    """palace-shedding-a.txt ¶8.3-7: one card at a time clockwise from the dealer's left: three rows
    face down, three face up, three to the hand; the rest is the stock. Face-down cards are seen by
    nobody, the owner included (¶13.2; b "Setup"); face-up cards by all (¶8.5); the hand by its owner."""
    state = deal(*THREE_SEATS, stock="Ks")
    assert state.phase == SETUP and state.dealer == 2
    assert state.face_down[1] == parse_cards("3d 4d 5d")
    assert state.face_up[2] == parse_cards("6h 7h 8h")
    assert state.hands[0] == parse_cards("9c Jc Qc")
    assert state.stock[0] == parse_cards("Ks")[0] and len(state.stock) == 52 - 27
    assert GAME.to_act(state) == (0, 1, 2)


def test_a8_dealt_cards_are_shown_as_the_texts_say():
    state = GAME.new_game({"first_dealer": 1}, 2)
    request = GAME.chance_request(state)
    state, events = GAME.apply(state, Action(type="shuffle", cards=request.cards))
    dealt = only(events, "dealt")
    assert [e.seat for e in dealt] == [0, 1]
    for event in dealt:
        assert event.cards["face_down"].visible_to == frozenset()
        assert event.cards["face_up"].visible_to is None
        assert event.cards["hand"].visible_to == frozenset({event.seat})
        assert event.to_json(event.seat)["cards"]["face_down"]["cards"] == [None] * 3
    assert only(events, "shuffle")[0].to_json(0)["cards"]["order"]["cards"] == [None] * 52


def test_b_setup_with_six_cards_to_the_hand_the_face_up_row_is_private_until_chosen():
    """palace-shedding-b.txt "Setup": six cards to the hand, three chosen to lie face up: the other
    players see none of the six until the choices are turned up."""
    state = deal(*TWO_SEATS, setup_deal="hand")
    assert GAME.view(state, 1)["seats"][0]["face_up"] == [None] * 3
    assert GAME.view(state, 0)["seats"][0]["face_up"] == ["6c", "7c", "8c"]
    assert GAME.view(state, SPECTATOR)["seats"][1]["face_up"] == [None] * 3
    state = keep_all(state)
    assert GAME.view(state, 1)["seats"][0]["face_up"] == ["6c", "7c", "8c"]


def test_a9_b_setup_every_player_chooses_at_once_and_the_choices_stay_sealed():
    """palace-shedding-a.txt ¶9.2-3 / b "Setup" (the same decision): every seat is to act at once;
    each submits once; each sees only his own choice until all have chosen; then all are turned up."""
    state = deal(*THREE_SEATS)
    state, events = act(state, 1, "choose_face_up", cards="Jd 8d Qd")
    assert GAME.to_act(state) == (0, 2)
    assert events[0].cards["cards"].visible_to == frozenset({1})
    with pytest.raises(IllegalAction) as raised:
        act(state, 1, "choose_face_up", cards="Jd 8d Qd")
    assert raised.value.code == "not_your_turn"
    seen_by_0 = GAME.view(state, 0)["seats"][1]
    assert seen_by_0["chosen"] is True and seen_by_0["choice"] is None and seen_by_0["face_up"] == ["6d", "7d", "8d"]
    assert GAME.view(state, 1)["seats"][1]["choice"] == ["8d", "Jd", "Qd"]
    state, _ = act(state, 2, "choose_face_up", cards="6h 7h 8h")
    state, events = act(state, 0, "choose_face_up", cards="6c 7c 8c")
    assert state.phase == PLAY
    assert [(e.seat, e.cards["face_up"].visible_to) for e in only(events, "face_up_set")] == [
        (0, None),
        (1, None),
        (2, None),
    ]
    assert state.face_up[1] == parse_cards("8d Jd Qd") and state.hands[1] == parse_cards("6d 7d 9d")


def test_a9_dealt_face_up_cards_exchanged_into_the_hand_stay_known_to_all():
    """palace-shedding-a.txt ¶8.5 and ¶9.2: everyone saw the dealt face-up cards, so those taken into
    the hand are known; with ``setup_deal: "hand"`` (b "Setup") they are not."""
    for setup_deal, known in (("face_up", ["6d", "7d"]), ("hand", [])):
        state = deal(*TWO_SEATS, setup_deal=setup_deal)
        state, _ = act(state, 0, "choose_face_up", cards="6c 7c 8c")
        state, events = act(state, 1, "choose_face_up", cards="9d Jd 8d")
        assert GAME.view(state, 0)["seats"][1]["hand"] == [*known, *[None] * (3 - len(known))]
        assert GAME.view(state, 1)["seats"][1]["hand"] == ["6d", "7d", "Qd"]
        groups = only(events, "face_up_set")[1].cards
        assert ("to_hand" in groups) == bool(known)


@pytest.mark.parametrize(("cards", "code"), [("9c Jc", "choose_three"), ("9c Jc Ks", "not_your_cards")])
def test_choose_face_up_names_three_of_ones_own_six_cards(cards, code):
    with pytest.raises(IllegalAction) as raised:
        act(deal(*TWO_SEATS), 0, "choose_face_up", cards=cards)
    assert raised.value.code == code


def test_a10_the_first_face_up_three_clockwise_from_the_dealer_plays_first():
    """palace-shedding-a.txt ¶10.2: seats 1 and 2 show a three, seat 0 none; clockwise from the
    dealer's left (seat 0, the dealer being seat 2) seat 1 comes first."""
    state = deal(["Ac Kc As", "Ad Kd Ks", "Ah Kh 2s"], ["Tc 7c 8c", "3d 7d 8d", "3h 7h 8h"], THREE_SEATS[2])
    assert keep_all(state).turn == 1


def test_a10_without_a_three_the_next_lowest_face_up_card_starts_and_a_two_is_high():
    """palace-shedding-a.txt ¶10.3-4 with ranks as in ¶5.2: fives are the lowest face-up cards
    shown (seat 2); the two of seat 0 does not count as low."""
    state = deal(["3c 4c 3s", "3d 4d 4s", "3h 4h Ts"], ["2c 7c 8c", "6d 7d 8d", "5h 7h 8h"], THREE_SEATS[2])
    state = GAME.apply(state, Action(type="choose_face_up", seat=0, cards=state.face_up[0]))[0]
    state = GAME.apply(state, Action(type="choose_face_up", seat=1, cards=state.face_up[1]))[0]
    state, events = GAME.apply(state, Action(type="choose_face_up", seat=2, cards=state.face_up[2]))
    assert state.turn == 2
    assert only(events, "first_player")[0].data == {"rule": "lowest_face_up"}


@pytest.mark.parametrize(("first_player", "turn"), [("left_of_dealer", 0), (1, 1), (2, 2)])
def test_first_player_left_of_dealer_or_a_chosen_seat(first_player, turn):
    """Option ``first_player``: the dealer's left, or the seat the players chose (b "Setup", last
    paragraph)."""
    state = keep_all(deal(*THREE_SEATS, first_player=first_player))
    assert state.turn == turn and GAME.to_act(state) == (turn,)


def test_play_begins_only_when_everyone_has_chosen():
    state = deal(*TWO_SEATS)
    state, _ = act(state, 0, "choose_face_up", cards="6c 7c 8c")
    with pytest.raises(IllegalAction) as raised:
        act(state, 0, "play", cards="9c")
    assert raised.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as raised:
        act(state, 1, "play", cards="9d")
    assert raised.value.code == "action_not_allowed"
    assert GAME.view(state, STAFF)["to_act"] == [1]


def test_b_players_a_two_deck_pack_is_prearranged_with_each_card_twice():
    """palace-shedding-b.txt header "Players" (more decks for five and more; option ``decks: 2``) with
    a¶6.1-2 and a¶8.3-6. Given five seats and two decks, when the draw for the deal gives both copies of
    Kc to seats 0 and 1, then they tie and draw again (9d beats 3s: seat 0 deals); when the deal's order
    gives seat 1 both copies of 9s, then his hand holds them both. A pack holding a card three times
    (and another once) is no order of the 104 cards: ``invalid_shuffle``."""
    state = GAME.new_game({"decks": 2}, 5)
    request = GAME.chance_request(state)
    assert len(request.cards) == 104
    state, events = shuffle_with(state, "Kc Kc 5d 5h 5s 9d 3s")
    assert state.dealer == 0 and [e.seat for e in only(events, "dealer_card")] == [0, 1, 2, 3, 4, 0, 1]

    order = list(GAME.chance_request(state).cards)
    bad = [*order[:-1], order[0]]
    with pytest.raises(EngineError) as raised:
        GAME.apply(state, Action(type="shuffle", cards=tuple(bad)))
    assert raised.value.code == "invalid_shuffle"

    face_down = ["3c 4c 5c", "3d 4d 6d", "3h 4h 5h", "6s 7s 8s", "6c 7c 8c"]
    face_up = ["Ac Kd Qc", "Ad Kd Qd", "Ks Qh Jh", "Ah Ah Kh", "As Jc Qs"]
    hands = ["7d 8d Td", "9s 9s 4s", "2h 2d 6h", "Jd Jd 2s", "7h 8h 9h"]
    rows = [[cards.split() for cards in row] for row in (face_down, face_up, hands)]
    head = [row[seat][k] for row in rows for k in range(3) for seat in (1, 2, 3, 4, 0)]
    state, _ = shuffle_with(state, " ".join(head))
    assert [sorted(codes(cards).split()) for cards in state.hands] == [sorted(cards.split()) for cards in hands]
    assert [sorted(codes(cards).split()) for cards in state.face_up] == [sorted(cards.split()) for cards in face_up]
    assert state.all_cards() == Counter(pack(2))
