"""A table opened from the new-table page (games/services/tables.py): the game, the creator's seat and the bots
asked for, all or nothing."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.models import Game
from games.services.tables import table_open
from palace_api.errors import ConflictError
from players.services import player_register

pytestmark = pytest.mark.django_db


def test_the_creator_and_the_bots_sit_and_the_match_starts():
    alice = player_register(name="alice")[0]
    game = table_open(creator=alice, kind="palace", seats=3, options={}, sit=True, bots=["basic", "search"])
    game.refresh_from_db()
    assert game.status == "active"
    assert [(seat.number, seat.player_id, seat.bot) for seat in game.seats.order_by("number")] == [
        (0, alice.pk, ""),
        (1, None, "basic"),
        (2, None, "search"),
    ]


@pytest.mark.parametrize(
    ("bots", "error"), [(["basic", "no-such-bot"], EngineError), (["basic", "basic", "basic"], ConflictError)]
)
def test_a_bot_refused_leaves_no_table_behind(bots, error):
    alice = player_register(name="alice")[0]
    with pytest.raises(error):
        table_open(creator=alice, kind="palace-poker", seats=3, options={}, sit=True, bots=bots)
    assert not Game.objects.exists()
