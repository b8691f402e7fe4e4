"""Writes. The only code that appends to a game's event log."""

from games.services.actions import action_submit, action_submit_idempotent
from games.services.games import game_create, seat_take

__all__ = ["action_submit", "action_submit_idempotent", "game_create", "seat_take"]
