"""The only writers of players and their tokens.

Tokens are knox tokens: the clear token is returned once, and only its digest (with a 15-character lookup
prefix) is stored. Player tokens never expire; staff tokens expire after REST_KNOX["TOKEN_TTL"].
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import User, update_last_login
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from knox.models import AbstractAuthToken, get_token_model
from knox.settings import knox_settings

from palace_api.errors import ApplicationError, ConflictError, ErrorCode, NotFoundError
from players.models import NAME_MAX_LENGTH, Player, StreamGrant

NAME_PATTERN = re.compile(rf"[A-Za-z0-9_.-]{{1,{NAME_MAX_LENGTH}}}")


def player_name_validate(name: str) -> None:
    """A name is 1..32 ASCII letters, digits, ``_``, ``-`` or ``.``: no spaces, no look-alike letters."""
    if not NAME_PATTERN.fullmatch(name):
        raise ApplicationError(
            ErrorCode.INVALID_NAME,
            f"A name is 1 to {NAME_MAX_LENGTH} characters: letters A-Z a-z, digits, '_', '-' or '.'.",
        )


def _name_taken(name: str) -> ConflictError:
    return ConflictError(ErrorCode.NAME_TAKEN, f"The name {name!r} is taken.")


def _player_create(name: str, password: str | None) -> User:
    """A new human player: a user (with ``password``, or an unusable one) and its Player profile."""
    player_name_validate(name)
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=name).exists():
        raise _name_taken(name)
    try:
        # A savepoint: a concurrent registration of the same name fails here on a unique index.
        with transaction.atomic():
            user = user_model.objects.create_user(username=name, password=password)
            Player.objects.create(user=user, name=name, kind=Player.Kind.HUMAN)
    except IntegrityError as exc:
        raise _name_taken(name) from exc
    return user


@transaction.atomic
def player_register(*, name: str) -> tuple[User, str]:
    """A new human player named ``name``, and the clear text of its token (shown this once only).

    The user gets an unusable password: the token is the player's only credential. Names are unique
    regardless of case, among all users, staff included.
    """
    user = _player_create(name, None)
    _, token = get_token_model().objects.create(user=user, expiry=None)
    return user, token


@transaction.atomic
def player_signup(*, name: str, password: str) -> User:
    """A new human player who logs in to the web pages with ``name`` and ``password``; no token yet (he makes
    them on his tokens page). Raises ``ApplicationError`` (``invalid_name``, ``invalid_password`` with
    Django's password validators' words) and ``ConflictError("name_taken")``."""
    player_name_validate(name)
    try:
        validate_password(password, user=get_user_model()(username=name))
    except ValidationError as exc:
        raise ApplicationError(ErrorCode.INVALID_PASSWORD, " ".join(exc.messages)) from exc
    return _player_create(name, password)


@transaction.atomic
def token_create(*, user: User) -> tuple[AbstractAuthToken, str]:
    """A new token of ``user`` that never expires, and its clear text (shown this once only)."""
    return get_token_model().objects.create(user=user, expiry=None)


@transaction.atomic
def token_revoke_by_key(*, user: User, token_key: str) -> None:
    """Revoke ``user``'s token whose lookup prefix is ``token_key``; another user's or an unknown key is
    ``NotFoundError("token_not_found")`` alike."""
    deleted, _ = get_token_model().objects.filter(user=user, token_key=token_key).delete()
    if not deleted:
        raise NotFoundError(ErrorCode.TOKEN_NOT_FOUND, "no such token")


@transaction.atomic
def staff_token_create(*, username: str, password: str) -> tuple[AbstractAuthToken, str]:
    """A token for a staff user who gives the right password, expiring after REST_KNOX["TOKEN_TTL"].

    A wrong password, an unknown or inactive user, and a user who is not staff all get the same refusal,
    so the answer tells nothing about which accounts exist.
    """
    user = authenticate(username=username, password=password)
    if user is None or not user.is_staff:
        raise ApplicationError(ErrorCode.INVALID_CREDENTIALS, "Unknown user, wrong password, or not a staff account.")
    instance, token = get_token_model().objects.create(user=user, expiry=knox_settings.TOKEN_TTL)
    update_last_login(None, user)
    return instance, token


@transaction.atomic
def token_revoke(*, token: AbstractAuthToken) -> None:
    """Delete one token: requests bearing it fail from now on."""
    token.delete()


@transaction.atomic
def staff_ensure(*, username: str, password: str) -> User | None:
    """Create a superuser ``username`` with ``password`` unless a staff user exists; returns it, or ``None``."""
    model = get_user_model()
    if model.objects.filter(is_staff=True).exists():
        return None
    return model.objects.create_superuser(username=username, password=password)


@transaction.atomic
def stream_grant_create(*, user: User, session_key: str, lifetime: int) -> StreamGrant:
    """Record that ``user``'s logged-in session ``session_key`` asked for a stream token living ``lifetime``
    seconds (``players.auth.stream_token_for``), and delete the records of tokens that have died since."""
    StreamGrant.objects.filter(created__lt=timezone.now() - timedelta(seconds=lifetime)).delete()
    return StreamGrant.objects.create(user=user, session_key=session_key)


def news_wanted_lock(*, user: User) -> None:
    """Lock ``user``'s Player row until the caller's transaction ends (nothing for a user without one), so
    that writers of ``Player.news_wanted`` take turns: the caller then reads what it derives the flag from in
    a statement of its own, which sees every such writer that committed before it."""
    list(Player.objects.select_for_update().filter(user=user).values_list("pk"))


def news_wanted_set(*, user: User, wanted: bool) -> bool:
    """Record whether ``user`` wants the news of the games it sits at (``Player.news_wanted``): ``True`` while
    the player has a webhook endpoint. Call ``news_wanted_lock`` first in the same transaction. Returns whether
    the flag changed (``False`` too for a user without a Player)."""
    return bool(Player.objects.filter(user=user).exclude(news_wanted=wanted).update(news_wanted=wanted))
