"""The admin reads a shedding game too: its pages answer, and its log shows every card to staff."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.services import action_submit, game_create, seat_take

pytestmark = pytest.mark.django_db


def test_admin_pages_of_a_shedding_game(client, make_player):
    ann, _ = make_player("ann")
    ben, _ = make_player("ben")
    game = game_create(creator=ann, kind="palace", seats=2, options={})
    seat_take(game_id=game.pk, player=ann)
    seat_take(game_id=game.pk, player=ben)
    from games.selectors.state import engine_of, game_state

    game.refresh_from_db()
    state = game_state(game)
    (choice,) = engine_of(game).legal_actions(state, 0)
    action_submit(user=ann, game_id=game.pk, type="choose_face_up", cards=[card.code for card in choice.cards[:3]])
    staff = get_user_model().objects.create_user(username="auditor", is_staff=True)
    client.force_login(staff)
    for path in (
        f"/admin/games/game/{game.pk}/change/",
        f"/admin/games/game/{game.pk}/hands/",
        f"/admin/games/event/?game__id__exact={game.pk}",
    ):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        assert "/export/phh/" not in response.content.decode(), "PHH cannot write the shedding game"
