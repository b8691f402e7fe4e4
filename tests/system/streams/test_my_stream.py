"""``me/stream/`` against a live ASGI server: a player who acts only when his stream says ``turn.due`` plays a
whole hand, and hears the game start and finish; no payload holds a card."""

from __future__ import annotations

import json
import queue
import threading
import time

import httpx

from tests.system.streams.live import LiveServer, Sse, act_if_due, read_sse


def _follow(client: httpx.Client, into: queue.Queue[Sse], stop: threading.Event) -> threading.Thread:
    def read() -> None:
        with client.stream("GET", "me/stream/", timeout=30) as response:
            assert response.status_code == 200
            for item in read_sse(response):
                if item.comment is None:
                    into.put(item)
                if stop.is_set():
                    return

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_my_stream_tells_my_turns_and_my_games_start_and_end(server: LiveServer):
    alice, bob = server.player("frank"), server.player("grace")
    news: queue.Queue[Sse] = queue.Queue()
    stop = threading.Event()
    reader = _follow(alice, news, stop)
    time.sleep(0.5)  # connected before anything happens: nothing is due yet, so nothing is sent at first
    game = alice.post("games/", json={"kind": "palace-poker", "seats": 2, "options": {"max_hands": 1}}).json()
    for client in (alice, bob):
        assert client.post(f"games/{game['id']}/seats/", json={}).status_code == 201
    heard: list[Sse] = []
    deadline = time.monotonic() + 60
    while not heard or heard[-1].event != "game.finished":
        assert time.monotonic() < deadline, [item.event for item in heard]
        try:
            item = news.get(timeout=0.2)
        except queue.Empty:
            act_if_due(bob, game["id"])  # Bob polls; Alice acts on her stream alone
            continue
        heard.append(item)
        assert item.data["game"] == game["id"] and item.data["seat"] == 0, item.data
        if item.event == "turn.due":
            view = alice.get(f"games/{game['id']}/").json()
            assert view["version"] == item.data["version"] and 0 in view["to_act"], "a turn.due that was not due"
            if len([entry for entry in heard if entry.event == "turn.due"]) == 1:
                # A stream opened while a decision is due starts by saying so.
                with alice.stream("GET", "me/stream/", timeout=10) as response:
                    first = next(entry for entry in read_sse(response) if entry.comment is None)
                assert (first.event, first.data) == ("turn.due", item.data)
            assert act_if_due(alice, game["id"])
    stop.set()
    events = [item.event for item in heard]
    assert events[0] == "game.started" and events.count("game.started") == 1
    assert "turn.due" in events and events.count("game.finished") == 1
    # Every decision Alice made was announced: the hand could not have ended otherwise, she acted on nothing else.
    decisions = [
        entry
        for entry in alice.get(f"games/{game['id']}/events/", params={"limit": 500}).json()["results"]
        if entry["actor"] == 0 and entry["kind"] not in ("seat_taken", "shuffle")
    ]
    assert len(decisions) == events.count("turn.due")
    finished = heard[-1].data
    assert set(finished["result"]) >= {"winners", "stacks"} and finished["version"] > 0
    turn = next(item.data for item in heard if item.event == "turn.due")
    assert set(turn) == {"game", "kind", "seat", "version", "deadline", "seconds_left"}
    assert "cards" not in json.dumps([item.data for item in heard])
    reader.join(5)
