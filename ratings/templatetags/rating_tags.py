"""``{% ratings_panel game_id %}``: a rated table's seats with their ratings, and once the game is rated, each
one's place and change. The table page shows it (``web/_table.html``); it draws nothing for a casual game."""

from __future__ import annotations

from typing import Any

from django import template

from games.selectors.read_models import game_get
from ratings.selectors.boards import game_ratings

register = template.Library()


@register.inclusion_tag("ratings/_panel.html")
def ratings_panel(game_id: int) -> dict[str, Any]:
    """The panel's context: ``ratings`` (``ratings.selectors.boards.game_ratings``)."""
    return {"ratings": game_ratings(game_get(game_id))}
