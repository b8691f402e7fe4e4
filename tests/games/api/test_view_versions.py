"""The database-free 304s of ``me/turns/`` and the game view (games/selectors/versions.py, issue 24).

With a cache every process shares, a poller that sends back its tag gets a 304 without a query while nothing it
sees changed, and every write through the one write path (games/services/log.py) makes the tags it changes stale
once it commits, whichever process wrote.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.cache import caches
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game
from games.selectors import versions
from games.services.lifecycle import game_cancel, game_resign, seat_leave
from games.services.turns import timeout_apply
from palace_api.env import read_view_versions_cache
from tests.games.api.table import create_table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
HEADS_UP = {"betting": "limit", "small_bet": 5, "big_bet": 10, "first_dealer": 1}
TURNS = "/api/v1/me/turns/"


@pytest.fixture
def shared_versions(settings, tmp_path):
    """A cache that processes share (a file-based one in ``tmp_path``) holds the view versions."""
    location = tmp_path / "cache"
    backend = "django.core.cache.backends.filebased.FileBasedCache"
    settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": str(location)}}
    settings.VIEW_VERSIONS_CACHE = read_view_versions_cache(settings.CACHES)
    assert settings.VIEW_VERSIONS_CACHE == "default"
    yield location
    caches["default"].clear()


@pytest.fixture
def players(make_player):
    """alice and bob, and a client for each that is signed in without the token's query (the authentication
    path's cost is not the view's)."""
    people = [make_player(name)[0] for name in ("alice", "bob")]
    clients = []
    for user in people:
        client = APIClient()
        client.force_authenticate(user)
        clients.append(client)
    return people, clients


@pytest.fixture
def table(shared_versions, players, django_capture_on_commit_callbacks):
    """alice (seat 0) and bob (seat 1) heads-up; alice acts first; every commit's callbacks run."""
    _, clients = players
    with django_capture_on_commit_callbacks(execute=True):
        return create_table(clients[0], clients, options={**HEADS_UP, "turn_timeout": 600})


def tag(client: APIClient, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, answer.content
    return answer.headers["ETag"]


def test_a_304_reads_nothing_from_the_database(table, players, django_assert_num_queries):
    """Given tags of the game view and of me/turns, when they are sent back and nothing changed, then each
    answer is a 304 with the same tag, and neither runs a single query."""
    _, clients = players
    game_tag, turns_tag = tag(clients[0], table.url()), tag(clients[0], TURNS)
    assert game_tag.startswith('"gv') and turns_tag.startswith('"tv'), "the versions' tags, not the database's"
    with django_assert_num_queries(0):
        game = clients[0].get(table.url(), HTTP_IF_NONE_MATCH=game_tag)
        turns = clients[0].get(TURNS, HTTP_IF_NONE_MATCH=turns_tag)
    assert (game.status_code, game.headers["ETag"]) == (304, game_tag)
    assert (turns.status_code, turns.headers["ETag"]) == (304, turns_tag)


def test_each_viewer_has_a_tag_of_his_own(table, players):
    """Given one game, then alice's and bob's views carry different tags, and one's tag is no 304 for the other."""
    _, clients = players
    alice = tag(clients[0], table.url())
    assert tag(clients[1], table.url()) != alice
    assert clients[1].get(table.url(), HTTP_IF_NONE_MATCH=alice).status_code == 200


def test_an_action_makes_both_players_tags_stale(table, players, django_capture_on_commit_callbacks):
    """When alice acts, then the game view and me/turns of both players answer 200 to their old tags (bob's turn
    came, alice's went), and 304 to the new ones."""
    _, clients = players
    before = [(tag(client, table.url()), tag(client, TURNS)) for client in clients]
    with django_capture_on_commit_callbacks(execute=True):
        table.act(0, "stay")
    for client, (game_tag, turns_tag) in zip(clients, before, strict=True):
        assert client.get(table.url(), HTTP_IF_NONE_MATCH=game_tag).status_code == 200
        assert client.get(TURNS, HTTP_IF_NONE_MATCH=turns_tag).status_code == 200
    assert [turn["game"] for turn in clients[1].get(TURNS).json()] == [table.game_id]
    fresh = tag(clients[1], TURNS)
    assert clients[1].get(TURNS, HTTP_IF_NONE_MATCH=fresh).status_code == 304


def test_a_rolled_back_write_keeps_the_tags(table, players):
    """A refused action (not alice's turn: bob tries) writes nothing, so the tags stay current."""
    _, clients = players
    game_tag = tag(clients[1], table.url())
    table.act(1, "stay", expect=403)
    assert clients[1].get(table.url(), HTTP_IF_NONE_MATCH=game_tag).status_code == 304


def test_a_timeout_makes_the_tags_stale(table, players, django_capture_on_commit_callbacks):
    """When alice's deadline passes and the sweeper applies her default action, then her me/turns tag and the
    game's tags are stale."""
    _, clients = players
    turns_tag, game_tag = tag(clients[0], TURNS), tag(clients[1], table.url())
    Game.objects.filter(pk=table.game_id).update(deadline=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert timeout_apply(game_id=table.game_id)
    assert clients[0].get(TURNS, HTTP_IF_NONE_MATCH=turns_tag).status_code == 200
    assert clients[1].get(table.url(), HTTP_IF_NONE_MATCH=game_tag).status_code == 200


def test_resigning_makes_the_tags_stale(table, players, django_capture_on_commit_callbacks):
    people, clients = players
    turns_tag, game_tag = tag(clients[0], TURNS), tag(clients[1], table.url())
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(user=people[1], game_id=table.game_id)
    assert clients[0].get(TURNS, HTTP_IF_NONE_MATCH=turns_tag).status_code == 200
    view = clients[1].get(table.url(), HTTP_IF_NONE_MATCH=game_tag)
    assert view.status_code == 200 and view.json()["status"] == "finished"


def test_seats_taken_left_and_a_cancel_make_the_tags_stale(
    shared_versions, players, django_capture_on_commit_callbacks
):
    """A waiting game: each seat taken or left, and the cancel, gives the game view a new tag."""
    people, clients = players
    with django_capture_on_commit_callbacks(execute=True):
        created = clients[0].post("/api/v1/games/", {"kind": "palace-poker", "seats": 3}, format="json")
    url = f"/api/v1/games/{created.json()['id']}/"
    steps = [
        lambda: clients[1].post(url + "seats/", {"seat": 1}, format="json"),
        lambda: seat_leave(user=people[1], game_id=created.json()["id"]),
        lambda: game_cancel(user=people[0], game_id=created.json()["id"]),
    ]
    for step in steps:
        before = tag(clients[0], url)
        with django_capture_on_commit_callbacks(execute=True):
            step()
        assert clients[0].get(url, HTTP_IF_NONE_MATCH=before).status_code == 200
    assert clients[0].get(url).json()["status"] == "cancelled"


def test_the_rematch_of_a_finished_game_makes_its_tags_stale(table, players, django_capture_on_commit_callbacks):
    """Given a finished game's tag, when its rematch is made (which logs nothing in the finished game, yet its view
    now links the rematch), then the tag is stale: the view answers 200 with the link, not a 304 without it."""
    people, clients = players
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(user=people[1], game_id=table.game_id)
    game_tag = tag(clients[0], table.url())
    assert clients[0].get(table.url()).json()["rematch"] is None
    with django_capture_on_commit_callbacks(execute=True):
        assert clients[0].post(table.url() + "rematch/").status_code == 201
        accepted = clients[1].post(table.url() + "rematch/accept/")
    assert accepted.status_code == 200 and accepted.json()["game"] is not None
    view = clients[0].get(table.url(), HTTP_IF_NONE_MATCH=game_tag)
    assert view.status_code == 200 and view.json()["rematch"] == accepted.json()["game"]
    assert clients[0].get(table.url(), HTTP_IF_NONE_MATCH=view.headers["ETag"]).status_code == 304


def test_a_change_made_by_another_process_makes_the_tags_stale(table, players, shared_versions):
    """Given tags handed out here, when another process (sharing the cache, as a Celery worker or a second web
    server shares Redis) records a change of the game, then the tags here are stale at once."""
    people, clients = players
    game_tag, turns_tag = tag(clients[1], table.url()), tag(clients[1], TURNS)
    script = (
        "import django; django.setup(); from games.services.versions import views_changed; "
        f"assert views_changed(game_id={table.game_id}, players=[{people[1].pk}])"
    )
    env = {**os.environ, "CACHE_URL": f"filecache://{shared_versions}", "DJANGO_SETTINGS_MODULE": "palace_api.settings"}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=60)  # noqa: S603
    assert clients[1].get(table.url(), HTTP_IF_NONE_MATCH=game_tag).status_code == 200
    assert clients[1].get(TURNS, HTTP_IF_NONE_MATCH=turns_tag).status_code == 200


def test_a_lost_cache_hands_out_new_tags(table, players):
    """When the cache loses the tokens (eviction, a Redis restart), then the old tags match nothing: a 200."""
    _, clients = players
    game_tag = tag(clients[0], table.url())
    caches["default"].delete(versions.game_key(table.game_id))
    assert clients[0].get(table.url(), HTTP_IF_NONE_MATCH=game_tag).status_code == 200


def test_a_cache_error_falls_back_to_the_database(table, players, monkeypatch):
    """When the cache fails, then the views tag what they read from the database, as without a shared cache,
    and still answer 304 to those tags."""
    _, clients = players

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(type(caches["default"]), "get_or_set", broken)
    game_tag = tag(clients[0], table.url())
    assert game_tag.startswith('"g') and not game_tag.startswith('"gv')
    assert clients[0].get(table.url(), HTTP_IF_NONE_MATCH=game_tag).status_code == 304


def test_a_per_process_cache_holds_no_versions():
    """A per-process cache would never see a worker's writes: the views then read the database for their tags."""
    locmem = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    redis = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache"}}
    assert read_view_versions_cache(locmem) is None
    assert read_view_versions_cache(redis) == "default"
