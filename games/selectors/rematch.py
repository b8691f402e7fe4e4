"""Reads of a finished game's rematch (``games.services.rematch``): its offer as the API shows it, and the link
between a game and its rematch."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import Game, RematchOffer, RematchStatus


def offer_lapse_due(offer: RematchOffer, *, now: datetime) -> bool:
    """Whether an open offer's time is up (``expires`` passed)."""
    return offer.status == RematchStatus.OPEN and offer.expires <= now


def rematch_json(game: Game) -> dict[str, Any] | None:
    """The game's rematch offer: ``{"status", "offered_by", "accepted", "waiting_for", "expires", "game"}``
    (``status`` ``lapsed`` once an open offer's time is up, even before anyone wrote it; ``waiting_for``: the
    seats yet to answer; ``game``: the rematch's id once made), or ``None`` if nobody offered one."""
    offer = RematchOffer.objects.filter(game=game).first()
    if offer is None:
        return None
    status = RematchStatus.LAPSED if offer_lapse_due(offer, now=timezone.now()) else offer.status
    seats = list(game.seats.values_list("number", flat=True))
    waiting = [seat for seat in sorted(seats) if seat not in offer.accepted] if status == RematchStatus.OPEN else []
    rematch = Game.objects.filter(rematch_of=game).values_list("pk", flat=True).first()
    return {
        "status": str(status),
        "offered_by": offer.offered_by,
        "accepted": list(offer.accepted),
        "waiting_for": waiting,
        "answered_by": offer.answered_by,
        "expires": offer.expires,
        "game": rematch,
    }


def rematch_links(game: Game) -> dict[str, int | None]:
    """``{"rematch_of": id or None, "rematch": id or None}``: the games ``game`` replays and is replayed by. No
    query when ``game`` was read with its ``rematch`` (``read_models.game_get`` joins it)."""
    try:
        rematch: int | None = game.rematch.pk
    except Game.rematch.RelatedObjectDoesNotExist:
        rematch = None
    return {"rematch_of": game.rematch_of_id, "rematch": rematch}
