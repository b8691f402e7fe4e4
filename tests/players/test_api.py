"""The players API over HTTP: /api/v1/players/, /api/v1/auth/token/, /api/v1/auth/logout/, /api/v1/me/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken

from players.models import Player
from tests.games.api.helpers import assert_error

pytestmark = pytest.mark.django_db

User = get_user_model()
BOSS_PASSWORD = "pw-boss-1"  # noqa: S105  (test accounts)
CAROL_PASSWORD = "pw-carol-1"  # noqa: S105

REGISTER = "/api/v1/players/"
TOKEN = "/api/v1/auth/token/"  # noqa: S105  (a path)
LOGOUT = "/api/v1/auth/logout/"
ME = "/api/v1/me/"


# --- registration ---


def test_register_answers_201_with_id_name_and_a_token_that_works_on_me(api_client, auth_client) -> None:
    response = api_client.post(REGISTER, {"name": "alice"})

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "token"}
    user = User.objects.get(username="alice")
    assert (body["id"], body["name"]) == (user.pk, "alice")

    me = auth_client(body["token"]).get(ME)
    assert me.status_code == 200
    assert me.json() == {"id": user.pk, "name": "alice", "is_staff": False, "kind": "human"}


def test_register_a_taken_name_in_another_case_is_409_name_taken(api_client) -> None:
    assert api_client.post(REGISTER, {"name": "Alice"}).status_code == 201
    assert_error(api_client.post(REGISTER, {"name": "alice"}), 409, "name_taken")
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", ["", " alice", "a" * 33, "al ice", "bob!", "ñ"])
def test_register_a_bad_name_is_400_invalid_name(api_client, name: str) -> None:
    assert_error(api_client.post(REGISTER, {"name": name}), 400, "invalid_name")
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("payload", "message"),
    [({}, "This field is required."), ({"name": 123}, "Not a valid string."), ({"name": None}, "may not be null")],
)
def test_register_without_a_string_name_is_400_invalid_with_field_errors(api_client, payload, message) -> None:
    body = assert_error(api_client.post(REGISTER, payload), 400, "invalid")
    assert list(body["errors"]) == ["name"]
    assert message in body["errors"]["name"][0]
    assert body["detail"].startswith("name: ")


def test_register_ignores_a_stale_authorization_header(api_client) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api_client.post(REGISTER, {"name": "alice"}).status_code == 201


# --- /me/ and authentication ---


def test_me_without_a_token_is_401_not_authenticated_naming_the_token_scheme(api_client) -> None:
    response = api_client.get(ME)
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("header", ["Token 0123456789abcdef", "Token", "Token a b", "token " + "f" * 64])
def test_me_with_a_wrong_token_is_401_authentication_failed(api_client, make_player, header: str) -> None:
    make_player("alice")
    api_client.credentials(HTTP_AUTHORIZATION=header)
    response = api_client.get(ME)
    assert_error(response, 401, "authentication_failed")
    assert response["WWW-Authenticate"] == "Token"


def test_me_with_a_bearer_token_is_the_same_account(api_client, make_player) -> None:
    """Clients and generators default to ``Authorization: Bearer``: it works as ``Token`` does."""
    alice, token = make_player()
    for scheme in ("Bearer", "bearer", "Token"):
        api_client.credentials(HTTP_AUTHORIZATION=f"{scheme} {token}")
        response = api_client.get(ME)
        assert response.status_code == 200 and response.json()["id"] == alice.pk, scheme


@pytest.mark.parametrize(
    ("header", "says"),
    [
        ("Basic dXNlcjpwYXNz", "Unsupported Authorization scheme"),
        ("Bearer", "no token"),
        ("Bearer one two", "must not contain spaces"),
        ("Bearer not-a-token", "Invalid token"),
    ],
)
def test_a_malformed_authorization_header_is_401_saying_what_is_wrong(api_client, header: str, says: str) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=header)
    response = api_client.get(ME)
    assert_error(response, 401, "authentication_failed")
    assert says in response.json()["detail"]


def test_each_token_is_its_own_players(auth_client, make_player) -> None:
    alice, alice_token = make_player("alice")
    bob, bob_token = make_player("bob")
    assert auth_client(alice_token).get(ME).json()["id"] == alice.pk
    assert auth_client(bob_token).get(ME).json()["id"] == bob.pk


def test_me_works_with_a_session_for_the_admin_and_browsable_api(api_client, make_staff) -> None:
    staff, _ = make_staff()
    api_client.force_login(staff)
    assert api_client.get(ME).json() == {"id": staff.pk, "name": "staff", "is_staff": True, "kind": None}


# --- staff tokens ---


def test_staff_get_a_token_with_expiry_and_user(api_client, auth_client, make_staff) -> None:
    staff, _ = make_staff("boss", password=BOSS_PASSWORD)

    response = api_client.post(TOKEN, {"username": "boss", "password": BOSS_PASSWORD})

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "expiry", "user"}
    assert body["user"] == {"id": staff.pk, "name": "boss", "is_staff": True}
    expiry = parse_datetime(body["expiry"])
    assert timezone.now() + timedelta(hours=9) < expiry <= timezone.now() + timedelta(hours=10)
    me = auth_client(body["token"]).get(ME)
    assert me.json() == {"id": staff.pk, "name": "boss", "is_staff": True, "kind": None}


@pytest.mark.parametrize(
    ("username", "password"),
    [("boss", "wrong-password"), ("carol", CAROL_PASSWORD), ("nobody", BOSS_PASSWORD)],
    ids=["bad-password", "not-staff", "unknown-user"],
)
def test_a_token_is_refused_alike_for_bad_credentials_and_non_staff(
    api_client, make_staff, username: str, password: str
) -> None:
    make_staff("boss", password=BOSS_PASSWORD)
    User.objects.create_user(username="carol", password=CAROL_PASSWORD)  # a real password, but not staff

    body = assert_error(
        api_client.post(TOKEN, {"username": username, "password": password}), 400, "invalid_credentials"
    )

    assert body == {"code": "invalid_credentials", "detail": "Unknown user, wrong password, or not a staff account."}
    assert AuthToken.objects.filter(user__username=username).count() == (1 if username == "boss" else 0)


def test_a_player_cannot_get_a_token_by_password(api_client, make_player) -> None:
    make_player("alice")
    assert_error(api_client.post(TOKEN, {"username": "alice", "password": "anything"}), 400, "invalid_credentials")


def test_token_request_without_password_is_400_invalid(api_client) -> None:
    body = assert_error(api_client.post(TOKEN, {"username": "boss"}), 400, "invalid")
    assert body["errors"] == {"password": ["This field is required."]}


# --- logout ---


def test_logout_revokes_only_the_token_it_was_sent_with(api_client, auth_client, make_staff) -> None:
    make_staff("boss", password=BOSS_PASSWORD)
    first = api_client.post(TOKEN, {"username": "boss", "password": BOSS_PASSWORD}).json()["token"]
    second = api_client.post(TOKEN, {"username": "boss", "password": BOSS_PASSWORD}).json()["token"]

    response = auth_client(first).post(LOGOUT)

    assert response.status_code == 204
    assert_error(auth_client(first).get(ME), 401, "authentication_failed")
    assert auth_client(second).get(ME).status_code == 200


def test_logout_without_a_token_is_401(api_client, make_staff) -> None:
    staff, _ = make_staff()
    api_client.force_login(staff)  # a session is not a token: nothing to revoke
    assert_error(api_client.post(LOGOUT), 401, "not_authenticated")
