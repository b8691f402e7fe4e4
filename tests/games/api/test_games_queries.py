"""What the hot requests cost in SQL: a game's view and an action (benchmarks/README.md, "Where the time goes")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.selectors.state import forget_states, game_state
from players.token_cache import TOKENS
from tests.games.api.table import create_table

pytestmark = pytest.mark.django_db

HEADS_UP = {"betting": "limit", "small_bet": 5, "big_bet": 10, "first_dealer": 1}
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def statements(captured: CaptureQueriesContext) -> list[str]:
    """The SQL sent, without transaction control (a test's transaction makes savepoints of BEGIN and COMMIT)."""
    sql = [query["sql"] for query in captured.captured_queries]
    return [text for text in sql if not text.upper().startswith(TRANSACTION_CONTROL)]


def assert_news_read_last(sql: list[str]) -> None:
    """On the ORM path (SQLite), the last statement of an action reads whether a seated player wants the game's
    news (``games.services.log._news``, once per game object); PostgreSQL reads it with the lock."""
    assert "news_wanted" in sql[-1], sql[-1]


@pytest.fixture
def table(make_player, auth_client):
    """alice (seat 0) and bob (seat 1, dealer) heads-up; alice acts first."""
    clients = [auth_client(make_player(name)[1]) for name in ("alice", "bob")]
    return create_table(clients[0], clients, options=HEADS_UP)


def test_a_game_view_reads_the_token_then_the_game_with_its_seats_in_one_query(table):
    """The token is read on a process's first request with it, then remembered (``AUTH_TOKEN_CACHE_SECONDS``)."""
    TOKENS.clear()
    with CaptureQueriesContext(connection) as captured:
        table.view(0)
    sql = statements(captured)
    assert len(sql) == 2, sql
    assert "knox_authtoken" in sql[0]
    assert "games_seat" in sql[1] and "games_game" in sql[1] and "auth_user" in sql[1]
    with CaptureQueriesContext(connection) as again:
        table.view(0)
    assert statements(again) == sql[1:], "the token remembered: the game with its seats alone"


def test_an_action_locks_the_game_and_reads_its_seats_in_one_query(table):
    table.view(0)
    with CaptureQueriesContext(connection) as captured:
        table.act(0, "stay")
    sql = statements(captured)
    assert "games_seat" in sql[0] and "games_game" in sql[0]
    if connection.vendor == "postgresql":
        # The game locked with its seats (and the entries this process's memory lacks), then one write: the events
        # inserted, the game's projections and the seats' to_act (games/services/statements.py).
        assert len(sql) == 2, sql
        assert "FOR UPDATE OF g" in sql[0]
        assert sql[1].startswith("WITH moved AS (") and "INSERT INTO games_event" in sql[1], sql[1]
        return
    # The game (locked) with its seats; the events; the game's projections; the seats' to_act. The token was
    # remembered from the view before.
    assert len(sql) == 5, sql
    assert sql[1].startswith("INSERT INTO")
    assert_news_read_last(sql)


def test_an_action_after_another_process_moved_reads_the_missing_entries_with_the_lock(table):
    """A process whose remembered state is behind (another web process served the last moves) reads the entries
    it lacks in the lock's statement on PostgreSQL, not in one of their own (as the ORM's path does elsewhere)."""
    table.view(0)
    forget_states()
    game = Game.objects.get(pk=table.game_id)
    game.version -= 1  # as a process that saw the game one entry ago remembers it
    game_state(game)
    with CaptureQueriesContext(connection) as captured:
        table.act(0, "stay")
    sql = statements(captured)
    if connection.vendor == "postgresql":
        assert len(sql) == 2, sql
        assert "games_event" in sql[0]
    else:
        assert len(sql) == 6, sql
        assert "games_event" in sql[1] and sql[1].startswith("SELECT")
        assert_news_read_last(sql)


def test_an_action_after_which_the_same_seat_decides_writes_the_seats_once(table):
    """The buyer owes the discard step: a new decision (README, "Whose decision is due"), whose start
    (``Seat.due_since``) is written with ``to_act`` in one statement."""
    table.view(0)
    with CaptureQueriesContext(connection) as captured:
        buy = table.act(0, "buy").json()
    assert buy["to_act"] == [0], "the buyer owes the discard step"
    sql = statements(captured)
    if connection.vendor == "postgresql":
        assert len(sql) == 2, sql
        assert "UPDATE games_seat" in sql[1], sql[1]
        return
    assert len(sql) == 5, sql
    assert [text for text in sql if text.startswith('UPDATE "games_seat"')] == [sql[3]]
    assert_news_read_last(sql)
