"""Turn mails, digests and finished-game mails, made by the sweeper and sent through Django's locmem backend."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.core import mail as outbox
from django.test import Client
from django.utils import timezone

from games.engine.bots import get_bot
from games.models import Game, GameStatus
from games.selectors.state import engine_of, game_state
from games.services import action_submit
from games.services.lifecycle import game_resign
from notifications.models import Mail, MailKind
from notifications.services import email_set, finished_mails_make, mail_deliver, preferences_update, turn_mails_make
from outbox.models import DeliveryStatus
from tests.notifications.conftest import after_grace, deliver_pending
from webhooks.models import Endpoint
from webhooks.services.secret_box import seal

pytestmark = pytest.mark.django_db


def turn_mails() -> list:
    return [message for message in outbox.outbox if "Your move" in message.subject]


def play_until_seat_acts(game: Game, users: dict, seat: int) -> None:
    """Each seat to act decides as the basic bot would, until ``seat`` has acted once and is to act again."""
    rng = random.Random(7)
    acted = False
    for _ in range(50):
        game = Game.objects.get(pk=game.pk)
        state = game_state(game)
        engine = engine_of(game)
        due = list(engine.due_to_act(state))
        if acted and due == [seat]:
            return
        choice = get_bot(game.kind, "basic").choose(engine.view(state, due[0]), rng)
        fields = {key: choice[key] for key in ("type", "cards", "target", "amount") if key in choice}
        action_submit(user=users[due[0]], game_id=game.pk, **fields)
        acted = acted or due[0] == seat
    raise AssertionError("the seat was not to act again")


def test_a_decision_unanswered_past_the_grace_delay_sends_exactly_one_mail(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    address = confirmed(alice)
    game = heads_up(alice, bob, turn_timeout=3600)

    assert turn_mails_make(now=timezone.now()) == 0, "within the grace delay nobody is mailed"
    assert turn_mails_make(now=after_grace()) == 1
    assert turn_mails_make(now=after_grace(60)) == 0, "one mail per game until he acts"
    assert deliver_pending() == 1

    (message,) = outbox.outbox
    assert message.to == [address]
    assert message.subject == f"Your move in game #{game.pk} (Palace Poker)"
    assert f"http://127.0.0.1:8000/games/{game.pk}/" in message.body
    assert "with bob" in message.body
    assert "seat 0" in message.body
    # The deadline in words and in UTC.
    deadline = Game.objects.get(pk=game.pk).deadline
    assert f"({deadline:%Y-%m-%d %H:%M} UTC)" in message.body
    # The sweep ran two minutes "later" (after_grace), so 57 or 58 minutes were left.
    assert re.search(r"Deadline: in 5[78]\xa0minutes \(", message.body), message.body
    row = Mail.objects.get(kind=MailKind.TURN)
    assert row.status == DeliveryStatus.SENT and row.sent_at is not None and row.attempts == 1
    assert list(row.game_rows.values_list("game_id", "seat")) == [(game.pk, 0)]
    assert mail_deliver(mail_id=row.pk) is False, "a second task for the same mail sends nothing"
    assert len(outbox.outbox) == 1


def test_the_mail_has_both_parts_the_unsubscribe_headers_and_no_card(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    game = heads_up(alice, bob)
    turn_mails_make(now=after_grace())
    deliver_pending()

    (message,) = outbox.outbox
    headers = message.message()
    unsubscribe = headers["List-Unsubscribe"]
    assert unsubscribe.startswith("<http://127.0.0.1:8000/email/unsubscribe/") and unsubscribe.endswith("/>")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert headers["Auto-Submitted"] == "auto-generated"
    ((html, mimetype),) = message.alternatives
    assert mimetype == "text/html"
    assert f'href="http://127.0.0.1:8000/games/{game.pk}/"' in html
    assert unsubscribe[1:-1] in html and unsubscribe[1:-1] in message.body
    assert "Deadline: no deadline" in message.body
    # No card of anyone's hand: the text names none of the 52 codes (e.g. "AS", "TD") as a word.
    state = game_state(Game.objects.get(pk=game.pk))
    hands = {card for seat_cards in engine_of(game).view(state, "staff")["seats"] for card in _cards(seat_cards)}
    assert hands, "the view lists cards, so the check below can fail"
    words = set(message.body.replace(",", " ").replace(".", " ").split())
    assert not hands & words


def _cards(seat: dict) -> list[str]:
    found: list[str] = []
    for value in seat.values():
        if isinstance(value, list):
            found += [item for item in value if isinstance(item, str) and len(item) == 2]
    return found


def test_no_mail_when_the_person_acts_within_the_grace_delay(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    game = heads_up(alice, bob)
    action_submit(user=alice, game_id=game.pk, type="stay")
    assert turn_mails_make(now=after_grace()) == 0
    assert deliver_pending() == 0
    assert outbox.outbox == []


def test_no_mail_to_an_unconfirmed_address(make_player, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    email_set(user=alice, address="alice@example.com")
    heads_up(alice, bob)
    assert turn_mails_make(now=after_grace()) == 0
    deliver_pending()
    assert [message.subject for message in outbox.outbox] == ["Confirm your email address for Palace"]


def test_no_mail_after_unsubscribing_through_the_link_of_a_mail(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    carol, _ = make_player("carol")
    confirmed(alice)
    heads_up(alice, bob)
    turn_mails_make(now=after_grace())
    deliver_pending()
    (message,) = outbox.outbox
    link = message.message()["List-Unsubscribe"][1:-1].removeprefix("http://127.0.0.1:8000")

    # RFC 8058: the mail client POSTs this body, with no cookie and no CSRF token.
    response = Client(enforce_csrf_checks=True).post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert b"no more mails telling you it is your move" in response.content

    heads_up(alice, carol)
    assert turn_mails_make(now=after_grace()) == 0
    assert len(outbox.outbox) == 1


def test_a_pending_mail_is_not_sent_once_turn_mails_are_off(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    heads_up(alice, bob)
    assert turn_mails_make(now=after_grace()) == 1
    preferences_update(user=alice, turn=False)
    assert deliver_pending() == 0
    assert outbox.outbox == []
    assert Mail.objects.get(kind=MailKind.TURN).status == DeliveryStatus.CANCELLED


def test_a_turn_mail_not_yet_sent_when_he_acts_is_cancelled(make_player, confirmed, heads_up):
    """The mail server was down while he came back and played: he is not told afterwards that it is his move."""
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    game = heads_up(alice, bob)
    assert turn_mails_make(now=after_grace()) == 1
    action_submit(user=alice, game_id=game.pk, type="stay")
    assert deliver_pending() == 0
    assert outbox.outbox == []
    row = Mail.objects.get(kind=MailKind.TURN)
    assert row.status == DeliveryStatus.CANCELLED and "waits" in row.error


def test_three_waiting_games_come_in_one_digest(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    confirmed(alice)
    games = [heads_up(alice, make_player(name)[0]) for name in ("bob", "carol", "dave")]
    assert turn_mails_make(now=after_grace()) == 1
    deliver_pending()
    (message,) = outbox.outbox
    assert message.subject == "Your move in 3 games"
    for game in games:
        assert f"/games/{game.pk}/" in message.body
        assert f"/games/{game.pk}/" in message.alternatives[0][0]
    digest = Mail.objects.exclude(kind=MailKind.CONFIRM).get()
    assert digest.kind == MailKind.DIGEST
    assert sorted(digest.game_rows.values_list("game_id", flat=True)) == sorted(game.pk for game in games)
    assert turn_mails_make(now=after_grace(60)) == 0


def test_a_new_mail_after_the_person_acted_and_it_is_his_move_again(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    game = heads_up(alice, bob)
    assert turn_mails_make(now=after_grace()) == 1
    play_until_seat_acts(game, {0: alice, 1: bob}, seat=0)
    assert turn_mails_make(now=after_grace()) == 1
    assert Mail.objects.filter(kind=MailKind.TURN).count() == 2


def test_a_decision_due_again_after_a_timeout_is_mailed_anew(make_player, confirmed, heads_up):
    """README, "Whose decision is due": a timeout's default action is the seat's decision, so the decision due
    from him after it is a new one, mailed as the stream and webhooks announce it (with its new deadline); the
    decision he was mailed about is not mailed twice."""
    from games.services.turns import timeout_apply

    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    game = heads_up(alice, bob, turn_timeout=3600)
    assert turn_mails_make(now=after_grace()) == 1
    assert turn_mails_make(now=after_grace()) == 0
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeout_apply(game_id=game.pk) is True
    play_until_seat_acts_without(game, {1: bob}, waiting=0)
    assert turn_mails_make(now=after_grace()) == 1
    assert Mail.objects.filter(kind=MailKind.TURN).count() == 2


def play_until_seat_acts_without(game: Game, users: dict, *, waiting: int) -> None:
    """The other seats act as the basic bot would until the decision is ``waiting``'s again."""
    rng = random.Random(3)
    for _ in range(50):
        game = Game.objects.get(pk=game.pk)
        state = game_state(game)
        engine = engine_of(game)
        due = list(engine.due_to_act(state))
        if due == [waiting]:
            return
        choice = get_bot(game.kind, "basic").choose(engine.view(state, due[0]), rng)
        fields = {key: choice[key] for key in ("type", "cards", "target", "amount") if key in choice}
        action_submit(user=users[due[0]], game_id=game.pk, **fields)
    raise AssertionError("the seat was not to act again")


def webhook(user, events: list[str]) -> Endpoint:
    """An enabled webhook of ``user`` for ``events`` (stored directly: no delivery is made in these tests)."""
    url = "https://example.com/hook"
    return Endpoint.objects.create(user=user, url=url, events=events, sealed_secret=seal("whsec_test"))


def test_no_mail_when_his_own_program_hears_turn_due_by_webhook(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    endpoint = webhook(alice, ["turn.due"])
    heads_up(alice, bob)
    assert turn_mails_make(now=after_grace()) == 0
    # A disabled webhook tells nobody: the mail goes out.
    Endpoint.objects.filter(pk=endpoint.pk).update(disabled_at=timezone.now())
    assert turn_mails_make(now=after_grace()) == 1


def test_a_webhook_for_other_events_does_not_stop_turn_mails(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    webhook(alice, ["game.finished"])
    heads_up(alice, bob)
    assert turn_mails_make(now=after_grace()) == 1


def test_a_finished_game_is_mailed_once_to_those_who_want_it(make_player, confirmed, heads_up):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    confirmed(bob)
    preferences_update(user=bob, finished=False)
    game = heads_up(alice, bob)
    assert finished_mails_make() == 0
    game_resign(user=bob, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert finished_mails_make() == 1
    assert finished_mails_make() == 0
    deliver_pending()
    (message,) = outbox.outbox
    assert message.to == ["alice@example.com"]
    assert message.subject == f"Game #{game.pk} (Palace Poker) has finished"
    assert message.message()["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # How it ended, in Palace Poker's own words (games.engine.poker.phrases): bob resigned, alice won.
    assert "The match ends after one hand: alice wins with" in message.body, message.body
    ((html, _),) = message.alternatives
    assert "The match ends after one hand: alice wins with" in html


def test_an_smtp_failure_is_retried_later_and_never_touches_the_game(make_player, confirmed, heads_up, settings):
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    confirmed(alice)
    game = heads_up(alice, bob)
    version = Game.objects.get(pk=game.pk).version
    turn_mails_make(now=after_grace())
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", _closed_port(), 2
    row = Mail.objects.get(kind=MailKind.TURN)
    assert mail_deliver(mail_id=row.pk) is False
    row.refresh_from_db()
    assert row.status == DeliveryStatus.PENDING and row.attempts == 1
    assert "ConnectionRefusedError" in row.error
    assert row.next_attempt_at > timezone.now() + timedelta(seconds=50)
    assert mail_deliver(mail_id=row.pk) is False, "not due before its retry delay"
    for attempt in range(2, 6):
        assert mail_deliver(mail_id=row.pk, now=row.next_attempt_at + timedelta(seconds=1)) is False
        row.refresh_from_db()
        assert row.attempts == attempt
    assert row.status == DeliveryStatus.FAILED and row.next_attempt_at is None
    attempts = list(row.attempt_rows.order_by("number").values_list("number", "succeeded"))
    assert attempts == [(number, False) for number in range(1, 6)], "every attempt is recorded"
    assert all("ConnectionRefusedError" in error for error in row.attempt_rows.values_list("error", flat=True))
    assert Game.objects.get(pk=game.pk).version == version
    action_submit(user=alice, game_id=game.pk, type="stay")


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
