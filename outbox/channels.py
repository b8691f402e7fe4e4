"""What the outbox asks of a channel: its tables, its task, its retry schedule, and how it sends one delivery.

A channel (``webhooks.services.delivery.WEBHOOKS``, ``notifications.services.delivery.MAILS``) subclasses
``Channel`` once; the outbox's services (``outbox.services``) do the rest alike for every channel: the claim, the
attempt record, the retry schedule, the disable rule and the sweep.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

from outbox.models import Delivery, DeliveryAttempt, DeliveryStatus, Destination


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one attempt got: whether it ``succeeded``, its ``duration_ms``, the ``error`` text if it failed,
    and the channel's own fields for its attempt row (``record``: e.g. a webhook's ``status_code``)."""

    succeeded: bool
    duration_ms: int
    error: str = ""
    record: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a delivery ends without an attempt: the ``status`` it ends in and the ``reason`` kept as its error."""

    status: DeliveryStatus
    reason: str


def elapsed_ms(started: float) -> int:
    """Milliseconds since ``started``, a ``time.monotonic()`` reading: an attempt's ``duration_ms``."""
    return int((time.monotonic() - started) * 1000)


class Channel:
    """One kind of outgoing message. Subclasses set the class attributes and implement ``send``.

    ``model``/``attempt_model``: the concrete ``Delivery`` and ``DeliveryAttempt`` tables; ``attempt_key``: the
    attempt's foreign key to its delivery. ``task``: the Celery task name that makes one attempt (``[pk]`` as
    its arguments). ``delays_setting``/``jitter_setting``: names of the settings holding the seconds before each
    retry and the fraction each is stretched or shrunk by at random (``""``: none). ``disable_after_setting``:
    the setting of seconds of failures that disable a destination (``""``: the channel has no destination).
    """

    model: ClassVar[type[Delivery]]
    attempt_model: ClassVar[type[DeliveryAttempt]]
    attempt_key: ClassVar[str]
    task: ClassVar[str]
    delays_setting: ClassVar[str]
    jitter_setting: ClassVar[str] = ""
    disable_after_setting: ClassVar[str] = ""
    related: ClassVar[tuple[str, ...]] = ()
    """Relations loaded with a claimed delivery (``select_related``)."""

    def refusal(self, delivery: Any) -> Refusal | None:
        """Why ``delivery`` must not be attempted any more (``None``: it may be). Checked after the claim."""
        return None

    def send(self, delivery: Any) -> Outcome:
        """Make one attempt; never raises (a failure is an ``Outcome`` that did not succeed)."""
        raise NotImplementedError

    def destination(self, delivery: Any) -> Destination | None:
        """The destination whose failing streak ``delivery``'s attempts count in (``None``: none)."""
        return None

    def retries(self, delivery: Any) -> bool:
        """Whether a failed attempt of ``delivery`` is retried (a webhook's ping is not)."""
        return True

    def revives(self, delivery: Any) -> bool:
        """Whether ``delivery`` succeeding enables its disabled destination again (a webhook's ping does)."""
        return False
