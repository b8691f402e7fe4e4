"""Twenty clients racing for the same decision against PostgreSQL: exactly one wins, the log stays gap-free."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games.models import Event, Game
from tests.games.api.table import create_table

RACERS = 20


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_submissions_one_201_the_rest_409(make_player, auth_client):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; .ci/run runs this test against PostgreSQL")
    tokens = [make_player(name)[1] for name in ("alice", "bob")]
    table = create_table(auth_client(tokens[0]), [auth_client(token) for token in tokens], options={"first_dealer": 1})
    version = table.version
    barrier = threading.Barrier(RACERS)

    def submit(index: int) -> int:
        client = auth_client(tokens[0])
        try:
            barrier.wait(timeout=30)
            body = {"type": "buy", "expected_version": version}
            return client.post(table.url("actions/"), body, format="json").status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        codes = sorted(pool.map(submit, range(RACERS)))
    assert codes == [201] + [409] * (RACERS - 1)
    game = Game.objects.get(pk=table.game_id)
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    assert [kind for kind in Event.objects.filter(game=game, seq__gt=version).values_list("kind", flat=True)] == ["buy"]
