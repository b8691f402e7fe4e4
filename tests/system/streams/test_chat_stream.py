"""Table chat live on ``games/{id}/stream/`` (issue 26, README "Chat"): a ``chat`` event with no ``id`` (so
``Last-Event-ID`` stays the log's), sent only to those who may read its room, on both fan-outs; and the log's
entries around it unchanged."""

from __future__ import annotations

import threading

from tests.system.streams.live import LiveServer, Sse, new_poker_game, read_sse


def test_chat_reaches_the_players_streams_and_not_a_spectators(server):
    _chat_live(server)


def test_chat_fans_out_through_redis_pub_sub(redis_server):
    _chat_live(redis_server)


def _follow(client, url: str, received: list[Sse], ready: threading.Event) -> None:
    with client.stream("GET", url, headers={"Accept": "text/event-stream"}, timeout=30) as response:
        assert response.status_code == 200
        for item in read_sse(response):
            if item.comment is None:
                received.append(item)
            ready.set()  # the first log entries arrived: the stream is open
            if any(e.event == "chat" and e.data["text"] == "bye" for e in received):
                return


def _chat_live(server: LiveServer) -> None:
    alice, bob, carol = (server.player(f"chat-{name}") for name in ("alice", "bob", "carol"))
    game_id = new_poker_game(alice, bob)
    url = f"games/{game_id}/stream/"
    streams = {name: ([], threading.Event()) for name in ("bob", "carol")}
    readers = []
    for name, client in (("bob", bob), ("carol", carol)):
        received, ready = streams[name]
        reader = threading.Thread(target=_follow, args=(client, url, received, ready), daemon=True)
        reader.start()
        readers.append(reader)
    for _, ready in streams.values():
        assert ready.wait(20)
    version = alice.get(f"games/{game_id}/").json()["version"]
    for text in ("<img src=x onerror=alert(1)>", "bye"):
        assert alice.post(f"games/{game_id}/chat/", json={"room": "players", "text": text}).status_code == 201
    readers[0].join(20)
    assert carol.post(f"games/{game_id}/chat/", json={"room": "spectators", "text": "bye"}).status_code == 201
    readers[1].join(20)
    bob_chat = [e for e in streams["bob"][0] if e.event == "chat"]
    assert [e.data["text"] for e in bob_chat] == ["<img src=x onerror=alert(1)>", "bye"]
    assert all(e.id is None and e.data["room"] == "players" for e in bob_chat)
    carol_chat = [e for e in streams["carol"][0] if e.event == "chat"]
    assert [(e.data["room"], e.data["text"]) for e in carol_chat] == [("spectators", "bye")]
    assert alice.get(f"games/{game_id}/").json()["version"] == version  # chat never moved the game
