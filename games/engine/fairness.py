"""Commit-reveal shuffles: the seeds of a deal, their commitment, and the deck order they give.

Scheme ``palace-shuffle-1`` (README, "Provably fair shuffles", has it step by step with a worked example):

- A deal's first shuffle carries a ``SeedDraw``: a fresh 32-byte server seed, a 16-byte salt, the game's id,
  the deal's number and one seed per seat (the player's own, or one the server drew: ``drawn``).
- Its commitment is ``SHA-256(salt || server_seed)``, logged for everyone before any card of the deal is dealt.
- Every shuffle of the deal orders its cards, first sorted by rank (2..A) then suit letter (c d h s), with
  Fisher-Yates over a byte stream: block ``k`` is ``HMAC-SHA256(server_seed, "palace-shuffle-1|<game>|<deal>|
  <number>|<seat 0 seed>|...|<seat n-1 seed>|<k>")`` (ASCII; seeds in lower-case hex; ``number`` the shuffle's
  number in the match), the blocks concatenated. For ``i`` from ``n - 1`` down to 1, read 4 bytes as a
  big-endian ``r``; if ``r >= 2**32 - 2**32 % (i + 1)`` read again (rejection: no modulo bias); swap card ``i``
  with card ``r % (i + 1)``. The list is then the order, top card first.

Pure: no randomness here (``games.engine.chance.draw_seeds`` draws the seeds from ``secrets``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engine.cards import SORT_KEY, Card
from games.engine.errors import EngineCode, EngineError
from games.engine.state_json import Codec

SCHEME = "palace-shuffle-1"
"""The version of the derivation below; a new one gets a new name and the old stays readable."""
SERVER_SEED_BYTES = 32
SALT_BYTES = 16
PLAYER_SEED_MAX_BYTES = 32
_HEX = re.compile(r"^(?:[0-9a-f]{2})+$")
_DRAW_KEYS = {"scheme", "game", "deal", "server_seed", "salt", "players", "drawn"}


def is_hex(value: object, *, low: int = 1, high: int = PLAYER_SEED_MAX_BYTES) -> bool:
    """Whether ``value`` is lower-case hex of ``low`` to ``high`` bytes."""
    return isinstance(value, str) and bool(_HEX.match(value)) and low <= len(value) // 2 <= high


@dataclass(frozen=True, slots=True)
class SeedDraw:
    """The seeds of one deal. ``server_seed`` (32 bytes) and ``salt`` (16 bytes): lower-case hex, secret until
    revealed; ``game``: the game's id as text; ``deal``: the deal's number in the match (0: the draw for the
    first dealer); ``players``: per seat, 1 to 32 bytes of hex; ``drawn``: the seats whose seed the server drew
    (a bot, or a player who gave none)."""

    server_seed: str
    salt: str
    game: str
    deal: int
    players: tuple[str, ...]
    drawn: tuple[int, ...] = ()
    scheme: str = SCHEME

    @property
    def commitment(self) -> str:
        """``SHA-256(salt || server_seed)`` in hex."""
        return commitment(self.server_seed, self.salt)

    def to_json(self) -> dict[str, Any]:
        """``{"scheme", "game", "deal", "server_seed", "salt", "players", "drawn"}``."""
        return {
            "scheme": self.scheme,
            "game": self.game,
            "deal": self.deal,
            "server_seed": self.server_seed,
            "salt": self.salt,
            "players": list(self.players),
            "drawn": list(self.drawn),
        }

    @classmethod
    def from_json(cls, raw: Any) -> SeedDraw:
        """Inverse of ``to_json``; raises ``EngineError("invalid_seeds")`` naming the first bad field."""
        if not isinstance(raw, Mapping) or set(raw) != {
            "scheme",
            "game",
            "deal",
            "server_seed",
            "salt",
            "players",
            "drawn",
        }:
            raise _invalid("seeds are an object of scheme, game, deal, server_seed, salt, players and drawn")
        if raw["scheme"] != SCHEME:
            raise _invalid(f"unknown seed scheme {raw['scheme']!r}; this server knows {SCHEME!r}")
        if not is_hex(raw["server_seed"], low=SERVER_SEED_BYTES, high=SERVER_SEED_BYTES):
            raise _invalid(f"server_seed is {SERVER_SEED_BYTES} bytes of lower-case hex")
        if not is_hex(raw["salt"], low=SALT_BYTES, high=SALT_BYTES):
            raise _invalid(f"salt is {SALT_BYTES} bytes of lower-case hex")
        if not isinstance(raw["game"], str) or "|" in raw["game"] or not 0 < len(raw["game"]) <= 64:
            raise _invalid("game is 1 to 64 characters without '|'")
        if not isinstance(raw["deal"], int) or isinstance(raw["deal"], bool) or raw["deal"] < 0:
            raise _invalid("deal is an integer, 0 or more")
        players, drawn = raw["players"], raw["drawn"]
        if not isinstance(players, list) or not all(is_hex(seed) for seed in players):
            raise _invalid(f"players is a list of seeds, each 1 to {PLAYER_SEED_MAX_BYTES} bytes of hex")
        if not isinstance(drawn, list) or not all(isinstance(s, int) and 0 <= s < len(players) for s in drawn):
            raise _invalid("drawn lists seats")
        return cls(raw["server_seed"], raw["salt"], raw["game"], raw["deal"], tuple(players), tuple(sorted(drawn)))


@dataclass(frozen=True, slots=True)
class FairState:
    """The seeds of a match so far. ``revealed``: how many of its deals, from the first, have been revealed to
    everyone.

    Without a master seed, ``draws`` holds one ``SeedDraw`` per deal committed, in order. Under one (``master``,
    hex, from the match's first shuffle: ``games.engine.master_seed``), every seed the server brought to an earlier
    deal can be derived again, so ``draws`` holds the current deal's alone, and the deals run ``first_deal`` to its
    ``deal`` without a gap (``games.engine.seeding.check_seeded``): the state, its snapshots and its copies stay
    the same size however long the match (a draw is about 330 bytes of JSON: 533 KB in a match of 1,857 deals)."""

    draws: tuple[SeedDraw, ...] = ()
    revealed: int = 0
    master: str | None = None
    first_deal: int = 0

    @property
    def committed(self) -> int:
        """How many deals have had their seeds committed."""
        if self.master is None:
            return len(self.draws)
        return self.draws[-1].deal - self.first_deal + 1


def _fair_to_json(fair: FairState | None) -> dict[str, Any] | None:
    if fair is None:
        return None
    out: dict[str, Any] = {"draws": [draw.to_json() for draw in fair.draws], "revealed": fair.revealed}
    if fair.master is not None:
        out.update(master=fair.master, first_deal=fair.first_deal)
    return out


def _fair_from_json(raw: Any) -> FairState | None:
    if raw is None:
        return None
    draws = tuple(SeedDraw.from_json(draw) for draw in raw["draws"])
    return FairState(draws, raw["revealed"], raw.get("master"), raw.get("first_deal", 0))


FAIR_CODEC = Codec(_fair_to_json, _fair_from_json)
"""A state's ``fair`` field as JSON (staff and snapshots only: it holds unrevealed seeds)."""


def _invalid(message: str) -> EngineError:
    return EngineError(EngineCode.INVALID_SEEDS, message)


def commitment(server_seed: str, salt: str) -> str:
    """``SHA-256(salt || server_seed)`` in lower-case hex; both arguments are hex."""
    return hashlib.sha256(bytes.fromhex(salt) + bytes.fromhex(server_seed)).hexdigest()


def _blocks(draw: SeedDraw, number: int) -> Iterator[bytes]:
    """The HMAC-SHA256 blocks 0, 1, 2... of shuffle ``number`` of ``draw``'s deal (module docstring)."""
    key = bytes.fromhex(draw.server_seed)
    prefix = "|".join((draw.scheme, draw.game, str(draw.deal), str(number), *draw.players))
    counter = 0
    while True:
        yield hmac.new(key, f"{prefix}|{counter}".encode("ascii"), hashlib.sha256).digest()
        counter += 1


_WORD = struct.Struct(">I")


def _words(draw: SeedDraw, number: int) -> Iterator[int]:
    """The blocks' bytes, concatenated, read 4 at a time as big-endian integers (a block is 32 bytes: no read spans
    two)."""
    for block in _blocks(draw, number):
        for (word,) in _WORD.iter_unpack(block):
            yield word


def derive_order(cards: Sequence[Card], draw: SeedDraw, number: int) -> tuple[Card, ...]:
    """The order (top card first) the seeds ``draw`` give shuffle ``number`` of ``cards`` (any order: they are
    sorted first). Fisher-Yates with rejection sampling over ``_words`` (module docstring)."""
    return _order(tuple(sorted(cards, key=SORT_KEY)), draw, number)


@lru_cache(maxsize=32)
def _order(deck: tuple[Card, ...], draw: SeedDraw, number: int) -> tuple[Card, ...]:
    # Remembered: a shuffle is derived when the server asks for it and again when its logged order is checked on
    # apply (and once more by a replay in the same process), each time the same answer.
    order = list(deck)
    words = _words(draw, number)
    for i in range(len(order) - 1, 0, -1):
        span = i + 1
        limit = 2**32 - 2**32 % span
        r = next(words)
        while r >= limit:
            r = next(words)
        j = r % span
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def check_draw(draw: SeedDraw, *, seats: int, deal: int) -> None:
    """Raise ``EngineError("invalid_seeds")`` unless ``draw`` is a valid draw for ``deal`` of a table of
    ``seats``."""
    SeedDraw.from_json(draw.to_json())
    if len(draw.players) != seats:
        raise _invalid(f"one seed per seat: {seats}, not {len(draw.players)}")
    if draw.deal != deal:
        raise _invalid(f"these seeds are for deal {draw.deal}; the shuffle due opens deal {deal}")
