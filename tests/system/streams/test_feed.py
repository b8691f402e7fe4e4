"""``games.api.hub.GameFeed`` on its own: the streams of one game share one database read per move, and each
gets only what a read started after its wake-up returned (nothing lost to a read already under way)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from games.api import hub as hub_module
from games.api.hub import GameFeed
from games.models import Event, GameStatus
from games.selectors.live import FeedRead


class FakeLog:
    """A game's log growing by hand, and the reads of it (``live.feed_read``'s stand-in)."""

    def __init__(self) -> None:
        self.version = 0
        self.reads: list[int | None] = []
        self.gate = asyncio.Event()
        self.gate.set()

    def append(self, count: int = 1) -> None:
        self.version += count

    def game(self) -> Any:
        seats = [SimpleNamespace(number=0, player_id=1), SimpleNamespace(number=1, player_id=2)]
        return SimpleNamespace(
            pk=7, version=self.version, status=GameStatus.ACTIVE, seats=SimpleNamespace(all=lambda: seats)
        )

    def read(self, game_id: int, *, after: int | None, keep: int) -> FeedRead:
        self.reads.append(after)
        start = max(0, self.version - keep) if after is None else after
        when = datetime(2026, 1, 1, tzinfo=UTC)
        rows = [
            Event(game_id=game_id, seq=seq, kind="seat_taken", actor=0, payload={"seat": 0}, created=when)
            for seq in range(start + 1, self.version + 1)
        ]
        return FeedRead(game=self.game(), rows=rows)


@pytest.fixture
def log(monkeypatch) -> FakeLog:
    fake = FakeLog()

    async def database(function: Any, *args: Any, **kwargs: Any) -> Any:
        # The read's snapshot is taken when it starts, then it takes a while: streams arriving meanwhile wait.
        result = function(*args, **kwargs)
        await fake.gate.wait()
        await asyncio.sleep(0.01)
        return result

    monkeypatch.setattr(hub_module, "database", database)
    monkeypatch.setattr(hub_module.live, "feed_read", fake.read)
    monkeypatch.setattr(hub_module, "side_start", lambda game_id: {})  # no chat beside this fake log
    return fake


def render(entry: dict[str, Any]) -> bytes:
    return f"{entry['seq']}".encode()


def user(pk: int) -> Any:
    return SimpleNamespace(pk=pk, is_staff=False)


def test_twenty_streams_woken_by_one_move_cost_one_read(log: FakeLog) -> None:
    async def main() -> None:
        feed = GameFeed(7, keep=16)
        await feed.refresh()
        assert log.reads == [None]
        log.append(3)
        feed.hint()

        async def stream(pk: int) -> list[int]:
            await feed.refresh()
            page = feed.page(user(pk), 0, render, limit=100)
            assert page is not None
            return [seq for seq, _ in page.chunks]

        pages = await asyncio.gather(*(stream(pk) for pk in range(20)))
        assert pages == [[1, 2, 3]] * 20
        assert log.reads == [None, 0]

    asyncio.run(main())


def test_a_hint_during_a_read_gets_a_read_of_its_own(log: FakeLog) -> None:
    async def main() -> None:
        feed = GameFeed(7, keep=16)
        await feed.refresh()
        log.gate.clear()
        log.append()
        feed.hint()
        early = asyncio.ensure_future(feed.refresh())
        while len(log.reads) < 2:  # until the read has started: it holds version 1
            await asyncio.sleep(0)
        log.append()
        feed.hint()
        late = asyncio.ensure_future(feed.refresh())
        log.gate.set()
        await asyncio.gather(early, late)
        page = feed.page(user(1), 0, render, limit=100)
        assert page is not None and [seq for seq, _ in page.chunks] == [1, 2]
        assert log.reads == [None, 0, 1]

    asyncio.run(main())


def test_the_feed_keeps_its_last_entries_and_sends_a_stream_further_behind_to_the_database(log: FakeLog) -> None:
    async def main() -> None:
        feed = GameFeed(7, keep=4)
        log.append(10)
        await feed.refresh()
        assert feed.page(user(1), 5, render, limit=100) is None
        page = feed.page(user(1), 6, render, limit=100)
        assert page is not None and [seq for seq, _ in page.chunks] == [7, 8, 9, 10] and not page.more
        page = feed.page(user(1), 6, render, limit=3)
        assert page is not None and [seq for seq, _ in page.chunks] == [7, 8, 9] and page.more
        log.append(2)
        feed.hint()
        await feed.refresh()
        assert [row.seq for row in feed.rows] == [9, 10, 11, 12]
        assert feed.page(user(1), 7, render, limit=100) is None

    asyncio.run(main())
