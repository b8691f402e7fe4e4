"""Drawing back up to three, whose turn it is, and taking the face-up cards into the hand.

Sources: palace-shedding-a.txt ¶11.4 and ¶11.8 (draw back up to three after a play, none when
holding three or more), ¶11.5 (clockwise); palace-shedding-b.txt "Gameplay" (the same draw at the
end of the turn; the face-up "final hand" is taken up once the hand is empty).
"""

from __future__ import annotations

from games.engine.cards import Card
from games.engine.shedding.context import Ctx, private, public
from games.engine.shedding.ranks import sort_cards
from games.engine.shedding.state import HAND_SIZE


def draw_up(ctx: Ctx, seat: int) -> list[Card]:
    """``seat`` draws from the top of the stock until he holds three cards or the stock is empty.

    The drawn cards are his alone to see; how many he drew is public. Returns them.
    """
    t = ctx.t
    drawn: list[Card] = []
    while len(t.hands[seat]) + len(drawn) < HAND_SIZE and t.stock:
        drawn.append(t.stock.pop(0))
    if drawn:
        t.hands[seat] = sort_cards([*t.hands[seat], *drawn])
        ctx.emit("draw", seat, cards={"cards": private(drawn, [seat])}, count=len(drawn), stock=len(t.stock))
    return drawn


def start_turn(ctx: Ctx, seat: int, *, replay: bool) -> None:
    """Give ``seat`` the turn (``replay``: he plays again after a burn or a two).

    A player who must play again with an empty hand while the stock has cards first draws back up
    to three: he has nothing else he may play (the texts are silent; see the package docstring).
    """
    t = ctx.t
    t.turn = seat
    t.replay = replay
    if not t.hands[seat] and t.stock:
        draw_up(ctx, seat)


def pass_turn(ctx: Ctx, after: int) -> None:
    """The turn passes clockwise to the next player still holding cards (a¶11.5)."""
    start_turn(ctx, ctx.next_active(after), replay=False)


def take_up_face_up(ctx: Ctx) -> None:
    """Option ``face_up_play: "into_hand"``: a player whose hand is empty once the stock is gone
    takes his face-up cards into his hand (palace-shedding-b.txt "Gameplay", the paragraph on the
    "final hand"). Everyone saw them, so they stay known to all."""
    t = ctx.t
    if t.options.face_up_play != "into_hand" or t.stock:
        return
    for seat in ctx.active():
        if not t.hands[seat] and t.face_up[seat]:
            taken = t.face_up[seat]
            t.hands[seat] = sort_cards(taken)
            t.hand_public[seat] = sort_cards([*t.hand_public[seat], *taken])
            t.face_up[seat] = []
            ctx.emit("face_up_taken", seat, cards={"cards": public(taken)})
