"""``games/{id}/stream/`` against a live ASGI server: a whole hand read across a reconnection, on both fan-outs
(polling the database, the embedded default; Redis pub/sub), errors, heartbeats and stream tokens."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
from django.core import signing

from tests.system.streams.live import LiveServer, Sse, act_if_due, read_sse


class PastSigner(signing.TimestampSigner):
    """Signs as if it were two minutes ago."""

    def timestamp(self) -> str:
        return signing.b62_encode(int(time.time()) - 120)


def _cards(value: Any) -> Iterator[Any]:
    """Every card slot in an entry: the items of each ``cards`` list, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "cards" and isinstance(item, list):
                yield from item
            elif key == "cards" and isinstance(item, dict):  # the log's flat groups: {"<group>": [codes]}
                for group in item.values():
                    yield from group
            else:
                yield from _cards(item)
    elif isinstance(value, list):
        for item in value:
            yield from _cards(item)


def test_a_stream_reads_a_whole_hand_across_a_reconnection_and_ends_with_the_viewers_log(server):
    _read_a_whole_hand_across_a_reconnection(server)


def test_streams_fan_out_through_redis_pub_sub(redis_server):
    _read_a_whole_hand_across_a_reconnection(redis_server)


def _read_a_whole_hand_across_a_reconnection(server: LiveServer) -> None:
    alice, bob = server.player("alice"), server.player("bob")
    game = alice.post("games/", json={"kind": "palace-poker", "seats": 2, "options": {"max_hands": 1}}).json()
    url = f"games/{game['id']}/stream/"
    received: list[Sse] = []
    disconnected, moved_while_away, reconnected = threading.Event(), threading.Event(), threading.Event()
    failures: list[str] = []

    def read() -> None:
        try:
            with alice.stream("GET", url, headers={"Accept": "text/event-stream"}, timeout=30) as response:
                assert response.status_code == 200 and response.headers["content-type"] == "text/event-stream"
                for item in read_sse(response):
                    if item.comment is None:
                        received.append(item)
                    if len(received) == 5:  # both seats and the deal's shuffles: mid-hand
                        break
            disconnected.set()
            assert moved_while_away.wait(30)
            resume = {"Last-Event-ID": received[-1].id or ""}
            with alice.stream("GET", url, headers=resume, timeout=30) as response:
                assert response.status_code == 200
                reconnected.set()
                # The server ends the stream once the finished game's log is all sent.
                received.extend(item for item in read_sse(response) if item.comment is None)
        except BaseException as error:  # reported by the main thread
            failures.append(repr(error))
            disconnected.set()
            reconnected.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    for client in (alice, bob):
        assert client.post(f"games/{game['id']}/seats/", json={}).status_code == 201
    assert disconnected.wait(30), "the first connection saw no deal"
    deadline = time.monotonic() + 60
    while not (act_if_due(alice, game["id"]) or act_if_due(bob, game["id"])):
        assert time.monotonic() < deadline
    moved_while_away.set()
    assert reconnected.wait(30)
    while alice.get(f"games/{game['id']}/").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the hand did not end"
        act_if_due(alice, game["id"]) or act_if_due(bob, game["id"])
    reader.join(30)
    assert not reader.is_alive(), "the stream did not end with the game"
    assert not failures, failures

    log = alice.get(f"games/{game['id']}/events/", params={"limit": 500}).json()
    assert [int(item.id or 0) for item in received] == list(range(1, log["version"] + 1)), "lost or repeated"
    assert [item.event for item in received] == [entry["kind"] for entry in log["results"]]
    assert [item.data for item in received] == log["results"]
    # Redacted: Bob's cards are hidden from Alice (so the comparison above compared redacted logs) ...
    assert None in list(_cards([item.data for item in received]))
    # ... and what Alice's stream hides is what Bob's own log shows.
    bobs = bob.get(f"games/{game['id']}/events/", params={"limit": 500}).json()["results"]
    assert bobs != log["results"]
    # A client that has it all is told to stop reconnecting.
    done = alice.get(url, headers={"Last-Event-ID": str(log["version"])})
    assert done.status_code == 204


def test_an_idle_stream_sends_heartbeats_and_a_later_move(server):
    alice = server.player("carol")
    game = alice.post("games/", json={"kind": "palace-poker", "seats": 2}).json()
    comments = 0
    with alice.stream("GET", f"games/{game['id']}/stream/", timeout=10) as response:
        started = time.monotonic()
        for item in read_sse(response):
            if item.comment == "heartbeat":
                comments += 1
                if comments == 2:
                    assert alice.post(f"games/{game['id']}/seats/", json={}).status_code == 201
            elif item.event == "seat_taken":
                assert item.id == "1" and comments >= 2
                break
            assert time.monotonic() - started < 10
    assert 2.0 <= time.monotonic() - started < 8


def test_stream_errors_answer_json_with_a_code(server):
    alice = server.player("dave")
    game = alice.post("games/", json={"kind": "palace-poker", "seats": 2}).json()
    accept = {"Accept": "text/event-stream"}
    cases = [
        (httpx.get(server.base + f"games/{game['id']}/stream/", headers=accept), 401, "not_authenticated"),
        (alice.get("games/999999/stream/", headers=accept), 404, "game_not_found"),
        (alice.get(f"games/{game['id']}/stream/", headers={**accept, "Last-Event-ID": "x"}), 400, "invalid"),
        (alice.get(f"games/{game['id']}/stream/", params={"after": "-1"}), 400, "invalid"),
        (alice.get(f"games/{game['id']}/stream/", params={"folow": "false"}), 400, "invalid"),
        (alice.get("me/stream/", params={"follow": "maybe"}), 400, "invalid"),
        (alice.post(f"games/{game['id']}/stream/"), 405, "method_not_allowed"),
        (httpx.get(server.base + "me/stream/", params={"token": "forged"}), 401, "authentication_failed"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.headers["content-type"] == "application/json"
        assert response.json()["code"] == code
    # An invalid request names what is wrong.
    assert set(cases[2][0].json()["errors"]) == {"Last-Event-ID"}
    assert set(cases[4][0].json()["errors"]) == {"folow"}


def test_a_stream_token_opens_streams_for_a_minute_and_dies_with_its_api_token(server):
    alice = server.player("erin")
    game = alice.post("games/", json={"kind": "palace-poker", "seats": 2}).json()
    issued = alice.post("me/stream-token/")
    assert issued.status_code == 201 and issued.json()["expires_in"] == 60
    token = issued.json()["token"]
    assert alice.post(f"games/{game['id']}/seats/", json={}).status_code == 201
    anonymous = httpx.Client(base_url=server.base, timeout=10)
    with anonymous.stream("GET", f"games/{game['id']}/stream/", params={"token": token}) as response:
        assert response.status_code == 200
        first = next(item for item in read_sse(response) if item.comment is None)
        assert first.event == "seat_taken" and first.id == "1" and first.data["actor"] == 0
    # The token opens streams only: not the rest of the API.
    assert anonymous.get(f"games/{game['id']}/", params={"token": token}).status_code == 401
    # Two minutes old: signed with the server's key at a time in the past.
    payload = signing.loads(token, key=server.env["SECRET_KEY"], salt="palace.stream-token")
    stale = PastSigner(key=server.env["SECRET_KEY"], salt="palace.stream-token").sign_object(payload, compress=True)
    answer = anonymous.get(f"games/{game['id']}/stream/", params={"token": stale})
    assert answer.status_code == 401 and "expired" in answer.json()["detail"]
    # Revoking the API token voids its stream tokens.
    fresh = alice.post("me/stream-token/").json()["token"]
    assert alice.post("auth/logout/").status_code == 204
    answer = anonymous.get(f"games/{game['id']}/stream/", params={"token": fresh})
    assert answer.status_code == 401 and answer.json()["code"] == "authentication_failed"


def test_streams_of_one_game_share_its_feed_yet_each_gets_its_own_viewers_log(server):
    _many_viewers_follow_one_game(server, "feed")


def test_a_stream_further_behind_than_the_feed_keeps_reads_its_own_pages(redis_server):
    # The Redis server's feeds keep 4 entries: the late stream starts 30-odd entries behind.
    _many_viewers_follow_one_game(redis_server, "pages")


def _many_viewers_follow_one_game(server: LiveServer, tag: str) -> None:
    """Two players' streams and two spectators' streams follow one match from its start, on one shared feed; a
    late spectator joins from the beginning once it is over. Each ends with exactly its own ``events/``."""
    alice, bob = server.player(f"{tag}-alice"), server.player(f"{tag}-bob")
    carol, dan, erin = server.player(f"{tag}-carol"), server.player(f"{tag}-dan"), server.player(f"{tag}-erin")
    game = alice.post("games/", json={"kind": "palace-poker", "seats": 2, "options": {"max_hands": 1}}).json()
    url = f"games/{game['id']}/stream/"
    followers = {"alice": alice, "bob": bob, "carol": carol, "dan": dan}
    received: dict[str, list[Sse]] = {name: [] for name in followers}
    opened = threading.Barrier(len(followers) + 1, timeout=30)
    failures: list[str] = []

    def read(name: str, client: httpx.Client) -> None:
        try:
            with client.stream("GET", url, timeout=60) as response:
                assert response.status_code == 200
                opened.wait()
                # The server ends each stream once the finished game's log is all sent.
                received[name].extend(item for item in read_sse(response) if item.comment is None)
        except BaseException as error:  # reported by the main thread
            failures.append(f"{name}: {error!r}")

    readers = [threading.Thread(target=read, args=item, daemon=True) for item in followers.items()]
    for reader in readers:
        reader.start()
    opened.wait()
    for client in (alice, bob):
        assert client.post(f"games/{game['id']}/seats/", json={}).status_code == 201
    deadline = time.monotonic() + 60
    while alice.get(f"games/{game['id']}/").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the hand did not end"
        act_if_due(alice, game["id"]) or act_if_due(bob, game["id"])
    for reader in readers:
        reader.join(30)
        assert not reader.is_alive(), "a stream did not end with the game"
    assert not failures, failures
    with erin.stream("GET", url, timeout=30) as response:
        late = [item for item in read_sse(response) if item.comment is None]

    logs = {}
    for name, client in {**followers, "erin": erin}.items():
        log = client.get(f"games/{game['id']}/events/", params={"limit": 500}).json()
        got = late if name == "erin" else received[name]
        assert [int(item.id or 0) for item in got] == list(range(1, log["version"] + 1)), f"{name}: lost or repeated"
        assert [item.data for item in got] == log["results"], name
        logs[name] = log["results"]
    # Each viewer's own redaction: the players' logs differ from each other and from the spectators', which agree.
    assert logs["alice"] != logs["bob"] and logs["alice"] != logs["carol"]
    assert logs["carol"] == logs["dan"] == logs["erin"]
    assert None in list(_cards(logs["carol"]))


def test_follow_false_sends_what_there_is_then_ends(server):
    alice, bob = server.player("follow-alice"), server.player("follow-bob")
    game = alice.post("games/", json={"kind": "palace-poker", "seats": 2}).json()
    for client in (alice, bob):
        assert client.post(f"games/{game['id']}/seats/", json={}).status_code == 201
    started = time.monotonic()
    answer = alice.get(f"games/{game['id']}/stream/", params={"follow": "false"}, timeout=10)
    assert answer.status_code == 200 and answer.headers["content-type"] == "text/event-stream"
    got = [item for item in read_sse(answer) if item.comment is None]
    log = alice.get(f"games/{game['id']}/events/").json()
    assert [item.data for item in got] == log["results"] and log["results"], "the whole log, then the end"
    # From a point on; the game is live, yet the answer ends at once.
    later = alice.get(f"games/{game['id']}/stream/", params={"follow": "false", "after": 2}, timeout=10)
    assert [int(item.id or 0) for item in read_sse(later) if item.comment is None] == list(range(3, log["version"] + 1))
    assert time.monotonic() - started < 5, "a heartbeat's wait would mean the stream did not end"
    # The caller's own stream: the turns due now, then the end.
    mine = [item for item in read_sse(alice.get("me/stream/", params={"follow": "false"}, timeout=10))]
    due = alice.get("me/turns/").json()
    assert [item.data["game"] for item in mine if item.event == "turn.due"] == [turn["game"] for turn in due]
