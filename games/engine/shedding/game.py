"""Palace, the shedding game, behind the common game interface (``games.engine.protocol.Game``).

Action types and their fields (what a client POSTs, with ``expected_version``):

- ``choose_face_up`` ``cards``: in the setup, the three of one's six visible cards to lie face up
  (every seat at once; each submits once).
- ``play`` ``cards``: one or more cards of one rank, on turn; or out of turn where an option allows
  (a redraw, a four of a kind completed): see ``legal.optional_plays``.
- ``pick_up``: take the pile (on turn).
- ``play_face_down`` [``target``]: flip the face-down card at position 0-2 (default: the first left).
- ``resign``: leave the match for good and be ranked last, at any decision point, on turn or not (the
  setup included); never among the legal actions (``games.engine.shedding.resign``).
- ``shuffle`` ``cards``: chance's action, the new order of the pack, top first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.engine.cards import Card
from games.engine.errors import EngineCode, IllegalAction
from games.engine.protocol import Action, ChanceRequest, Event, LegalAction, Viewer
from games.engine.seeding import fair_request
from games.engine.shedding import deal, play
from games.engine.shedding.context import Ctx
from games.engine.shedding.ending import check_stalemate
from games.engine.shedding.legal import default_action, legal_actions, seats_to_act
from games.engine.shedding.options import OPTION_FIELDS, parse_options
from games.engine.shedding.resign import resign
from games.engine.shedding.state import FINISHED, PLAY, SETUP, ShedState, state_from_json, state_to_json
from games.engine.shedding.turns import take_up_face_up
from games.engine.shedding.view import view
from games.engine.steps import apply_frame

_FIELDS: dict[str, set[str]] = {
    "choose_face_up": {"cards"},
    "play": {"cards"},
    "pick_up": set(),
    "play_face_down": {"target"},
}
ACTION_TYPES = tuple(_FIELDS)


_CHANCE: dict[str, Callable[[Ctx, tuple[Card, ...]], None]] = {
    "first_dealer": deal.draw_for_dealer,
    "deal": deal.deal,
}
CHANCE_PURPOSES = tuple(_CHANCE)
"""Why chance shuffles: the ``purpose`` of each ``ChanceRequest`` (and ``shuffle`` event) of this game."""

_PLAY_HANDLERS: dict[str, Callable[[Ctx, int, Action], None]] = {
    "play": lambda ctx, seat, a: play.play(ctx, seat, a.cards),
    "pick_up": lambda ctx, seat, a: play.pick_up(ctx, seat),
    "play_face_down": lambda ctx, seat, a: play.play_face_down(ctx, seat, a.target),
}


class PalaceShedding:
    """Palace, the shedding game (palace-shedding-a.txt and palace-shedding-b.txt; options where
    they disagree: ``games.engine.shedding.options``)."""

    kind = "palace"
    option_fields = OPTION_FIELDS

    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """Validated options with every default filled in (see ``parse_options``)."""
        return parse_options(options, seats).to_json()

    def new_game(self, options: Mapping[str, Any] | None, seats: int) -> ShedState:
        """The state before the first shuffle. Raises ``InvalidOptions`` (see ``parse_options``)."""
        return deal.initial_state(ShedState(options=parse_options(options, seats), seats=seats, phase=""))

    def to_act(self, state: ShedState) -> tuple[int, ...]:
        """Setup: the seats that have not chosen. Play: the seat on turn first, then any seat with
        an out-of-turn play. Empty while chance acts or after the match."""
        return seats_to_act(state)

    def due_to_act(self, state: ShedState) -> tuple[int, ...]:
        """The seats the game waits for: in the setup every seat still to choose; in play the seat on
        turn alone (out-of-turn plays are chances, not duties, and have no deadline)."""
        seats = seats_to_act(state)
        return seats if state.phase == SETUP else seats[:1]

    def chance_request(self, state: ShedState) -> ChanceRequest | None:
        """The shuffle owed now (the whole pack: for the draw for dealer, then for the deal)."""
        if state.chance is None:
            return None
        # The draw for the first dealer is deal 0, the one deal of the game deal 1 (as in Palace Poker).
        number = int(state.chance == "deal")
        return fair_request(state, purpose=state.chance, cards=deal.shuffle_cards(state), deal=number)

    def legal_actions(self, state: ShedState, seat: int) -> tuple[LegalAction, ...]:
        """See ``games.engine.shedding.legal.legal_actions``."""
        return legal_actions(state, seat)

    def default_action(self, state: ShedState, seat: int) -> Action:
        """See ``games.engine.shedding.legal.default_action``."""
        return default_action(state, seat)

    def apply(self, state: ShedState, action: Action) -> tuple[ShedState, tuple[Event, ...]]:
        """Apply a decision or a shuffle; the input state is never changed.

        Raises ``IllegalAction`` with codes ``game_over``, ``awaiting_shuffle``, ``no_shuffle_due``,
        ``invalid_shuffle``, ``unknown_action``, ``not_your_turn``, ``unexpected_field``,
        ``action_not_allowed`` and those of the action (``choose_three``, ``not_your_cards``,
        ``no_cards``, ``mixed_ranks``, ``does_not_beat``, ``play_face_down``,
        ``invalid_out_of_turn_play``, ``not_on_turn``, ``empty_pile``, ``must_play``,
        ``face_down_not_yet``, ``invalid_target``); a ``resign``: ``invalid_seat``, ``not_in_match``.
        """
        ctx = Ctx(state)
        return apply_frame(
            self,
            state,
            action,
            ctx,
            chance=_CHANCE,
            fields=_FIELDS,
            decide=lambda seat, action: _decide(ctx, state.phase, seat, action),
            resign=lambda seat: resign(ctx, seat),
        )

    def simulation(self, state: ShedState) -> Simulation:
        """A mutable copy of ``state`` that plays decisions in place, for a bot's rollouts (see ``Simulation``)."""
        return Simulation(state)

    def view(self, state: ShedState, viewer: Viewer) -> dict[str, Any]:
        """See ``games.engine.shedding.view.view``."""
        return view(state, viewer)

    def is_over(self, state: ShedState) -> bool:
        """Whether the match has ended."""
        return state.phase == FINISHED

    def state_to_json(self, state: ShedState) -> dict[str, Any]:
        """Every field as JSON (holds hidden cards: staff and snapshots only)."""
        return state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> ShedState:
        """Inverse of ``state_to_json``."""
        return state_from_json(data)


def _decide(ctx: Ctx, phase: str, seat: int, action: Action) -> None:
    """A seat's decision on the draft ``ctx.t`` (``phase``: the phase it was taken in)."""
    if phase == SETUP and action.type == "choose_face_up":
        deal.choose_face_up(ctx, seat, action.cards)
        return
    handler = _PLAY_HANDLERS.get(action.type) if phase == PLAY else None
    if handler is None:
        raise IllegalAction(EngineCode.ACTION_NOT_ALLOWED, f"{action.type!r} is not allowed now (phase {phase!r})")
    handler(ctx, seat, action)
    if ctx.t.phase == PLAY:
        take_up_face_up(ctx)
        check_stalemate(ctx)


class Simulation:
    """A match in the play phase copied once into a mutable draft, for search rollouts.

    ``play(action)`` applies a decision in place with the same rules as ``PalaceShedding.apply`` (which
    thaws and freezes a whole state per action and checks the action's envelope); ``t``: the draft (it
    reads like a ``ShedState``: ``legal_actions`` and ``seats_to_act`` take it); ``is_over()``. Events are
    dropped. The server never uses it: an action a rollout plays here must be legal (from
    ``legal_actions(sim.t, seat)``), or the draft is left half-changed (``IllegalAction`` raised).
    """

    def __init__(self, state: ShedState) -> None:
        self.ctx = Ctx(state)
        self.t = self.ctx.t

    def play(self, action: Action) -> None:
        """Apply ``action`` (a decision of ``action.seat``) in place."""
        self.ctx.events.clear()
        _decide(self.ctx, self.t.phase, action.seat, action)  # type: ignore[arg-type]

    def is_over(self) -> bool:
        """Whether the match has ended."""
        return bool(self.t.phase == FINISHED)


PALACE = PalaceShedding()
