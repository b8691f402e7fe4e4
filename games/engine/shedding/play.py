"""Play decisions: play cards, pick up the pile, flip a face-down card; burns and playing again.

Sources: palace-shedding-a.txt ¶11 (plays, drawing, picking up), ¶12-13 (face-up and face-down
cards), ¶16-20 (burns, tens, redraws, twos); palace-shedding-b.txt "Gameplay", "Card Value" and
"Other Misc. Rules".
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import Card
from games.engine.errors import EngineCode, IllegalAction
from games.engine.shedding.context import Ctx, private, public
from games.engine.shedding.ending import check_out
from games.engine.shedding.legal import (
    FACE_DOWN,
    FACE_UP,
    HAND,
    REDRAW_PLAY,
    TURN_PLAY,
    classify_play,
    source,
    turn_plays,
)
from games.engine.shedding.ranks import (
    FOUR_OF_A_KIND,
    TEN,
    TWO,
    plays_on,
    remove,
    remove_known,
    sort_cards,
    top_run,
)
from games.engine.shedding.turns import draw_up, pass_turn, start_turn


def _decision(ctx: Ctx) -> None:
    """Count a play decision (the stalemate count); any decision closes a pending redraw."""
    t = ctx.t
    t.turns += 1
    t.redraw_seat, t.redraw_cards = None, []


def _must_be_on_turn(ctx: Ctx, seat: int, what: str) -> None:
    if seat != ctx.t.turn:
        raise IllegalAction(
            EngineCode.NOT_ON_TURN, f"only the player on turn may {what}; out of turn you may only play"
        )


def play(ctx: Ctx, seat: int, cards: Sequence[Card]) -> None:
    """Play one or more cards of one rank from the hand (or the face-up row once hand and stock are
    empty), on turn or, where an option allows, out of turn (see ``legal.classify_play``)."""
    t = ctx.t
    kind = classify_play(t, seat, cards)
    where = source(t, seat)
    _decision(ctx)
    if where == HAND:
        remove(t.hands[seat], cards)
        remove_known(t.hand_public[seat], cards)
    elif where == FACE_UP:
        remove(t.face_up[seat], cards)
    ctx.emit("play", seat, cards={"cards": public(cards)}, source=where, kind=kind, out_of_turn=kind != TURN_PLAY)
    _place(ctx, seat, cards, kind)


def _place(ctx: Ctx, seat: int, cards: Sequence[Card], kind: str) -> None:
    """The cards are on the pile: burn it and play again, or draw and let the next player play.

    A ten burns the pile (a¶18.2; b "Card Value"); four of one rank on top burns it, from one play
    or several (a¶16-17; b "Other Misc. Rules", second bullet); after a burn the same player plays
    again (a¶16.4, a¶17.2, a¶18.3), as after a two under ``two_effect: "play_again"``. Otherwise
    he draws back up to three (a¶11.8) and the turn passes, or, after a redraw, stays where it was.
    """
    t = ctx.t
    options = t.options
    t.pile.extend(cards)
    rank = cards[0].rank
    _, run = top_run(t.pile)
    if rank == TEN:
        _burn(ctx, seat, "ten")
    elif run >= FOUR_OF_A_KIND:
        _burn(ctx, seat, "four_of_a_kind")
    if not t.pile or (rank == TWO and options.two_effect == "play_again"):
        _play_again(ctx, seat, rank)
        return
    drawn = draw_up(ctx, seat)
    if check_out(ctx, seat):
        return
    if seat not in t.out:
        again = [card for card in drawn if card.rank == rank]
        if options.redraw and again:
            t.redraw_seat, t.redraw_cards = seat, again
    if kind == TURN_PLAY:
        pass_turn(ctx, seat)
    elif kind != REDRAW_PLAY:  # pragma: no cover - a completed four always burns
        raise AssertionError(kind)


def _play_again(ctx: Ctx, seat: int, rank: int) -> None:
    """``seat`` plays again, unless that play was his last card: then he is out and the turn
    passes (the texts are silent). Under ``draw_before_replay`` he first draws back up to three
    after a two or a ten (b "Card Value", the NOTE).

    Out of turn (a four completed, b "Other Misc. Rules", third bullet, or by a redraw, a¶19.1)
    this takes the turn from the seat on turn, whose turn ends there: he draws back up to three
    first. Every turn ends with that draw (b "Gameplay", the paragraph ending the turn; a¶11.8
    after every play); only a pick-up ends one without it (a¶11.9).
    """
    t = ctx.t
    if t.turn != seat:
        draw_up(ctx, t.turn)
    if check_out(ctx, seat):
        return
    if seat in t.out:
        pass_turn(ctx, seat)
        return
    if t.options.draw_before_replay and rank in (TWO, TEN):
        draw_up(ctx, seat)
    start_turn(ctx, seat, replay=True)


def _burn(ctx: Ctx, seat: int, reason: str) -> None:
    t = ctx.t
    burned = list(t.pile)
    t.burned.extend(burned)
    t.pile = []
    ctx.emit("burn", seat, reason=reason, cards={"cards": public(burned)})


def pick_up(ctx: Ctx, seat: int) -> None:
    """Take the whole pile into the hand; the turn ends without a draw (a¶11.9-10; b "Gameplay").

    Everyone saw the cards, so they are known to all. Raises ``IllegalAction`` ``not_on_turn``,
    ``empty_pile``, ``must_play`` (under ``must_play_if_able``: while a play is possible, or
    before a face-down card).
    """
    t = ctx.t
    _must_be_on_turn(ctx, seat, "pick up the pile")
    if not t.pile:
        raise IllegalAction(EngineCode.EMPTY_PILE, "there is no pile to pick up")
    if t.options.must_play_if_able and (source(t, seat) == FACE_DOWN or turn_plays(t, seat)):
        raise IllegalAction(EngineCode.MUST_PLAY, "you can play, so you must")
    _decision(ctx)
    taken = list(t.pile)
    t.pile = []
    t.hands[seat] = sort_cards([*t.hands[seat], *taken])
    t.hand_public[seat] = sort_cards([*t.hand_public[seat], *taken])
    ctx.emit("pick_up", seat, cards={"cards": public(taken)})
    pass_turn(ctx, seat)


def play_face_down(ctx: Ctx, seat: int, target: int | None) -> None:
    """Flip the face-down card at position ``target`` (0-2; ``None``: the first one left), blind.

    If it meets or beats the pile it is played like any card (a¶13.4; burns and twos apply, the
    texts are silent on them); else it goes with the pile into the hand (a¶13.5; b "Gameplay"),
    seen by all unless ``hide_failed_blind_card`` (b "Gameplay", the house rule). Raises
    ``IllegalAction`` ``not_on_turn``, ``face_down_not_yet``, ``invalid_target``.
    """
    t = ctx.t
    _must_be_on_turn(ctx, seat, "play a face-down card")
    if source(t, seat) != FACE_DOWN:
        raise IllegalAction(EngineCode.FACE_DOWN_NOT_YET, "face-down cards come after the hand and the face-up cards")
    row = t.face_down[seat]
    if target is None:
        target = next(i for i, card in enumerate(row) if card is not None)
    if not 0 <= target < len(row) or row[target] is None:
        raise IllegalAction(EngineCode.INVALID_TARGET, "name the position (0-2) of one of your face-down cards")
    card = row[target]
    row[target] = None
    _decision(ctx)
    if plays_on(card.rank, t.pile):
        ctx.emit(
            "play",
            seat,
            cards={"cards": public([card])},
            source=FACE_DOWN,
            position=target,
            kind=TURN_PLAY,
            out_of_turn=False,
        )
        _place(ctx, seat, [card], TURN_PLAY)
        return
    hidden = t.options.hide_failed_blind_card
    ctx.emit(
        "face_down_failed",
        seat,
        position=target,
        hidden=hidden,
        cards={"card": private([card], [seat]) if hidden else public([card])},
    )
    taken = list(t.pile)
    t.pile = []
    t.hands[seat] = sort_cards([*t.hands[seat], *taken, card])
    t.hand_public[seat] = sort_cards([*t.hand_public[seat], *taken, *([] if hidden else [card])])
    ctx.emit("pick_up", seat, cards={"cards": public(taken)})
    pass_turn(ctx, seat)
