"""What every bot is: a policy from one seat's view to one action, with an explicit random source.

A bot reads exactly the JSON that ``game.view(state, seat)`` returns for the seat whose decision it
is (``view["to_act"][0]``): the same ``state`` an HTTP client receives, with that seat's
``legal_actions``. It never sees the hidden state (other players' palace cards, the stock's order).
It answers with the body a client POSTs, without ``expected_version``::

    {"type": "bet", "target": 2, "amount": 15}
    {"type": "discard", "cards": ["7h", "2c"]}
    {"type": "call"}

Randomness comes only from the generator the caller passes (the server: ``secrets.SystemRandom()``;
a simulation: a seeded ``random.Random``), never from the module-level ``random`` functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from games.engine.errors import EngineCode, EngineError

T = TypeVar("T")

ActionJSON = dict[str, Any]
"""``{"type", "cards"?: [codes], "target"?: seat, "amount"?: chips}``."""


class RandomSource(Protocol):
    """The part of ``random.Random`` / ``secrets.SystemRandom`` a bot may use."""

    def random(self) -> float: ...

    def choice(self, seq: Sequence[T], /) -> T: ...

    def randint(self, a: int, b: int, /) -> int: ...


class Bot(Protocol):
    """A policy: ``choose(view, rng)`` returns the action the acting seat of ``view`` takes.

    ``name``: the registry key (``"basic"``, ``"random"``). ``choose`` raises
    ``EngineError("no_decision")`` when the view's seat has no decision to make.
    """

    name: str

    def choose(self, view: Mapping[str, Any], rng: RandomSource) -> ActionJSON: ...


def acting_seat(view: Mapping[str, Any]) -> int:
    """The seat deciding now, which must be the viewer (its ``legal_actions`` are in the view).

    Raises ``EngineError("no_decision")`` when nobody is to act or the view holds no legal action
    (a view of another seat, a spectator's view, a shuffle pending, the match over).
    """
    to_act = view.get("to_act") or []
    if not to_act or not view.get("legal_actions"):
        raise EngineError(EngineCode.NO_DECISION, "this view has no decision to make: pass the view of the seat to act")
    seat: int = to_act[0]
    return seat


def legal_by_type(view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The view's ``legal_actions`` keyed by type (each appears at most once)."""
    return {legal["type"]: legal for legal in view["legal_actions"]}
