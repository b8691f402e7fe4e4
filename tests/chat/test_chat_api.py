"""Table chat over the API (issue 26, "Table chat"; README "Chat"): the two rooms' rights, the length and rate
limits, Unicode kept, muting, and the chat kept out of the game's log and replay."""

from __future__ import annotations

import unicodedata

import pytest

from chat.selectors import chat_for_export
from games.services.lifecycle import game_resign
from tests.games.api.helpers import assert_error


def _say(client, game_id, text, room="players"):
    return client.post(f"/api/v1/games/{game_id}/chat/", {"room": room, "text": text}, format="json")


def _read(client, game_id, room="players", after=0):
    return client.get(f"/api/v1/games/{game_id}/chat/", {"room": room, "after": after})


def test_players_talk_in_their_room_and_read_it_paged_since_an_id(table, client_of):
    alice, bob = client_of("alice"), client_of("bob")
    first = _say(alice, table.game.pk, "good luck")
    assert first.status_code == 201, first.content
    assert first.json()["author"]["name"] == "alice" and first.json()["room"] == "players"
    second = _say(bob, table.game.pk, "you too")
    assert second.status_code == 201
    page = _read(alice, table.game.pk).json()
    assert [m["text"] for m in page["results"]] == ["good luck", "you too"] and page["more"] is False
    after = _read(bob, table.game.pk, after=first.json()["id"]).json()
    assert [m["text"] for m in after["results"]] == ["you too"]


def test_during_play_a_spectator_cannot_write_to_nor_read_the_players_room(table, client_of):
    carol = client_of("carol")
    assert_error(_say(carol, table.game.pk, "fold!"), 403, "chat_forbidden")
    assert_error(_read(carol, table.game.pk), 403, "chat_forbidden")


def test_during_play_players_neither_read_nor_write_the_spectators_room(table, client_of):
    carol, alice = client_of("carol"), client_of("alice")
    assert _say(carol, table.game.pk, "alice holds aces", room="spectators").status_code == 201
    assert_error(_read(alice, table.game.pk, room="spectators"), 403, "chat_forbidden")
    assert_error(_say(alice, table.game.pk, "hi", room="spectators"), 403, "chat_forbidden")


def test_after_the_end_everyone_reads_both_rooms_and_only_players_write_theirs(table, client_of):
    _say(client_of("alice"), table.game.pk, "gg")
    game_resign(user=table.bob, game_id=table.game.pk)
    assert table.refresh().status == "finished"
    carol = client_of("carol")
    assert [m["text"] for m in _read(carol, table.game.pk).json()["results"]] == ["gg"]
    assert_error(_say(carol, table.game.pk, "well played"), 403, "chat_forbidden")
    assert _say(client_of("bob"), table.game.pk, "gg", room="spectators").status_code == 201


def test_a_message_of_500_characters_passes_and_501_is_refused_with_a_code(table, client_of):
    alice = client_of("alice")
    assert _say(alice, table.game.pk, "x" * 500).status_code == 201
    body = assert_error(_say(alice, table.game.pk, "x" * 501), 400, "message_too_long")
    assert body["limit"] == 500
    assert_error(_say(alice, table.game.pk, "   "), 400, "message_empty")
    assert_error(_say(alice, table.game.pk, "hi", room="kitchen"), 400, "invalid")
    assert_error(_say(alice, table.game.pk, "a\x00b"), 400, "invalid")  # no control characters


def test_unicode_is_kept_in_nfc_and_counted_after_normalisation(table, client_of):
    decomposed = "e\u0301" * 300  # 600 code points, 300 once composed
    response = _say(client_of("alice"), table.game.pk, decomposed + " 🂡 Ünïcödé")
    assert response.status_code == 201, response.content
    text = response.json()["text"]
    assert text == unicodedata.normalize("NFC", decomposed + " 🂡 Ünïcödé") and text.startswith("\u00e9")


def test_the_rate_limit_answers_429_throttled_with_retry_after(table, client_of, settings):
    settings.CHAT_RATE_COUNT, settings.CHAT_RATE_SECONDS = 3, 60
    alice, bob = client_of("alice"), client_of("bob")
    for n in range(3):
        assert _say(alice, table.game.pk, f"spam {n}").status_code == 201
    response = _say(alice, table.game.pk, "one more")
    assert_error(response, 429, "throttled")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert _say(bob, table.game.pk, "my own allowance").status_code == 201  # per player


def test_a_muted_players_messages_are_hidden_from_whoever_muted_him_only(table, client_of):
    alice, bob = client_of("alice"), client_of("bob")
    _say(bob, table.game.pk, "blah")
    assert alice.put(f"/api/v1/me/mutes/{table.bob.pk}/").status_code == 204
    assert alice.put(f"/api/v1/me/mutes/{table.bob.pk}/").status_code == 204  # twice is once
    assert _read(alice, table.game.pk).json()["results"] == []
    assert [m["text"] for m in _read(bob, table.game.pk).json()["results"]] == ["blah"]
    assert alice.get("/api/v1/me/mutes/").json()["results"] == [{"id": table.bob.pk, "name": "bob"}]
    assert_error(alice.put(f"/api/v1/me/mutes/{table.alice.pk}/"), 409, "cannot_mute_self")
    assert_error(alice.put("/api/v1/me/mutes/999999/"), 404, "player_not_found")
    assert alice.delete(f"/api/v1/me/mutes/{table.bob.pk}/").status_code == 204
    assert [m["text"] for m in _read(alice, table.game.pk).json()["results"]] == ["blah"]


def test_chat_never_enters_the_log_nor_changes_the_version_or_the_replay(table, client_of):
    alice = client_of("alice")
    before = alice.get(f"/api/v1/games/{table.game.pk}/").json()
    events_before = alice.get(f"/api/v1/games/{table.game.pk}/events/").json()
    for text in ("one", "two", "<b>three</b>"):
        assert _say(alice, table.game.pk, text).status_code == 201
    after = alice.get(f"/api/v1/games/{table.game.pk}/").json()
    assert after["version"] == before["version"] and after["state"] == before["state"]
    assert alice.get(f"/api/v1/games/{table.game.pk}/events/").json() == events_before
    assert table.game.events.filter(payload__icontains="three").count() == 0


def test_chat_for_export_gives_both_rooms_to_the_players_only(table, client_of, make_player):
    _say(client_of("alice"), table.game.pk, "hello")
    _say(client_of("carol"), table.game.pk, "watching", room="spectators")
    table.game.refresh_from_db()
    assert [m["text"] for m in chat_for_export(table.game, table.alice)] == ["hello", "watching"]
    assert chat_for_export(table.game, table.carol) == []


@pytest.mark.parametrize("room", ["players", "spectators"])
def test_an_unknown_game_is_game_not_found(table, client_of, room):
    assert_error(_say(client_of("alice"), 999999, "hi", room=room), 404, "game_not_found")
    assert_error(_read(client_of("alice"), 999999, room=room), 404, "game_not_found")
