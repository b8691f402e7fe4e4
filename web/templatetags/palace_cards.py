"""``{% card code %}``: a card drawn as a card, with its words for screen readers and ``data-card`` for tests;
``seat|seat_name``: who sits at a seat, the server's one naming."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from games.selectors.words import seat_names
from web.cards import face

register = template.Library()


@register.inclusion_tag("web/_card.html")
def card(code: str | None, *, small: bool = False) -> dict[str, Any]:
    """A card that is only shown (a selectable one is ``web/_card_choice.html``)."""
    return {"face": face(code), "small": small}


@register.simple_tag
def card_run(codes: list[str]) -> SafeString:
    """Cards within a line of words: each drawn small, one space between them and none after, so that the
    words that follow ("9♠ 5♣: high card") sit where they belong."""
    # The template's output is escaped already; stripping its final newline keeps it so.
    drawn = (
        SafeString(render_to_string("web/_card.html", {"face": face(code), "small": True}).strip()) for code in codes
    )
    return format_html_join(" ", "{}", ((card,) for card in drawn))


@register.inclusion_tag("web/_card_choice.html")
def card_choice(code: str, *, field: str, index: int) -> dict[str, Any]:
    """A card the player may select: a checkbox named ``field`` (keyboard: Tab, then Space) drawn as the card."""
    return {"face": face(code), "field": field, "id": f"{field}-{index}"}


@register.filter
def card_faces(codes: list[str | None]) -> list[Any]:
    """The faces of a list of codes."""
    return [face(code) for code in codes]


@register.filter
def seat_name(seat: dict[str, Any]) -> str:
    """A seat row (``{"seat", "player", "bot"}``) -> who sits there (``games.selectors.words.seat_name``)."""
    return seat_names([seat])[seat["seat"]]
