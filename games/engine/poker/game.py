"""Palace Poker behind the common game interface (``games.engine.protocol.Game``).

Action types and their fields (amounts in chips):

- ``buy``: pay one small bet, draw a soldier; then the same seat owes a ``discard``.
- ``buy_discard`` (``open_market`` only): pay one big bet, take the top card of the discard pile
  as a soldier; then the same seat owes a ``discard``.
- ``discard`` ``cards``: on one's turn, one or more soldiers; as the step owed after a buy or a
  won battle, any number (none = keep) leaving at most five soldiers.
- ``bet`` ``target`` [``amount``]: attack a seat; ``amount`` is the bet (fixed in limit, at
  least the minimum in no-limit).
- ``stay``; ``fold`` (on one's turn or as a battle's responder).
- ``call``; ``raise`` [``amount``]: the raise beyond the call (fixed in limit).
- Under ``points`` every cost above is 0, a bet takes no ``amount`` and is decided at once: nobody
  folds, calls or raises in a battle.
- Under ``two_left_must_battle`` one of the last two players may not ``stay`` or ``discard`` on
  his turn while he can pay a bet (``games.engine.poker.two_left``).
- ``resign``: leave the match for good, at any decision point, on turn or not; never among the legal
  actions (``games.engine.poker.resign``).
- ``shuffle`` ``cards``: chance's action, the new order of the cards being shuffled, top first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.engine.cards import Card
from games.engine.errors import EngineCode, IllegalAction
from games.engine.poker import battle, deal, play
from games.engine.poker.context import Ctx
from games.engine.poker.legal import default_action, legal_actions, seat_to_act
from games.engine.poker.options import OPTION_FIELDS, parse_options
from games.engine.poker.resign import resign
from games.engine.poker.state import (
    BATTLE,
    DISCARD,
    FINISHED,
    TURN,
    PokerState,
    state_from_json,
    state_to_json,
)
from games.engine.poker.view import view
from games.engine.protocol import Action, ChanceRequest, Event, LegalAction, Viewer
from games.engine.seeding import fair_request
from games.engine.steps import apply_frame

_FIELDS: dict[str, set[str]] = {
    "buy": set(),
    "buy_discard": set(),
    "discard": {"cards"},
    "bet": {"target", "amount"},
    "stay": set(),
    "fold": set(),
    "call": set(),
    "raise": {"amount"},
}
ACTION_TYPES = tuple(_FIELDS)


_CHANCE: dict[str, Callable[[Ctx, tuple[Card, ...]], None]] = {
    "first_dealer": deal.draw_for_dealer,
    "banner_deal": deal.start_hand,
    "banner_redeal": deal.redeal_banners,
    "palace_deal": deal.deal_palace,
    "stock_rebuild": play.rebuild_stock,
}
CHANCE_PURPOSES = tuple(_CHANCE)
"""Why chance shuffles: the ``purpose`` of each ``ChanceRequest`` (and ``shuffle`` event) of this game."""


class PalacePoker:
    """Palace Poker (palace-poker.txt): banners, palace cards, soldiers, heads-up bet battles."""

    kind = "palace-poker"
    option_fields = OPTION_FIELDS

    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Validated options with every default filled in (see ``parse_options``)."""
        return parse_options(options, seats).to_json()

    def new_game(self, options: Mapping[str, Any] | None, seats: int) -> PokerState:
        """The state before the first shuffle. Raises ``InvalidOptions`` (see ``parse_options``)."""
        opts = parse_options(options, seats)
        state = PokerState(
            options=opts,
            seats=seats,
            stacks=(opts.starting_stack,) * seats,
            in_match=(True,) * seats,
            phase="",
            scores=(0,) * seats,
        )
        return deal.initial_state(state)

    def to_act(self, state: PokerState) -> tuple[int, ...]:
        """The one seat whose decision it is; empty while chance acts or after the match."""
        seat = seat_to_act(state)
        return () if seat is None else (seat,)

    def due_to_act(self, state: PokerState) -> tuple[int, ...]:
        """The seat the game waits for: the one in ``to_act``."""
        return self.to_act(state)

    def chance_request(self, state: PokerState) -> ChanceRequest | None:
        """The shuffle owed now, with exactly the cards it must order."""
        if state.chance is None:
            return None
        # A hand is a deal; the draw for the first dealer is deal 0; a banner deal opens the next hand.
        number = state.hand_number + (state.chance == "banner_deal")
        return fair_request(state, purpose=state.chance, cards=deal.shuffle_cards(state), deal=number)

    def legal_actions(self, state: PokerState, seat: int) -> tuple[LegalAction, ...]:
        """See ``games.engine.poker.legal.legal_actions``."""
        return legal_actions(state, seat)

    def default_action(self, state: PokerState, seat: int) -> Action:
        """See ``games.engine.poker.legal.default_action``."""
        return default_action(state, seat)

    def apply(self, state: PokerState, action: Action) -> tuple[PokerState, tuple[Event, ...]]:
        """Apply a decision or a shuffle; the input state is never changed.

        Raises ``IllegalAction`` with codes ``game_over``, ``awaiting_shuffle``, ``no_shuffle_due``,
        ``invalid_shuffle``, ``unknown_action``, ``not_your_turn``, ``action_not_allowed``,
        ``unexpected_field``, ``invalid_seat`` and ``not_in_match`` (a ``resign``) and those of the action
        itself (``insufficient_chips``, ``same_banner_suit``, ``invalid_target``, ``invalid_amount``,
        ``too_many_soldiers``, ...).
        """
        ctx = Ctx(state)

        def decide(seat: int, action: Action) -> None:
            handler = _handler(state.step, action.type)
            if handler is None:
                raise IllegalAction(
                    EngineCode.ACTION_NOT_ALLOWED, f"{action.type!r} is not allowed now (step {state.step!r})"
                )
            handler(ctx, seat, action)

        return apply_frame(
            self,
            state,
            action,
            ctx,
            chance=_CHANCE,
            fields=_FIELDS,
            decide=decide,
            resign=lambda seat: resign(ctx, seat),
            reveal_each_deal=state.options.reveal_seeds == "hand",
        )

    def view(self, state: PokerState, viewer: Viewer) -> dict[str, Any]:
        """See ``games.engine.poker.view.view``."""
        return view(state, viewer)

    def is_over(self, state: PokerState) -> bool:
        """Whether the match has ended."""
        return state.phase == FINISHED

    def state_to_json(self, state: PokerState) -> dict[str, Any]:
        """Every field as JSON (holds hidden cards: staff and snapshots only)."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> PokerState:
        """Inverse of ``state_to_json``."""
        return state_from_json(data)


def _handler(step: str | None, type_: str) -> Callable[[Ctx, int, Action], None] | None:
    if step == TURN:
        return {
            "buy": lambda ctx, seat, a: play.buy(ctx, seat),
            "buy_discard": lambda ctx, seat, a: play.buy_discard(ctx, seat),
            "discard": lambda ctx, seat, a: play.discard_turn(ctx, seat, a.cards),
            "bet": lambda ctx, seat, a: battle.attack(ctx, seat, a.target, a.amount),
            "stay": lambda ctx, seat, a: play.stay(ctx, seat),
            "fold": lambda ctx, seat, a: play.fold_turn(ctx, seat),
        }.get(type_)
    if step == DISCARD:
        return {"discard": lambda ctx, seat, a: play.discard_step(ctx, seat, a.cards)}.get(type_)
    if step == BATTLE:
        return {
            "fold": lambda ctx, seat, a: battle.fold(ctx, seat),
            "call": lambda ctx, seat, a: battle.call(ctx, seat),
            "raise": lambda ctx, seat, a: battle.raise_(ctx, seat, a.amount),
        }.get(type_)
    return None


PALACE_POKER = PalacePoker()
