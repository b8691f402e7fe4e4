"""What other apps do inside the transaction that finishes a game: a registry of callbacks, no signals.

``games`` knows no app that reacts to a game's end; such an app registers a callback here when Django loads it
(``ratings.apps.RatingsConfig.ready`` registers the ratings' update). ``games.services.log`` calls every
callback once, when an append moves a game to ``finished``: in the finishing transaction, with the game's row
locked and the finishing rows written, so what a callback writes commits with the finish or not at all, and a
game finishes once (the row lock and the version check), so each callback runs once per game. A callback that
raises fails the finish: keep them small and certain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FinishHook = Callable[[Any], None]
"""A callback: the finished ``games.models.Game``, locked, its ``version`` the last row's ``seq``."""

_HOOKS: list[FinishHook] = []


def finish_hook_register(hook: FinishHook) -> None:
    """Call ``hook`` at every game's finish from now on (registering the same one again does nothing)."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)


def game_finished(game: Any) -> None:
    """Run every registered hook for ``game``, in registration order (``games.services.log`` only)."""
    for hook in _HOOKS:
        hook(game)
