"""Messages: the body and ``webhook-id`` of one event for one endpoint, fixed once for all its attempts."""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any


def new_msg_id() -> str:
    """A ``webhook-id``: ``msg_`` and 22 random URL-safe characters, unique per message."""
    return "msg_" + secrets.token_urlsafe(16)


def message_body(*, event_type: str, at: datetime, data: dict[str, Any]) -> dict[str, Any]:
    """The Standard Webhooks payload shape: ``{"type", "timestamp" (ISO 8601 UTC), "data"}``."""
    return {"type": event_type, "timestamp": at.isoformat().replace("+00:00", "Z"), "data": data}


def body_text(body: dict[str, Any]) -> str:
    """The exact text sent and signed: compact JSON with sorted keys, the same bytes on every attempt whatever
    order the database keeps a JSON object's keys in."""
    return json.dumps(body, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
