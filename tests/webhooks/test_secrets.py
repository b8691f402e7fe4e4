"""Webhook signing secrets encrypted at rest (README, "Webhooks", "Signing secrets"; issue #22).

Given a registered webhook, the database holds no clear secret, yet deliveries are signed with it; keys rotate:
encrypted with the first of ``WEBHOOK_SECRET_KEYS``, opened with any of them, re-encrypted by
``manage.py rotate_webhook_secrets``; and the migration encrypts the secrets stored in clear before it.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from palace_api.errors import ApplicationError
from webhooks.models import Endpoint
from webhooks.services.delivery import message_deliver
from webhooks.services.endpoints import endpoint_create, endpoint_ping
from webhooks.services.secret_box import SECRET_UNREADABLE, seal, unseal

OLD_KEY = "old-key-0123456789-abcdefghijklmnopqrstuvwxyz"
NEW_KEY = "new-key-9876543210-zyxwvutsrqponmlkjihgfedcba"


def stored_row(endpoint_id: int) -> tuple:
    """Every column of the endpoint's row, as the database holds it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM webhooks_endpoint WHERE id = %s", [endpoint_id])
        return cursor.fetchone()


@pytest.mark.django_db
def test_the_database_holds_no_clear_secret(make_player, auth_client):
    user, token = make_player("alice")
    response = auth_client(token).post(
        "/api/v1/me/webhooks/", {"url": "http://93.184.216.34/", "events": ["turn.due"]}, format="json"
    )
    assert response.status_code == 201
    secret = response.json()["secret"]
    row = stored_row(response.json()["id"])
    text = " ".join(str(value) for value in row)
    assert secret not in text and secret.removeprefix("whsec_") not in text and "whsec_" not in text
    assert unseal(Endpoint.objects.get().sealed_secret) == secret


@pytest.mark.django_db
def test_a_secret_sealed_twice_reads_differently_and_opens_alike():
    first, second = seal("whsec_c2VjcmV0"), seal("whsec_c2VjcmV0")
    assert first != second
    assert unseal(first) == unseal(second) == "whsec_c2VjcmV0"


@pytest.mark.django_db
def test_rotation_encrypts_with_the_first_key_and_opens_with_any(make_player, settings):
    """Given secrets sealed with the old key, when the new key is put first, then they still open; after
    ``rotate_webhook_secrets`` they open with the new key alone, and no longer with the old one alone."""
    user, _ = make_player("alice")
    settings.WEBHOOK_SECRET_KEYS = [OLD_KEY]
    endpoint, secret = endpoint_create(user=user, url="http://93.184.216.34/", events=["turn.due"])
    sealed_before = Endpoint.objects.get().sealed_secret

    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY, OLD_KEY]
    assert unseal(sealed_before) == secret
    out = StringIO()
    call_command("rotate_webhook_secrets", stdout=out)
    assert "1 webhook secrets" in out.getvalue()
    sealed_after = Endpoint.objects.get().sealed_secret
    assert sealed_after != sealed_before

    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY]
    assert unseal(sealed_after) == secret
    with pytest.raises(ApplicationError) as unreadable:
        unseal(sealed_before)
    assert unreadable.value.code == SECRET_UNREADABLE


@pytest.mark.django_db
def test_rotating_without_the_old_key_changes_nothing(make_player, settings):
    user, _ = make_player("alice")
    settings.WEBHOOK_SECRET_KEYS = [OLD_KEY]
    endpoint_create(user=user, url="http://93.184.216.34/", events=["turn.due"])
    sealed = Endpoint.objects.get().sealed_secret
    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY]
    with pytest.raises(CommandError, match=SECRET_UNREADABLE):
        call_command("rotate_webhook_secrets", stdout=StringIO())
    assert Endpoint.objects.get().sealed_secret == sealed


@pytest.mark.django_db
def test_without_keys_they_derive_from_secret_key_and_its_fallbacks(make_player, settings):
    settings.WEBHOOK_SECRET_KEYS = []
    sealed = seal("whsec_c2VjcmV0")
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = NEW_KEY
    assert unseal(sealed) == "whsec_c2VjcmV0"
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(ApplicationError):
        unseal(sealed)


@pytest.mark.django_db
def test_a_secret_no_key_opens_fails_the_attempt_without_a_request(make_player, settings, allow_loopback):
    user, _ = make_player("alice")
    settings.WEBHOOK_SECRET_KEYS = [OLD_KEY]
    endpoint, _ = endpoint_create(user=user, url="http://127.0.0.1:9/hook", events=["turn.due"])
    settings.WEBHOOK_SECRET_KEYS = [NEW_KEY]
    message = endpoint_ping(user=user, endpoint_id=endpoint.pk)
    assert message_deliver(message_id=message.pk) is False
    (attempt,) = endpoint.attempts.all()
    assert attempt.error.startswith(SECRET_UNREADABLE) and attempt.status_code is None


@pytest.mark.django_db(transaction=True)
def test_the_migration_encrypts_the_secrets_stored_in_clear_and_carries_the_delivery_state(make_player):
    """Given the tables as webhooks 0001 made them, a clear secret and messages in the old states, when the
    migrations run, then the secret is sealed (and opens to the same text), ``succeeded`` reads ``sent`` and a
    queued message keeps a task until the sweeper's old grace; migrating back restores the clear secret."""
    user, _ = make_player("alice")
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("webhooks")
    executor.migrate([("webhooks", "0001_initial")])
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO webhooks_endpoint (user_id, url, events, secret, created, disabled_reason)"
                " VALUES (%s, 'http://93.184.216.34/', '[\"turn.due\"]', 'whsec_b2xkIHNlY3JldA==', %s, '')",
                [user.pk, "2026-01-01 00:00:00"],
            )
            cursor.execute("SELECT id FROM webhooks_endpoint")
            (endpoint_id,) = cursor.fetchone()
            for msg_id, state, queued in (("msg_a", "succeeded", False), ("msg_b", "pending", True)):
                cursor.execute(
                    "INSERT INTO webhooks_message (endpoint_id, msg_id, event_type, body, created, state, attempts,"
                    " next_attempt_at, queued) VALUES (%s, %s, 'turn.due', '{}', %s, %s, 0, %s, %s)",
                    [endpoint_id, msg_id, "2026-01-01 00:00:00", state, "2026-01-01 00:00:00", queued],
                )
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
        endpoint = Endpoint.objects.get()
        assert "whsec_" not in endpoint.sealed_secret
        assert unseal(endpoint.sealed_secret) == "whsec_b2xkIHNlY3JldA=="
        messages = {row.msg_id: row for row in endpoint.messages.all()}
        assert messages["msg_a"].status == "sent" and messages["msg_a"].queued_until is None
        assert messages["msg_b"].status == "pending"
        assert (messages["msg_b"].queued_until - messages["msg_b"].next_attempt_at).total_seconds() == 60

        MigrationExecutor(connection).migrate([("webhooks", "0001_initial")])
        with connection.cursor() as cursor:
            cursor.execute("SELECT secret FROM webhooks_endpoint")
            assert cursor.fetchone() == ("whsec_b2xkIHNlY3JldA==",)
    finally:
        MigrationExecutor(connection).migrate(latest)
