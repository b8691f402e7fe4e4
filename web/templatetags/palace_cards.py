"""``{% card code %}``: a card drawn as a card, with its words for screen readers and ``data-card`` for tests."""

from __future__ import annotations

from typing import Any

from django import template

from web.cards import face

register = template.Library()


@register.inclusion_tag("web/_card.html")
def card(code: str | None, *, small: bool = False) -> dict[str, Any]:
    """A card that is only shown (a selectable one is ``web/_card_choice.html``)."""
    return {"face": face(code), "small": small}


@register.inclusion_tag("web/_card_choice.html")
def card_choice(code: str, *, field: str, index: int) -> dict[str, Any]:
    """A card the player may select: a checkbox named ``field`` (keyboard: Tab, then Space) drawn as the card."""
    return {"face": face(code), "field": field, "id": f"{field}-{index}"}


@register.filter
def card_faces(codes: list[str | None]) -> list[Any]:
    """The faces of a list of codes."""
    return [face(code) for code in codes]
