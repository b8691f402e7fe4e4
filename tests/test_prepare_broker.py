"""``manage.py prepare_broker`` on a fresh embedded broker: it declares the task queue once, so the worker, beat and
web server that ``palace.py run`` starts together find it there instead of racing to create it (kombu's SQLAlchemy
transport lets concurrent first declarations fail with an IntegrityError, which stopped the worker)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each process waits for the same instant, then declares every queue of the Celery app, as a starting worker does.
DECLARE = """
import sys, time
import django
django.setup()
from palace_api.celery import app
start = float(sys.argv[1])
while time.time() < start:
    pass
with app.connection_for_write() as connection:
    for queue in app.amqp.queues.values():
        queue.bind(connection.default_channel).declare()
"""


def broker_env(broker: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DEBUG": "true",
        "DJANGO_SETTINGS_MODULE": "palace_api.settings",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{broker}",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("DATABASE_URL", None)
    return env


def queue_names(broker: Path) -> list[str]:
    with sqlite3.connect(broker) as connection:
        return [name for (name,) in connection.execute("SELECT name FROM kombu_queue ORDER BY name")]


def test_prepare_broker_declares_the_queue_once_and_again_without_error(tmp_path):
    broker = tmp_path / "broker.sqlite3"
    env = broker_env(broker)
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "manage.py", "prepare_broker"], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert "queue palace, slow declared" in done.stdout
    assert queue_names(broker) == ["palace", "slow"]


def test_processes_starting_together_after_prepare_broker_all_find_the_queue(tmp_path):
    broker = tmp_path / "broker.sqlite3"
    env = broker_env(broker)
    prepared = subprocess.run(
        [sys.executable, "manage.py", "prepare_broker"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert prepared.returncode == 0, prepared.stderr
    start = str(time.time() + 3)  # past every process's Django start-up, so the declarations coincide
    processes = [
        subprocess.Popen(  # noqa: S603 - our own code
            [sys.executable, "-c", DECLARE, start], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    errors = [process.communicate(timeout=60)[1] for process in processes]
    assert [process.returncode for process in processes] == [0, 0, 0, 0], "\n".join(errors)
    assert queue_names(broker) == ["palace", "slow"]
