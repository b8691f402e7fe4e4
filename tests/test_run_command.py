"""The README's run command, as a new user starts it: web server (ASGI), Celery worker and beat on the embedded
broker, in a subprocess; a client plays a hand against a bot over HTTP while a browser-like client follows the
game's live stream with a stream token; Ctrl-C stops everything."""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from tests.system.streams.live import Sse, read_sse

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def running_server(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
        "TIMEOUT_SWEEP_SECONDS": "1",
    }
    # A new user's terminal: none of the variables the test command sets.
    for name in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG"):
        env.pop(name, None)
    log = (tmp_path / "run.log").open("w+")
    process = subprocess.Popen(
        [sys.executable, "palace.py", "run"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/api/v1/"
    try:
        deadline = time.monotonic() + 120
        # One client for the whole wait: each new one loads the certificate store (tens of ms of CPU a poll).
        with httpx.Client(timeout=2) as client:
            while True:
                assert process.poll() is None, (tmp_path / "run.log").read_text()
                try:
                    if client.get(base + "games/").status_code == 401:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.5)
        yield process, base, tmp_path / "run.log"
    finally:
        if process.poll() is None:
            # Ctrl-C first: the run command stops its web server, worker and beat (a SIGKILL of its group alone
            # left them running whenever the test failed before its own Ctrl-C).
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        log.close()


def bot_answer_times(log: list[dict]) -> list[float]:
    """Seconds from each log entry after which the bot (seat 1) decided to that decision's entry."""
    times = []
    for before, entry in zip(log, log[1:], strict=False):
        if entry["actor"] == 1 and "action" in entry:
            times.append(
                (datetime.fromisoformat(entry["created"]) - datetime.fromisoformat(before["created"])).total_seconds()
            )
    return times


def assert_delivery_worker_yields(port: str) -> None:
    """The webhook delivery worker runs 10 niceness steps below this process with the idle scheduling policy
    (Linux), and so does its session's scheduling group where Linux groups by session (autogroup): else its
    niceness would not count against the games' processes."""
    found = subprocess.run(["pgrep", "-f", f"webhooks-{port}@"], capture_output=True, text=True, check=False)  # noqa: S603, S607
    pids = [int(pid) for pid in found.stdout.split()]
    assert pids, "no delivery worker"
    # The run command lowers its priority by 10 from where it started: a suite run niced already starts lower.
    expected = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    for pid in pids:
        assert os.getpriority(os.PRIO_PROCESS, pid) == expected
        if hasattr(os, "SCHED_IDLE"):
            assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        autogroup = Path(f"/proc/{pid}/autogroup")
        if autogroup.exists():
            assert autogroup.read_text().split()[-1] == "10", autogroup.read_text()


def test_run_command_serves_a_hand_against_a_bot_and_stops_on_ctrl_c(running_server):
    process, base, log_path = running_server
    # A server may close an idle kept-alive connection just as a request reuses it.
    # The site itself, with its static files (htmx from django-htmx, through WhiteNoise).
    site = base.removesuffix("api/v1/")
    assert "Sign up" in httpx.get(site, timeout=10).text
    assert httpx.get(site + "static/django_htmx/htmx-2.min.js", timeout=10).status_code == 200
    with httpx.Client(base_url=base, timeout=10, headers={"Connection": "close"}) as client:
        token = client.post("players/", json={"name": "newcomer"}).json()["token"]
        client.headers["Authorization"] = f"Token {token}"
        game = client.post("games/", json={"kind": "palace-poker", "seats": 2, "options": {"max_hands": 10}}).json()
        url = f"games/{game['id']}/"
        # What a browser's EventSource does: no header, a short-lived token in the query.
        stream_token = client.post("me/stream-token/").json()["token"]
        streamed: list[Sse] = []

        def follow() -> None:
            with httpx.stream("GET", base + url + "stream/", params={"token": stream_token}, timeout=30) as answer:
                assert answer.status_code == 200
                streamed.extend(item for item in read_sse(answer) if item.comment is None)

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        assert client.post(url + "seats/", json={"seat": 0}).status_code == 201
        assert client.post(url + "seats/", json={"bot": "basic"}).status_code == 201
        deadline = time.monotonic() + 60
        # Until the match ends, or the bot has decided often enough to measure how soon it answers.
        while (view := client.get(url).json())["status"] != "finished":
            assert time.monotonic() < deadline, "the hand did not end: " + log_path.read_text()[-3000:]
            if len(bot_answer_times(client.get(url + "events/", params={"limit": 500}).json()["results"])) > 6:
                break
            if 0 in view["to_act"]:
                legal = {action["type"]: action for action in view["legal_actions"]}
                body = {"type": "stay"} if "stay" in legal else {"type": next(iter(legal))}
                if body["type"] == "discard":
                    body["cards"] = legal["discard"]["cards"][: legal["discard"]["min_cards"]]
                answer = client.post(url + "actions/", json={**body, "expected_version": view["version"]})
                assert answer.status_code in (201, 409), answer.text
            else:
                time.sleep(0.1)
        if client.get(url).json()["status"] != "finished":
            # Enough bot decisions measured: the person resigns, which ends the heads-up match (and its stream).
            assert client.post(url + "resign/").status_code in (200, 201)
            # The match ends once a discard step the bot owes is made (README: resigning in Palace Poker).
            while client.get(url).json()["status"] != "finished":
                assert time.monotonic() < deadline + 30, "the match did not end after the resignation"
                time.sleep(0.1)
        log = client.get(url + "events/", params={"limit": 500}).json()["results"]
        # The stream ended with the game, holding exactly the log as this player may see it.
        follower.join(30)
        assert not follower.is_alive(), "the stream did not end with the game"
        assert [item.data for item in streamed] == log
        assert [int(item.id or 0) for item in streamed] == list(range(1, len(log) + 1))
        # The admin's static files are served (WhiteNoise), as Django's development server served them.
        static = client.get(base.removesuffix("api/v1/") + "static/admin/css/base.css")
        assert static.status_code == 200 and "text/css" in static.headers["content-type"]
    assert any(entry["actor"] == 1 and "action" in entry for entry in log), "the bot acted by itself"
    # A bot's decision waits for the worker's next poll of the embedded broker (every 0.1 s), then its
    # decision and commit: well within 0.3 s of the entry that made it due (the log's times, taken at each
    # commit). The median, since this machine's cores are shared.
    # The first decision also pays for the worker's first task (imports, connections): it is left out.
    answered_in = bot_answer_times(log)[1:]
    print(f"bot answer times (s): {[round(seconds, 3) for seconds in answered_in]}")
    assert len(answered_in) >= 6, f"too few bot decisions to measure: {answered_in}"
    assert statistics.median(answered_in) < 0.3, f"the bot answered in {answered_in} s"
    # The README's demo, from a second terminal beside the run command.
    demo_env = {name: value for name, value in os.environ.items() if name not in ("SECRET_KEY", "DEBUG")}
    demo = subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "palace.py", "manage", "play_demo", "--url", base.removesuffix("/api/v1/"), "--hands", "1"],
        cwd=ROOT,
        env=demo_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "match over" in demo.stdout
    shedding = subprocess.run(  # noqa: S603 - our own command
        [
            sys.executable,
            "palace.py",
            "manage",
            "play_demo",
            "--url",
            base.removesuffix("/api/v1/"),
            "--kind",
            "palace",
        ],
        cwd=ROOT,
        env=demo_env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert shedding.returncode == 0, shedding.stdout + shedding.stderr
    assert "plays palace game" in shedding.stdout and "match over after" in shedding.stdout
    assert "1. " in shedding.stdout, "the finishing order, in the game's own words"
    port = base.split(":")[2].split("/")[0]
    assert_delivery_worker_yields(port)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in the terminal sends
    assert process.wait(timeout=30) == 0
    for marker in (
        f"uvicorn palace_api.asgi:application --host 127.0.0.1 --port {port}",
        f"palace-{port}@",
        f"webhooks-{port}@",
        f"slow-{port}@",
        f"celerybeat-schedule-{port}",
    ):
        left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True, check=False)  # noqa: S603, S607
        assert left.stdout.strip() == "", f"{marker!r} outlived the run command"
    assert "Staff user created" in log_path.read_text()
    assert "Broker ready: queue palace, slow declared" in log_path.read_text()
