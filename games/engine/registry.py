"""The games the server knows, by ``kind``, and each one's parts: the one place that maps a kind to them.

Outside ``games.engine`` nothing compares a kind: the server, the admin and the pages ask ``game_kind(kind)``
for the game's rules, its event catalogue, its phrase table, its history reader and its PHH writer (and
``web/registry.py`` for the web table). Each part lives beside its game (``games/engine/poker/``,
``games/engine/shedding/``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.errors import EngineCode, InvalidOptions
from games.engine.event_fields import EventSpec
from games.engine.phrasing import Line, Names, Phrase
from games.engine.poker import PALACE_POKER
from games.engine.poker import events as poker_events
from games.engine.poker import history as poker_history
from games.engine.poker import phh as poker_phh
from games.engine.poker import phrases as poker_phrases
from games.engine.poker import standings as poker_standings
from games.engine.protocol import Game
from games.engine.shedding import PALACE
from games.engine.shedding import events as shedding_events
from games.engine.shedding import history as shedding_history
from games.engine.shedding import phrases as shedding_phrases
from games.engine.shedding import standings as shedding_standings

Histories = Callable[[Iterable[Mapping[str, Any]], Names, Mapping[str, Any]], Iterator[Any]]
"""A history reader: log entries in the API's shape (in ``seq`` order), the seats' names and the game's options
-> its hands, each with ``number``, ``first_seq``, ``last_seq``, ``dealer``, ``finished``, ``ends_match`` and
``result`` (words)."""
PhhWriter = Callable[[Mapping[str, Any], Names], str]
"""A PHH writer: a game's export (``games.selectors.export.game_export``, as its caller may see it) and the seats'
names -> the game as a ``.phhs`` text (``games.engine.poker.phh``)."""


@dataclass(frozen=True, slots=True)
class GameKind:
    """A game kind's parts. ``title``: its name for people (``"Palace Poker"``); ``game``: its rules
    (``protocol.Game``); ``events``: its event catalogue; ``phrases``: one phrase per catalogue type
    (``phrasing.Phrase``); ``histories``: its history reader; ``outcomes``: the event types that say who won a
    hand or the match (a summary prints their lines); ``slug``: the folder of its parts outside the engine
    (``web/<slug>/``, the admin's ``admin/games/<slug>/`` templates); ``standings``: its finishing order and
    rating ladders (``places(events)``, ``ladder(options)``, ``LADDERS``: see ``poker/standings.py``); ``phh``: its
    PHH writer, ``None`` for a game PHH cannot write (PHH records poker hands: the shedding game has none)."""

    kind: str
    title: str
    game: Game
    events: tuple[EventSpec, ...]
    phrases: Mapping[str, Phrase]
    histories: Histories
    outcomes: frozenset[str]
    slug: str
    standings: Any
    phh: PhhWriter | None = None

    def phrase(self, event: Mapping[str, Any], names: Names) -> Line:
        """``event`` (``Event.view_json`` for some viewer) in words; raises ``KeyError`` for a type not in the
        catalogue."""
        return self.phrases[event["type"]](event, names)


KINDS: dict[str, GameKind] = {
    kind.kind: kind
    for kind in (
        GameKind(
            kind=PALACE_POKER.kind,
            title="Palace Poker",
            game=PALACE_POKER,
            events=poker_events.EVENTS,
            phrases=poker_phrases.PHRASES,
            histories=poker_history.histories,
            outcomes=frozenset({"pot_awarded", "player_left", "match_ended"}),
            slug="poker",
            standings=poker_standings,
            phh=poker_phh.phhs,
        ),
        GameKind(
            kind=PALACE.kind,
            title="Palace",
            game=PALACE,
            events=shedding_events.EVENTS,
            phrases=shedding_phrases.PHRASES,
            histories=shedding_history.histories,
            outcomes=frozenset({"player_out", "match_ended"}),
            slug="shedding",
            standings=shedding_standings,
        ),
    )
}
"""Every game kind the server plays, by ``kind``."""

GAMES: dict[str, Game] = {kind: parts.game for kind, parts in KINDS.items()}
"""The rules of each kind."""


LADDERS: dict[str, str] = {name: title for parts in KINDS.values() for name, title in parts.standings.LADDERS.items()}
"""Every rating ladder (a game kind, Palace Poker by points apart) and its title."""


def game_kind(kind: str) -> GameKind:
    """The parts of ``kind``; raises ``InvalidOptions("unknown_kind")``."""
    try:
        return KINDS[kind]
    except KeyError:
        raise InvalidOptions(EngineCode.UNKNOWN_KIND, f"unknown game kind {kind!r}; one of {sorted(KINDS)}") from None


def get_game(kind: str) -> Game:
    """The game module for ``kind``; raises ``InvalidOptions("unknown_kind")``."""
    return game_kind(kind).game
