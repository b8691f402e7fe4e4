"""Fixtures of the notifications tests: people with confirmed addresses, games waiting for them, sending."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings
from django.core import mail as outbox
from django.utils import timezone

from games.models import Game
from games.services import game_create, seat_take
from notifications.models import Mail
from notifications.services import email_confirm, email_set, mail_deliver
from notifications.services.links import confirm_token
from outbox.models import DeliveryStatus


@pytest.fixture
def confirmed(db) -> Callable[..., str]:
    """``confirmed(user, address=None) -> address``: set and confirm an address through the services, as the
    link would; the confirmation mail is sent (to the test outbox) and the outbox emptied."""

    def confirm(user, address: str | None = None) -> str:
        address = address or f"{user.get_username()}@example.com"
        email_set(user=user, address=address)
        email_confirm(token=confirm_token(user_id=user.pk, address=address))
        deliver_pending()
        outbox.outbox.clear()
        return address

    return confirm


@pytest.fixture
def heads_up(make_player) -> Callable[..., Game]:
    """``heads_up(alice, bob, turn_timeout=None) -> game``: a started Palace Poker game, alice (seat 0) to act."""

    def make(alice, bob, *, turn_timeout: int | None = None) -> Game:
        options: dict = {"first_dealer": 1}
        if turn_timeout is not None:
            options["turn_timeout"] = turn_timeout
        game = game_create(creator=alice, kind="palace-poker", seats=2, options=options)
        seat_take(game_id=game.pk, player=alice, seat=0)
        seat_take(game_id=game.pk, player=bob, seat=1)
        game.refresh_from_db()
        assert list(game.seats.filter(to_act=True).values_list("number", flat=True)) == [0]
        return game

    return make


def after_grace(extra: float = 1.0) -> datetime:
    """A moment the grace delay has passed since now."""
    return timezone.now() + timedelta(seconds=settings.NOTIFICATION_GRACE_SECONDS + extra)


def deliver_pending() -> int:
    """Send every pending mail, as the worker would; returns how many went out."""
    ids = Mail.objects.filter(status=DeliveryStatus.PENDING).values_list("id", flat=True)
    return sum(mail_deliver(mail_id=mail_id) for mail_id in list(ids))


@dataclass
class SmtpServer:
    """A real SMTP server (aiosmtpd) on 127.0.0.1: ``messages`` holds the raw bytes of each mail it accepted."""

    host: str
    port: int
    messages: list[bytes] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def received(self) -> list[bytes]:
        with self.lock:
            return list(self.messages)


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    """An SMTP server listening on 127.0.0.1 on a free port until the test ends."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = SmtpServer(host="127.0.0.1", port=port)

    class Handler:
        async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
            with server.lock:
                server.messages.append(envelope.original_content or envelope.content)
            return "250 Message accepted for delivery"

    controller = Controller(Handler(), hostname="127.0.0.1", port=port, loop=asyncio.new_event_loop())
    controller.start()
    try:
        yield server
    finally:
        controller.stop()
