"""A decision written without the row lock by the process that committed the game's last version
(``games.services.log.append_unlocked``): one statement on PostgreSQL, fenced on the version and status it holds,
and the same answers as the locked path whenever the fence fails (the locked path then answers)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Event, Game, Snapshot
from games.selectors.state import SNAPSHOT_EVERY, engine_of, forget_states, remembered_game, state_at
from games.services.actions import action_submit
from palace_api.errors import ConflictError
from players.services import news_wanted_set
from tests.games.api.table import create_table
from tests.games.api.test_games_queries import statements
from webhooks.services.dispatch import GAME_CHANGED

pytestmark = pytest.mark.django_db

HEADS_UP = {"betting": "limit", "small_bet": 5, "big_bet": 10, "first_dealer": 1, "max_hands": 3}
SEND = "outbox.broker.current_app.send_task"
POSTGRESQL = "postgresql"


@pytest.fixture
def players(make_player):
    return [make_player(name) for name in ("alice", "bob")]


@pytest.fixture
def table(players, auth_client, django_capture_on_commit_callbacks):
    """alice (seat 0) and bob (seat 1) heads-up, and one decision committed by this process (its memory then holds
    the game's row and state at the table's version)."""
    clients = [auth_client(token) for _, token in players]
    table = create_table(clients[0], clients, options=HEADS_UP)
    with django_capture_on_commit_callbacks(execute=True):
        table.act(table.view(0)["to_act"][0], "stay")
    return table


def due(table) -> int:
    return table.view(0)["to_act"][0]


def entries(table) -> int:
    return Event.objects.filter(game_id=table.game_id).count()


def test_the_next_decision_is_one_fenced_statement_and_writes_what_a_replay_reads(
    table, django_capture_on_commit_callbacks
):
    """Given this process committed the last version, when the next seat decides, then on PostgreSQL the decision is
    a single statement without a lock, and a view read from the log alone (no memory) is the one served before."""
    seat = due(table)
    assert remembered_game(table.game_id, table.version) is not None
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        answer = table.act(seat, "stay").json()
    sql = statements(captured)
    if connection.vendor == POSTGRESQL:
        assert len(sql) == 1, sql
        assert sql[0].startswith("WITH moved AS (") and "FOR UPDATE" not in sql[0], sql[0]
    else:
        assert "games_seat" in sql[0] and "games_game" in sql[0], "elsewhere the locked path, as before"
    assert answer["version"] == table.version == Game.objects.get(pk=table.game_id).version
    served = [table.view(seat) for seat in (0, 1)]
    forget_states()
    assert [table.view(seat) for seat in (0, 1)] == served


def test_from_the_start_every_decision_and_every_new_deal_is_one_statement(
    players, auth_client, django_capture_on_commit_callbacks
):
    """Given a match this process started (the last seat taken here, before every seat's seed was read with the
    lock), when both seats stay through three hands (each hand's end draws the next deal's shuffle from the seats'
    seeds), then on PostgreSQL each decision is one statement. (The match's last decision takes the locked path.)"""
    clients = [auth_client(token) for _, token in players]
    with django_capture_on_commit_callbacks(execute=True):
        table = create_table(clients[0], clients, options={**HEADS_UP, "max_hands": 10})
    counts, deals = [], 0
    for _ in range(6):
        seat = due(table)
        with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
            answer = table.act(seat, "stay").json()
        deals += any(event["kind"] == "shuffle" for event in answer["events"])
        counts.append(len(statements(captured)))
    assert deals >= 2, "the decisions must end hands"
    if connection.vendor == POSTGRESQL:
        assert counts == [1] * 6, counts


def test_the_decision_that_makes_a_snapshot_due_is_one_statement_that_writes_it(
    players, auth_client, django_capture_on_commit_callbacks
):
    """Given a match this process plays, when a decision takes the game past version ``SNAPSHOT_EVERY``, then on
    PostgreSQL that decision is still one statement, without the lock, and it wrote the snapshot at the new version:
    the state a replay of the log alone gives. (A snapshot once sent the decision down the locked path: a second
    pass of the rules, the lock's read, the snapshot's own INSERT and the transaction's: ``benchmarks/README.md``,
    "Snapshots set the POST's tail".)"""
    clients = [auth_client(token) for _, token in players]
    with django_capture_on_commit_callbacks(execute=True):
        table = create_table(clients[0], clients, options={**HEADS_UP, "max_hands": 100})
    version = table.version
    while version < SNAPSHOT_EVERY:
        assert not Snapshot.objects.filter(game_id=table.game_id).exists(), "none before the version passes it"
        seat = due(table)
        with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
            version = table.act(seat, "stay").json()["version"]
    if connection.vendor == POSTGRESQL:
        sql = statements(captured)
        assert len(sql) == 1 and "FOR UPDATE" not in sql[0] and "games_snapshot" in sql[0], sql
    snapshot = Snapshot.objects.get(game_id=table.game_id)
    game = Game.objects.get(pk=table.game_id)
    assert snapshot.version == version == game.version
    replayed = state_at(game, version, use_memory=False, use_snapshots=False)
    assert snapshot.state == engine_of(game).state_to_json(replayed)
    if connection.vendor == POSTGRESQL:
        # Compressed with LZ4 where the server has it (migration 0009), as PostgreSQL's default pglz elsewhere.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_column_compression(state) FROM games_snapshot WHERE id = %s", [snapshot.pk])
            assert cursor.fetchone()[0] == ("lz4" if lz4_supported() else "pglz")


def lz4_supported() -> bool:
    """Whether this PostgreSQL server was built with LZ4 (it refuses the setting otherwise). The setting is rolled
    back with its savepoint either way, so the test's later writes keep the server's default."""
    savepoint = transaction.savepoint()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL default_toast_compression = 'lz4'")
    except DatabaseError:
        return False
    finally:
        transaction.savepoint_rollback(savepoint)
    return True


def test_a_stale_memory_writes_nothing_and_the_conflict_names_the_current_version(
    table, django_capture_on_commit_callbacks
):
    """Given this process remembers version v but the game moved on without it (the next decision's commit hooks
    did not run here, as when another process wrote it), when a client still at v decides, then nothing is written
    and the answer is the locked path's 409 ``version_conflict`` with the current version."""
    stale = table.version
    table.act(due(table), "stay")  # no commit hooks: the memory stays at `stale`
    assert remembered_game(table.game_id, stale) is not None
    written, seat = entries(table), due(table)
    table.version = stale
    answer = table.act(seat, "stay", expect=409).json()
    current = Game.objects.get(pk=table.game_id).version
    assert answer["code"] == "version_conflict" and answer["current_version"] == current > stale
    assert entries(table) == written
    table.version = current
    table.act(due(table), "stay")  # the locked path catches up


def test_a_game_whose_status_changed_under_the_same_version_writes_nothing(table):
    """The status is fenced too: a row changed to ``finished`` without a new version (no service does this; the
    fence must not rely on it) refuses the decision as the locked path does, and nothing is written."""
    seat, written = due(table), entries(table)
    Game.objects.filter(pk=table.game_id).update(status="finished")
    answer = table.act(seat, "stay", expect=409).json()
    assert answer["code"] == "game_finished"
    assert entries(table) == written


def test_news_wanted_after_the_last_commit_is_read_by_the_write(table, players, django_capture_on_commit_callbacks):
    """bob registers for news after this process remembered the game (its row said nobody wanted it): the next
    decision is still announced, since the fenced write reads the flag itself."""
    news_wanted_set(user=players[1][0], wanted=True)
    with mock.patch(SEND) as send, django_capture_on_commit_callbacks(execute=True):
        table.act(due(table), "stay")
    assert [(call.args[0], call.kwargs["args"]) for call in send.call_args_list] == [
        (GAME_CHANGED, [table.game_id, table.version])
    ]


def test_an_illegal_or_misplaced_decision_gets_the_locked_paths_answer(table):
    """Refusals are the locked path's alone: the seat not due gets ``not_your_turn``, a bad card ``invalid_card``."""
    seat, written = due(table), entries(table)
    assert table.act(1 - seat, "stay", expect=403).json()["code"] == "not_your_turn"
    assert table.act(seat, "discard", cards=["Zz"], expect=400).json()["code"] == "invalid_card"
    assert entries(table) == written


@pytest.mark.django_db(transaction=True)
def test_eight_threads_deciding_at_once_from_the_remembered_version_apply_one_decision(players, auth_client):
    """Given a started match whose start this process committed (its memory holds the row), when eight threads
    submit the due seat's decision at that version at once, then one is applied and seven get ``version_conflict``,
    and the log is whole: its entries numbered 1 to the game's version, and a replay of it (no memory, no
    snapshot) gives the state the process remembers."""
    if connection.vendor != POSTGRESQL:
        pytest.skip("the unlocked write is PostgreSQL's; .ci/run runs this test against PostgreSQL")
    clients = [auth_client(token) for _, token in players]
    table = create_table(clients[0], clients, options=HEADS_UP)
    seat = due(table)
    version = table.version
    assert remembered_game(table.game_id, version) is not None
    barrier = threading.Barrier(8)

    def decide(_: int) -> str:
        try:
            barrier.wait(timeout=30)
            action_submit(user=players[seat][0], game_id=table.game_id, type="stay", expected_version=version)
            return "applied"
        except ConflictError as error:
            return error.code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = sorted(pool.map(decide, range(8)))
    assert answers == ["applied"] + ["version_conflict"] * 7
    game = Game.objects.get(pk=table.game_id)
    assert list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True)) == list(
        range(1, game.version + 1)
    )
    remembered = remembered_game(game.pk, game.version)
    assert remembered is not None
    replayed = state_at(game, game.version, use_memory=False, use_snapshots=False)
    engine = engine_of(game)
    assert [engine.view(replayed, s) for s in (0, 1)] == [engine.view(remembered[1], s) for s in (0, 1)]
