"""players.services: registration, names, hashed tokens, staff tokens (README, "Accounts and tokens")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS, knox_settings

from palace_api.errors import ApplicationError, ConflictError
from players.models import Player
from players.selectors import player_for_user
from players.services import player_register, staff_token_create, token_revoke

pytestmark = pytest.mark.django_db

User = get_user_model()
BOSS_PASSWORD = "pw-boss-1"  # noqa: S105  (test accounts)


def test_register_makes_a_human_player_whose_user_has_no_usable_password() -> None:
    user, token = player_register(name="alice")

    assert user.username == "alice"
    assert not user.has_usable_password()
    assert not user.is_staff
    player = Player.objects.get(user=user)
    assert (player.name, player.kind, player.bot) == ("alice", Player.Kind.HUMAN, None)
    assert player_for_user(user=user) == player
    assert len(token) == knox_settings.AUTH_TOKEN_CHARACTER_LENGTH


def test_a_player_token_never_expires() -> None:
    user, _ = player_register(name="alice")
    assert AuthToken.objects.get(user=user).expiry is None


def test_only_a_digest_of_the_token_is_stored() -> None:
    """Given a registered player, when we read every column of knox's table, then the token is nowhere in it:
    the row holds its SHA-512 digest and a 15-character lookup prefix, never the secret rest."""
    user, token = player_register(name="alice")

    row = AuthToken.objects.get(user=user)
    assert row.digest == hash_token(token)
    assert row.token_key == token[: CONSTANTS.TOKEN_KEY_LENGTH]
    secret_part = token[CONSTANTS.TOKEN_KEY_LENGTH :]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {AuthToken._meta.db_table}")  # noqa: S608  (a fixed table name)
        stored = [str(value) for values in cursor.fetchall() for value in values]
    assert stored
    assert not [value for value in stored if token in value or secret_part in value]


@pytest.mark.parametrize("name", ["a", "A" * 32, "Alice_99", "x.y-z", "_-.", "007"])
def test_names_of_1_to_32_letters_digits_underscore_dash_dot_are_accepted(name: str) -> None:
    user, _ = player_register(name=name)
    assert user.username == name


@pytest.mark.parametrize(
    "name",
    ["", "a" * 33, "al ice", " alice", "alice ", "alice\n", "álice", "ａlice", "名前", "a/b", "a@b", "<b>", "a\x00"],
)
def test_other_names_are_refused_with_invalid_name(name: str) -> None:
    with pytest.raises(ApplicationError) as refusal:
        player_register(name=name)
    assert (refusal.value.status, refusal.value.code) == (400, "invalid_name")
    assert not User.objects.exists()


def test_names_are_unique_regardless_of_case() -> None:
    player_register(name="Alice")
    with pytest.raises(ConflictError) as refusal:
        player_register(name="aLICE")
    assert (refusal.value.status, refusal.value.code) == (409, "name_taken")
    assert User.objects.count() == 1


def test_a_name_is_taken_by_a_staff_account_too() -> None:
    User.objects.create_user(username="Admin", password=BOSS_PASSWORD, is_staff=True)
    with pytest.raises(ConflictError):
        player_register(name="admin")


def test_the_database_refuses_a_same_name_player_that_the_first_check_missed() -> None:
    """The unique index on lower(name) guards concurrent registrations: the loser gets name_taken, and its
    half-made user is rolled back."""
    other = User.objects.create_user(username="someone")
    Player.objects.create(user=other, name="Dave")

    with pytest.raises(ConflictError) as refusal:
        player_register(name="dave")

    assert refusal.value.code == "name_taken"
    assert not User.objects.filter(username="dave").exists()


def test_staff_token_for_a_staff_user_expires_after_the_knox_ttl() -> None:
    staff = User.objects.create_user(username="boss", password=BOSS_PASSWORD, is_staff=True)
    before = timezone.now()

    instance, token = staff_token_create(username="boss", password=BOSS_PASSWORD)

    assert instance.user == staff
    assert instance.digest == hash_token(token)
    assert before + knox_settings.TOKEN_TTL <= instance.expiry <= timezone.now() + knox_settings.TOKEN_TTL
    assert knox_settings.TOKEN_TTL == timedelta(hours=10)
    staff.refresh_from_db()
    assert staff.last_login is not None


@pytest.mark.parametrize(
    ("username", "password", "is_staff", "is_active"),
    [
        ("boss", "wrong", True, True),
        ("nobody", BOSS_PASSWORD, True, True),
        ("boss", BOSS_PASSWORD, False, True),
        ("boss", BOSS_PASSWORD, True, False),
    ],
    ids=["wrong-password", "unknown-user", "not-staff", "inactive"],
)
def test_staff_token_refusals_all_look_the_same(username: str, password: str, is_staff: bool, is_active: bool) -> None:
    User.objects.create_user(username="boss", password=BOSS_PASSWORD, is_staff=is_staff, is_active=is_active)
    with pytest.raises(ApplicationError) as refusal:
        staff_token_create(username=username, password=password)
    assert (refusal.value.status, refusal.value.code) == (400, "invalid_credentials")
    assert refusal.value.detail == "Unknown user, wrong password, or not a staff account."
    assert not AuthToken.objects.exists()


def test_token_revoke_deletes_only_that_token() -> None:
    User.objects.create_user(username="boss", password=BOSS_PASSWORD, is_staff=True)
    first, _ = staff_token_create(username="boss", password=BOSS_PASSWORD)
    second, _ = staff_token_create(username="boss", password=BOSS_PASSWORD)

    token_revoke(token=first)

    assert list(AuthToken.objects.values_list("digest", flat=True)) == [second.digest]
