"""players.models.Player: the database's own guards."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from players.models import Player

pytestmark = pytest.mark.django_db

User = get_user_model()


def test_player_names_are_unique_regardless_of_case_in_the_database() -> None:
    Player.objects.create(user=User.objects.create_user(username="u1"), name="Eve")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(user=User.objects.create_user(username="u2"), name="EVE")


@pytest.mark.parametrize(
    ("kind", "bot", "allowed"),
    [("human", None, True), ("bot", "random", True), ("human", "random", False), ("bot", None, False)],
)
def test_a_bot_policy_is_set_exactly_for_bots(kind: str, bot: str | None, allowed: bool) -> None:
    user = User.objects.create_user(username="u")
    if allowed:
        Player.objects.create(user=user, name="u", kind=kind, bot=bot)
        return
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(user=user, name="u", kind=kind, bot=bot)


def test_a_player_is_deleted_with_its_user() -> None:
    user = User.objects.create_user(username="u")
    Player.objects.create(user=user, name="u")
    user.delete()
    assert not Player.objects.exists()
