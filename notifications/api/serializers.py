"""Request and response bodies of the notifications API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from notifications.models import EmailAddress
from palace_api.serializers import StrictBooleanField, StrictSerializer


class EmailSetInput(StrictSerializer):
    address = serializers.EmailField(max_length=254, help_text="The address to mail; a confirmation link goes to it.")


class PreferencesInput(StrictSerializer):
    turn = StrictBooleanField(required=False, help_text="Mails telling you it is your move (and digests).")
    finished = StrictBooleanField(required=False, help_text="A mail when a game of yours finishes.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # An empty PATCH changes nothing and answers the preferences as they are.
        return attrs


class PreferencesOutput(serializers.Serializer):
    turn = serializers.BooleanField()
    finished = serializers.BooleanField()


class EmailOutput(serializers.Serializer):
    address = serializers.EmailField(allow_null=True, help_text="null: no address set; no mail is sent.")
    confirmed = serializers.BooleanField(
        help_text="Whether the address was confirmed through its link; only then do mails go to it."
    )
    preferences = PreferencesOutput()


def email_row(row: EmailAddress | None) -> dict[str, Any]:
    """An address as ``EmailOutput`` renders it; ``None`` (never set) as the defaults, with no address."""
    if row is None:
        return {"address": None, "confirmed": False, "preferences": {"turn": True, "finished": True}}
    return {
        "address": row.address,
        "confirmed": row.confirmed_at is not None,
        "preferences": {"turn": row.turn, "finished": row.finished},
    }
