"""Registering, removing and pinging a player's webhook endpoints."""

from __future__ import annotations

import base64
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.messages import PING
from games.messages import WEBHOOK_EVENTS as EVENT_TYPES
from outbox.broker import publish
from outbox.services import deliveries_queue, queued_now
from palace_api.errors import ApplicationError, ConflictError, ErrorCode
from players.services import news_wanted_lock, news_wanted_set
from webhooks.models import Endpoint, Message
from webhooks.selectors.endpoints import endpoint_of, has_endpoints, running_games
from webhooks.services.delivery import WEBHOOKS
from webhooks.services.dispatch import GAME_CHANGED
from webhooks.services.messages import message_body, new_msg_id
from webhooks.services.secret_box import seal
from webhooks.services.url_guard import check_url

SECRET_BYTES = 24
WEBHOOK_LIMIT = "webhook_limit"


def new_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` and 24 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def _check_events(events: list[str]) -> list[str]:
    unknown = sorted(set(events) - set(EVENT_TYPES))
    if not events or unknown:
        raise ApplicationError(
            ErrorCode.INVALID_WEBHOOK_EVENTS,
            f"events is a non-empty list of {', '.join(EVENT_TYPES)}" + (f"; unknown: {unknown}" if unknown else ""),
        )
    return [event for event in EVENT_TYPES if event in events]


@transaction.atomic
def endpoint_create(*, user: AbstractBaseUser, url: str, events: list[str]) -> tuple[Endpoint, str]:
    """Register ``url`` for ``events`` (names from ``EVENT_TYPES``). Returns the endpoint and its signing
    secret in clear, the caller's to keep: only its encryption is stored (``secret_box.seal``).

    Raises ``ApplicationError``: ``invalid_webhook_url``, ``webhook_url_forbidden`` (not http(s), or the host
    resolves to a loopback, private, link-local or metadata address), ``webhook_url_unresolvable``,
    ``invalid_webhook_events``; ``ConflictError("webhook_limit")`` past ``WEBHOOK_MAX_ENDPOINTS``.
    """
    events = _check_events(events)
    check_url(url)
    # Taken before the count too, so two registrations at once cannot both pass the limit.
    news_wanted_lock(user=user)
    if Endpoint.objects.filter(user=user).count() >= settings.WEBHOOK_MAX_ENDPOINTS:
        raise ConflictError(WEBHOOK_LIMIT, f"at most {settings.WEBHOOK_MAX_ENDPOINTS} webhooks per player")
    secret = new_secret()
    endpoint = Endpoint.objects.create(user=user, url=url, events=events, sealed_secret=seal(secret))
    if news_wanted_set(user=user, wanted=True):
        transaction.on_commit(lambda: _announce_running_games(user), robust=True)
    return endpoint, secret


def _announce_running_games(user: AbstractBaseUser) -> None:
    """Once the player's first endpoint is committed, announce each of his running games at its version then: a
    change whose writer read ``news_wanted`` before the commit published nothing, and the entries it made after the
    endpoint's ``created`` are owed to it. (A writer that commits after this read too is covered by the game's
    next change, like a lost publish: ``webhooks.services.dispatch``.)"""
    for game_id, version in running_games(user):
        if not publish(GAME_CHANGED, args=[game_id, version]):
            return


@transaction.atomic
def endpoint_delete(*, user: AbstractBaseUser, endpoint_id: int) -> None:
    """Remove the caller's endpoint with its messages and attempts; raises ``NotFoundError("webhook_not_found")``.
    Tasks already queued for its messages find nothing and do nothing. Without endpoints left, the player's
    games publish no news for webhooks (``Player.news_wanted``)."""
    news_wanted_lock(user=user)
    endpoint_of(user, endpoint_id).delete()
    news_wanted_set(user=user, wanted=has_endpoints(user))


@transaction.atomic
def endpoint_ping(*, user: AbstractBaseUser, endpoint_id: int) -> Message:
    """Queue a ``webhook.ping`` to the caller's endpoint, disabled or not: a ping that succeeds enables a
    disabled endpoint again. Raises ``NotFoundError("webhook_not_found")``."""
    endpoint = endpoint_of(user, endpoint_id)
    now = timezone.now()
    body = message_body(event_type=PING, at=now, data={"webhook": endpoint.pk})
    message = Message.objects.create(
        endpoint=endpoint, msg_id=new_msg_id(), event_type=PING, body=body, **queued_now(now)
    )
    deliveries_queue(WEBHOOKS, [message.pk])
    return message
