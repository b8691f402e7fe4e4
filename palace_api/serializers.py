"""Serializer bases every API shares."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so a typo is a 400 ``invalid`` naming them rather than silently ignored."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A BooleanField that takes only JSON ``true`` and ``false``: DRF's would take ``"yes"``, ``"0"`` or ``1``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class NoQuery(StrictSerializer):
    """No query parameters at all: any one is refused."""


def query(request: Request, serializer_class: type[serializers.Serializer]) -> dict[str, Any]:
    """The request's query parameters (the first value of each), validated; raises DRF's ``ValidationError``
    (400 ``invalid``, ``errors`` naming each) for an unknown or bad one."""
    if serializer_class is NoQuery and not request.query_params:
        return {}  # what validating nothing against no fields gives, without making a serializer (hot views)
    params = {name: request.query_params.get(name) for name in request.query_params}
    data = serializer_class(data=params)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)
