"""Read models of the live streams (``games.api.streams``): a game's new log entries for one viewer, the versions
the per-process hub polls, and what the caller's own stream announces (``turn.due``, ``game.started``,
``game.finished``), derived from the decisions due (``games.selectors.due``) and the game's status.

Everything here is synchronous ORM code; the async views run it in worker threads.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q
from django.utils import timezone

from games.messages import GAME_FINISHED, GAME_STARTED, TURN_DUE
from games.models import Event, Game, GameStatus, Seat
from games.selectors.due import Due, due_of
from games.selectors.read_models import game_events, game_get
from games.selectors.state import engine_of, game_state

LIVE_STATUSES = (GameStatus.WAITING, GameStatus.ACTIVE)
"""A game in any other status (finished, or any end added later) never logs again."""


@dataclass(frozen=True)
class StreamPage:
    """Log entries after a point, as one viewer may see them: ``entries`` (``events/``'s JSON, in ``seq``
    order), ``more`` (another page follows at once), and the game's ``version`` and ``ended`` (its status is
    past ``LIVE_STATUSES``) as read before the entries, so ``ended`` and the last entry at ``version`` mean the
    log is complete."""

    entries: list[dict[str, Any]]
    more: bool
    version: int
    ended: bool


def stream_page(game_id: int, user: AbstractBaseUser | AnonymousUser, *, after: int, limit: int) -> StreamPage:
    """The entries with ``seq > after`` (at most ``limit``) redacted for ``user`` as ``events/`` redacts them.

    The viewer is worked out anew on each call: one who takes a seat sees his cards from then on, as ``events/``
    would show them. The entries stop at the game's ``version`` as read with its seats (``game_events``). Raises
    ``NotFoundError("game_not_found")``.
    """
    game = game_get(game_id)
    page = game_events(game, user, after=after, limit=limit)
    return StreamPage(
        entries=page["results"],
        more=page["next_after"] is not None,
        version=game.version,
        ended=game.status not in LIVE_STATUSES,
    )


@dataclass(frozen=True)
class FeedRead:
    """What a game's shared feed (``games.api.hub.GameFeed``) reads once for all its streams: the ``game`` with
    its seats (to tell each stream's viewer), and its log ``rows`` after a point and up to ``game.version``,
    unredacted (the feed redacts them per viewer), in ``seq`` order. The seats are those of ``game.version``
    (``game_get``), and a seat changes only while the game waits, whose entries show no card: so they tell the
    viewer of every row as its seat stood at that row's version."""

    game: Game
    rows: list[Event]


def feed_read(game_id: int, *, after: int | None, keep: int) -> FeedRead:
    """The game and its log entries with ``seq > after`` up to the game's version as read with its seats; only about
    the last ``keep`` of them when ``after`` is ``None`` or further behind (the rows then start after a gap, which
    the feed sees). Entries committed after the game was read come with the next read.

    Two indexed queries whatever the number of streams following the game (three when far behind). Raises
    ``NotFoundError("game_not_found")``.
    """
    game = game_get(game_id)
    # Bounded by the version read with the seats: a row past it may follow a seat change those seats miss (one
    # who took the last seat seeing the deal as a spectator, or one who left seeing his successor's cards).
    log = Event.objects.filter(game=game, seq__lte=game.version).order_by("seq")
    start = max(0, game.version - keep) if after is None else after
    rows = list(log.filter(seq__gt=start)[: keep + 1])
    if len(rows) > keep:
        rows = list(log.filter(seq__gt=max(start, game.version - keep)))
    return FeedRead(game=game, rows=rows)


def watched_versions(game_ids: Iterable[int], user_ids: Iterable[int]) -> tuple[dict[int, int], dict[int, int]]:
    """What the polling hub compares between two ticks: each game's version, and for each user a number that
    changes whenever one of his unfinished games moves or ends (the sum of their ids and versions)."""
    game_ids, user_ids = list(game_ids), list(user_ids)
    games = dict(Game.objects.filter(pk__in=game_ids).values_list("id", "version")) if game_ids else {}
    users: dict[int, int] = dict.fromkeys(user_ids, 0)
    if user_ids:
        rows = Seat.objects.filter(player_id__in=user_ids, game__status__in=LIVE_STATUSES).values_list(
            "player_id", "game_id", "game__version"
        )
        for player_id, game_id, version in rows:
            # A game that ends leaves the sum; one that moves changes it (versions only grow).
            users[player_id] += game_id * 1_000_003 + version
    return games, users


@dataclass(frozen=True)
class MyGame:
    """One of the caller's games as his stream last saw it: ``due``, the decision due from him then
    (``games.selectors.due``), or ``None``."""

    game: int
    kind: str
    seat: int
    status: str
    version: int
    due: Due | None


def stream_games(user_id: int, *, also: Iterable[int] = ()) -> dict[int, MyGame]:
    """The user's unfinished games (and the games ``also`` names, whatever their status), by id."""
    seats = (
        Seat.objects.filter(player_id=user_id)
        .filter(Q(game__status__in=LIVE_STATUSES) | Q(game_id__in=list(also)))
        .select_related("game")
        .order_by()
    )
    return {
        seat.game_id: MyGame(
            game=seat.game_id,
            kind=seat.game.kind,
            seat=seat.number,
            status=seat.game.status,
            version=seat.game.version,
            due=due_of(seat),
        )
        for seat in seats
    }


def game_result(game_id: int, seat: int) -> dict[str, Any] | None:
    """How the match ended, as ``seat`` sees its final state: the shedding game's ``order`` and ``reason``; Palace
    Poker's ``winners`` and each seat's ``stack`` (and ``scores`` under the points variation). No card."""
    game = game_get(game_id)
    state = game_state(game)
    if state is None:
        return None
    view = engine_of(game).view(state, seat)
    if "result" in view:
        result: dict[str, Any] | None = view["result"]
        return result
    out: dict[str, Any] = {"winners": view.get("winners", []), "stacks": [row.get("stack") for row in view["seats"]]}
    if "scores" in view:
        out["scores"] = view["scores"]
    return out


def my_stream_news(before: dict[int, MyGame] | None, now: dict[int, MyGame]) -> list[tuple[str, dict[str, Any]]]:
    """What the caller's stream announces going from ``before`` to ``now`` (``stream_games`` twice), in order:
    ``(name, payload)`` with name ``game.started``, ``turn.due`` or ``game.finished``.

    ``before`` ``None``: the stream has just opened, and announces the turns due now. A decision is announced
    when it is new: due from the seat since another entry than before (``Due.since``: after a decision of the
    seat, a timeout's included, one due again is new). Payloads hold ids, versions, times and results: never a
    card.
    """
    news: list[tuple[str, dict[str, Any]]] = []
    moment = timezone.now()
    for game_id in sorted(now):
        game = now[game_id]
        old = None if before is None else before.get(game_id)
        base = {"game": game.game, "kind": game.kind, "seat": game.seat, "version": game.version}
        started = before is not None and game.status != GameStatus.WAITING and (old is None or old.status == "waiting")
        if started:
            news.append((GAME_STARTED, base))
        if game.due is not None and (old is None or old.due is None or old.due.since != game.due.since):
            news.append((TURN_DUE, game.due.to_json(moment)))
        if before is not None and game.status not in LIVE_STATUSES and (old is None or old.status in LIVE_STATUSES):
            news.append((GAME_FINISHED, {**base, "result": game_result(game.game, game.seat)}))
    return news
