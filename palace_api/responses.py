"""A DRF response whose JSON is encoded once and kept as bytes, for bodies the server answers many times.

A body kept as Python data (dicts, lists, strings) weighs about four times its JSON in memory, every dict and list
of it is walked by each pass of the cyclic garbage collector that reaches it (the pass stops the whole process),
and each answer encodes it again. Kept as the bytes DRF's ``JSONRenderer`` makes of it, it is one untracked object,
sent as it is to every request that negotiated that rendering; any other (the browsable API, ``application/json;
indent=4``) gets the data decoded again and rendered as DRF renders any ``Response``.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

_renderer = JSONRenderer()


def encode_json(data: Any) -> bytes:
    """``data`` as DRF's ``JSONRenderer`` encodes a response's data by default (no indent; the project's
    ``UNICODE_JSON``, ``COMPACT_JSON`` and ``STRICT_JSON``): the bytes ``EncodedJSONResponse`` sends."""
    return _renderer.render(data)


class EncodedJSONResponse(Response):
    """A ``Response`` of ``encoded`` (``encode_json``'s bytes), with the keyword arguments of ``Response``.

    ``data`` is decoded from ``encoded`` when something reads it (a test, a renderer other than the plain JSON
    one); the plain JSON rendering sends ``encoded`` untouched, with the ``Content-Type`` DRF would set."""

    def __init__(self, encoded: bytes, **kwargs: Any) -> None:
        self.encoded = encoded
        super().__init__(data=None, **kwargs)

    @property  # type: ignore[override]
    def data(self) -> Any:
        if self._decoded is None:
            self._decoded = json.loads(self.encoded)
        return self._decoded

    @data.setter
    def data(self, value: Any) -> None:
        self._decoded = value

    @property
    def rendered_content(self) -> bytes:
        renderer = getattr(self, "accepted_renderer", None)
        if (
            type(renderer) is JSONRenderer
            and self.content_type is None
            and renderer.get_indent(self.accepted_media_type, self.renderer_context) is None
        ):
            self["Content-Type"] = renderer.media_type  # as DRF sets it (the JSON renderer has no charset)
            return self.encoded
        return super().rendered_content
