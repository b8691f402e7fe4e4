"""A match's master seed, scheme ``palace-master-1``: every seed the server brings to a match, fixed before any
player sits down.

Under ``palace-shuffle-1`` alone (``games.engine.fairness``) the server drew each deal's seed, and the seeds of
the seats that bring none, when the deal opened: after the players' own seeds were known, so a server that
cheated could have tried seeds until a deal suited someone. Under a master seed the game is created with a
commitment, ``SHA-256(salt || master)``, readable by everyone before any seat is taken (so before any player's
seed exists), and every seed the server brings to the match is derived from the master, by HMAC-SHA256 keyed with
the master's 32 bytes, over ASCII text (README, "Provably fair shuffles", has it with a worked example):

- deal ``d``'s server seed: ``HMAC(master, "palace-master-1|server|<game>|<d>")``, all 32 bytes;
- deal ``d``'s salt: the first 16 bytes of ``HMAC(master, "palace-master-1|salt|<game>|<d>")``;
- in deal ``d``, the seed of seat ``s`` that brought none: ``HMAC(master, "palace-master-1|seat|<game>|<d>|<s>")``.

The master and its salt are revealed when the whole log is (the match over and every deal's seeds revealed), and
to staff at once. A revealed deal seed shows nothing of the master nor of another deal's seeds (HMAC is one-way),
so ``reveal_seeds: "hand"`` keeps working. The match's first shuffle with seeds hands the master to the rules
(``Action.master``, staff's alone), which check every deal's seeds against it and derive a past deal's again to
reveal it (``games.engine.seeding``). Pure: the master itself is drawn by the services from ``secrets``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from games.engine.fairness import SALT_BYTES, SeedDraw, commitment, is_hex

SCHEME = "palace-master-1"
"""The version of the derivation above; a new one gets a new name and the old stays readable."""
MASTER_BYTES = 32


def master_part(master: str, label: str, game: str, deal: int, seat: int | None = None) -> str:
    """``HMAC-SHA256(master, "palace-master-1|<label>|<game>|<deal>[|<seat>]")`` in lower-case hex (32 bytes);
    ``master`` is hex."""
    fields = [SCHEME, label, game, str(deal), *([] if seat is None else [str(seat)])]
    return hmac.new(bytes.fromhex(master), "|".join(fields).encode("ascii"), hashlib.sha256).hexdigest()


def master_seeds(master: str, *, game: str, deal: int) -> tuple[str, str]:
    """Deal ``deal``'s server seed and salt (hex) of game ``game`` under the master seed ``master`` (hex)."""
    return master_part(master, "server", game, deal), master_part(master, "salt", game, deal)[: 2 * SALT_BYTES]


def master_draw(master: str, *, game: str, deal: int, players: Sequence[str | None]) -> SeedDraw:
    """The seeds of deal ``deal`` of game ``game`` under the master seed ``master`` (hex): the server seed and the
    salt derived from it (``master_seeds``), and per seat the player's own seed, or for ``None`` (a bot, a player
    who gave none) the seed derived for that seat, listed in ``drawn``."""
    server_seed, salt = master_seeds(master, game=game, deal=deal)
    return SeedDraw(
        server_seed=server_seed,
        salt=salt,
        game=game,
        deal=deal,
        players=tuple(
            master_part(master, "seat", game, deal, s) if seed is None else seed for s, seed in enumerate(players)
        ),
        drawn=tuple(s for s, seed in enumerate(players) if seed is None),
    )


def master_mismatch(master: str, salt: str, committed: str, *, game: str, draws: Sequence[SeedDraw]) -> str | None:
    """``None`` if the master ``master`` and its ``salt`` (hex) answer the commitment ``committed`` and every
    seed of ``draws`` the server brought (the server seed, the salt, each drawn seat's seed) is the one the
    master gives; else a sentence naming the first that is not."""
    if not (is_hex(master, low=MASTER_BYTES, high=MASTER_BYTES) and is_hex(salt, low=SALT_BYTES, high=SALT_BYTES)):
        return f"the master seed is {MASTER_BYTES} bytes and its salt {SALT_BYTES} bytes of lower-case hex"
    if commitment(master, salt) != committed:
        return f"the revealed master seed does not match its commitment {committed[:16]}..."
    for draw in draws:
        players = [None if seat in draw.drawn else seed for seat, seed in enumerate(draw.players)]
        derived = master_draw(master, game=game, deal=draw.deal, players=players)
        if (draw.server_seed, draw.salt) != (derived.server_seed, derived.salt):
            return f"the server seed of deal {draw.deal} is not the one the master seed gives"
        if draw.players != derived.players:
            seat = next(s for s, (a, b) in enumerate(zip(draw.players, derived.players, strict=True)) if a != b)
            return f"the seed the server drew for seat {seat} in deal {draw.deal} is not the one the master seed gives"
    return None
