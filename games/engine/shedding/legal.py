"""Who decides now, what each seat may do (every choice costs 0 chips), and what a timeout does.

Functions here read a ``ShedState`` or a ``Draft`` of one alike (sequences either way).

Out-of-turn plays (options ``redraw``, palace-shedding-a.txt ¶19.1, and ``out_of_turn_four``,
palace-shedding-b.txt "Other Misc. Rules", third bullet) put extra seats in ``to_act`` after the
seat on turn; each is a ``play`` whose legal entry names exactly the cards it may use. Whoever's
decision is applied first wins: any decision changes the state, and the window of the others
closes with it (the server answers the late ones 409 through ``expected_version``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.cards import Card
from games.engine.errors import EngineCode, IllegalAction
from games.engine.protocol import Action, LegalAction
from games.engine.shedding.ranks import FOUR_OF_A_KIND, contains, plays_on, sort_cards, timeout_key, top_run
from games.engine.shedding.state import PLAY, SETUP

HAND = "hand"
FACE_UP = "face_up"
FACE_DOWN = "face_down"

TURN_PLAY = "turn"
REDRAW_PLAY = "redraw"
FOUR_PLAY = "four"


def source(s: Any, seat: int) -> str | None:
    """Where ``seat`` plays from now: his hand; else, with the stock empty, his face-up cards
    (palace-shedding-a.txt ¶12.2); else his face-down cards (¶13.1). ``None`` if he holds nothing."""
    if s.hands[seat]:
        return HAND
    if s.stock:
        return None
    if s.face_up[seat]:
        return FACE_UP
    if any(card is not None for card in s.face_down[seat]):
        return FACE_DOWN
    return None


def source_cards(s: Any, seat: int, where: str | None) -> Sequence[Card]:
    """The cards of ``seat``'s hand or face-up row (none for the face-down row)."""
    if where == HAND:
        return s.hands[seat]
    if where == FACE_UP:
        return s.face_up[seat]
    return ()


def _by_rank(cards: Sequence[Card]) -> dict[int, list[Card]]:
    groups: dict[int, list[Card]] = {}
    for card in sort_cards(cards):
        groups.setdefault(card.rank, []).append(card)
    return groups


def turn_plays(s: Any, seat: int) -> list[LegalAction]:
    """One ``play`` entry per rank the seat on turn may play: 1 to all of his cards of that rank."""
    where = source(s, seat)
    groups = _by_rank(source_cards(s, seat, where))
    return [
        LegalAction(type="play", cards=tuple(cards), min_cards=1, max_cards=len(cards))
        for rank, cards in sorted(groups.items(), key=lambda item: timeout_key(item[0]))
        if plays_on(rank, s.pile)
    ]


def optional_plays(s: Any, seat: int) -> list[LegalAction]:
    """The out-of-turn ``play`` entries of a seat not on turn.

    Redraw (option ``redraw``): the cards of the rank just played that he drew right after playing
    it, 1 to all of them, while nobody else has acted (palace-shedding-a.txt ¶19.1). Four of a kind
    (option ``out_of_turn_four``): enough cards of the rank on top of the pile, from where he plays,
    to make four on top (palace-shedding-b.txt "Other Misc. Rules", third bullet).
    """
    if s.phase != PLAY or seat == s.turn or seat in s.out or seat in s.resigned:
        return []
    entries: list[LegalAction] = []
    rank, run = top_run(s.pile)
    options = s.options
    cards: Sequence[Card] = s.redraw_cards
    if options.redraw and s.redraw_seat == seat and cards and cards[0].rank == rank:
        entries.append(LegalAction(type="play", cards=tuple(sort_cards(cards)), min_cards=1, max_cards=len(cards)))
    if options.out_of_turn_four and rank is not None and 0 < run < FOUR_OF_A_KIND:
        have = [card for card in source_cards(s, seat, source(s, seat)) if card.rank == rank]
        need = FOUR_OF_A_KIND - run
        if len(have) >= need:
            entries.append(LegalAction(type="play", cards=tuple(sort_cards(have)), min_cards=need, max_cards=len(have)))
    return entries


def seats_to_act(s: Any) -> tuple[int, ...]:
    """Setup: every seat that has not chosen yet. Play: the seat on turn first, then clockwise the
    seats with an out-of-turn play. Empty while chance acts and after the match."""
    if s.chance is not None:
        return ()
    if s.phase == SETUP:
        return tuple(seat for seat in range(s.seats) if s.choices[seat] is None and seat not in s.resigned)
    if s.phase != PLAY:
        return ()
    turn = s.turn
    if not s.options.out_of_turn_four and s.redraw_seat is None:
        return (turn,)
    others = ((turn + k) % s.seats for k in range(1, s.seats))
    return (turn, *(seat for seat in others if optional_plays(s, seat)))


def legal_actions(s: Any, seat: int) -> tuple[LegalAction, ...]:
    """The decisions open to ``seat`` (empty when none).

    Setup: ``choose_face_up`` naming 3 of his 6 visible cards. On turn: a ``play`` entry per
    playable rank, or ``play_face_down`` once only face-down cards are left; ``pick_up`` when the
    pile is not empty and he cannot play, or always under ``must_play_if_able: false`` (never
    before a blind card while it is on). Not on turn: his out-of-turn ``play`` entries, if any.
    """
    if s.chance is not None or seat in s.resigned:
        return ()
    if s.phase == SETUP:
        if s.choices[seat] is not None:
            return ()
        six = sort_cards([*s.hands[seat], *s.face_up[seat]])
        return (LegalAction(type="choose_face_up", cards=tuple(six), min_cards=3, max_cards=3),)
    if s.phase != PLAY:
        return ()
    if seat != s.turn:
        return tuple(optional_plays(s, seat))
    where = source(s, seat)
    actions = [LegalAction(type="play_face_down")] if where == FACE_DOWN else turn_plays(s, seat)
    if s.pile and (not s.options.must_play_if_able or (where != FACE_DOWN and not actions)):
        actions.append(LegalAction(type="pick_up"))
    return tuple(actions)


def classify_play(s: Any, seat: int, cards: Sequence[Card]) -> str:
    """Check a ``play`` by ``seat`` and say which it is: ``"turn"``, ``"redraw"`` or ``"four"``.

    Raises ``IllegalAction``: ``no_cards``, ``mixed_ranks``, ``play_face_down`` (only face-down
    cards are left), ``not_your_cards``, ``does_not_beat``, ``invalid_out_of_turn_play``.
    """
    if not cards:
        raise IllegalAction(EngineCode.NO_CARDS, "a play names one or more cards")
    ranks = {card.rank for card in cards}
    if len(ranks) != 1:
        raise IllegalAction(EngineCode.MIXED_RANKS, "the cards of one play are all of one rank")
    rank = cards[0].rank
    if seat == s.turn:
        where = source(s, seat)
        if where == FACE_DOWN:
            raise IllegalAction(
                EngineCode.PLAY_FACE_DOWN, "only face-down cards are left: flip one with 'play_face_down'"
            )
        if where is None:  # pragma: no cover - a seat on turn always holds cards
            raise IllegalAction(EngineCode.NOT_YOUR_CARDS, "you hold no cards")
        if not contains(source_cards(s, seat, where), cards):
            raise IllegalAction(
                EngineCode.NOT_YOUR_CARDS, f"the cards must come from your {where.replace('_', '-')} cards"
            )
        if not plays_on(rank, s.pile):
            raise IllegalAction(EngineCode.DOES_NOT_BEAT, "the cards must meet or beat the top of the pile")
        return TURN_PLAY
    options = s.options
    top, run = top_run(s.pile)
    if options.redraw and s.redraw_seat == seat and s.redraw_cards and contains(s.redraw_cards, cards):
        if rank == top:
            return REDRAW_PLAY
    if options.out_of_turn_four and rank == top and 0 < run < FOUR_OF_A_KIND:
        if len(cards) >= FOUR_OF_A_KIND - run and contains(source_cards(s, seat, source(s, seat)), cards):
            return FOUR_PLAY
    raise IllegalAction(
        EngineCode.INVALID_OUT_OF_TURN_PLAY,
        "out of turn you may only add the cards you just drew of the rank just played, or complete a four of a kind",
    )


def default_action(s: Any, seat: int) -> Action:
    """The action a timeout applies (the issue's timeout defaults).

    Setup: keep the dealt face-up cards. On turn: one card of the lowest playable rank (3 up to A,
    then a two, then a ten), else pick up; with only face-down cards, flip the first one left.
    Out of turn only: the smallest out-of-turn play (the server times out the seat on turn, which
    ``to_act`` lists first, so it never applies this). Raises ``IllegalAction("not_your_turn")``.
    """
    if seat not in seats_to_act(s):
        raise IllegalAction(EngineCode.NOT_YOUR_TURN, "it is not this seat's decision")
    if s.phase == SETUP:
        return Action(type="choose_face_up", seat=seat, cards=tuple(s.face_up[seat]), timeout=True)
    if seat != s.turn:
        entry = optional_plays(s, seat)[0]
        return Action(type="play", seat=seat, cards=entry.cards[: entry.min_cards], timeout=True)
    if source(s, seat) == FACE_DOWN:
        position = next(i for i, card in enumerate(s.face_down[seat]) if card is not None)
        return Action(type="play_face_down", seat=seat, target=position, timeout=True)
    plays = turn_plays(s, seat)
    if plays:
        return Action(type="play", seat=seat, cards=plays[0].cards[:1], timeout=True)
    return Action(type="pick_up", seat=seat, timeout=True)
