"""Each version of a game rendered once per viewer: a per-process memory of the game view's response bodies.

A game's view changes only with the game's row (``version``, and ``updated``, which every save moves), its
rematch (made once the game is over, with no new version: ``games.services.rematch``) and the viewer (a seat, a
spectator, staff): every other change to a game, a seat taken or a deadline set included, commits with a new
version. Players poll their game again and again between two decisions, and each GET otherwise
replays nothing but still asks the engine for the viewer's view and renders it through the output serializer.
The memory holds the rendered bodies of the last ``MAX_BODIES`` (game, version, row update, rematch, viewer)
keys, each as its JSON bytes (``palace_api.responses.encode_json``: a quarter of the memory of the same body as
Python data, nothing for the garbage collector to walk, nothing to encode again); a body is shared by the requests
that get it and never changed after it is made.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from games.api.serializers import GameDetailOutput, render
from games.models import Game
from games.selectors import read_models as selectors
from games.selectors.rematch import rematch_links
from palace_api.responses import encode_json

MAX_BODIES = 2048
"""Rendered bodies kept per process (about 2 KiB to 6 KiB of JSON each), least recently used dropped first."""

_bodies: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
_lock = threading.Lock()


def game_detail_body(game: Game, user: AbstractBaseUser | AnonymousUser) -> bytes:
    """``render(GameDetailOutput, selectors.game_detail(game, user))`` as JSON (``encode_json``; the view sends it
    in an ``EncodedJSONResponse``), made once per (game, version, row update, rematch, viewer) in this process.
    ``game``: as ``selectors.game_get`` returns it (with its rematch)."""
    rematch = rematch_links(game)["rematch"]
    key = (game.pk, game.version, game.updated, rematch, selectors.viewer_for(game, user))
    with _lock:
        body = _bodies.get(key)
        if body is not None:
            _bodies.move_to_end(key)
            return body
    body = encode_json(render(GameDetailOutput, selectors.game_detail(game, user)))
    with _lock:
        _bodies[key] = body
        if len(_bodies) > MAX_BODIES:
            _bodies.popitem(last=False)
    return body
