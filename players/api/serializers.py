"""Input and output serializers of the players API."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from palace_api.serializers import StrictSerializer
from players.models import Player


class StrictCharField(serializers.CharField):
    """A CharField that takes only JSON strings: DRF's would turn ``123`` into ``"123"``."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field({"type": "string", "pattern": r"^[A-Za-z0-9_.\-]{1,32}$", "example": "alice"})
class NameField(StrictCharField):
    """A player's name, documented with its pattern. A blank one is let through too: the service checks every
    name alike (400 ``invalid_name``)."""

    def run_validation(self, data: Any = empty) -> Any:
        if data == "":
            return data
        return super().run_validation(data)


class PlayerRegisterInputSerializer(StrictSerializer):
    # Blank and padded names reach the service, which answers invalid_name like any other bad name.
    name = NameField(trim_whitespace=False, help_text="1..32 of A-Z a-z 0-9 _ - .")


class PlayerRegisterOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The user id, as games refer to players.")
    name = serializers.CharField()
    token = serializers.CharField(help_text='Send as "Authorization: Token <token>". Shown this once only.')


class StaffTokenInputSerializer(StrictSerializer):
    username = StrictCharField(trim_whitespace=False, min_length=1)
    password = StrictCharField(trim_whitespace=False, min_length=1, style={"input_type": "password"})


class UserOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    is_staff = serializers.BooleanField()


class StaffTokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='Send as "Authorization: Token <token>". Shown this once only.')
    expiry = serializers.DateTimeField(allow_null=True)
    user = UserOutputSerializer()


class MeOutputSerializer(UserOutputSerializer):
    kind = serializers.ChoiceField(
        choices=Player.Kind.choices, allow_null=True, help_text="null for an account that is not a player (staff)."
    )
