"""A refused large body leaves the connection usable: under gunicorn (the production server, Dockerfile), a
client that sent bodies over the upload limit gets each answer and the next request's.

The server runs on a SQLite file and the in-memory broker: no outage is involved, only the HTTP connection.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.servers import Palace

BIG = 3 * 1024 * 1024
"""Over Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB): the body is refused unread."""


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Palace]:
    app = Palace(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", broker_url="memory://", home=tmp_path)
    app.manage("migrate", "--noinput")
    app.start_web()
    yield app
    app.close()


def exchange(sock: socket.socket, request: bytes) -> bytes:
    """Send ``request`` whole, then read the answer until the server closes or the headers and body are in."""
    sock.sendall(request)
    answer = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return answer
        answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        length = next(
            (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")),
            None,
        )
        if length is not None and len(body) >= length:
            return answer


def post(port: int, size: int) -> bytes:
    body = b'{"name": "' + b"x" * (size - 12) + b'"}'
    return (
        f"POST /api/v1/players/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: keep-alive\r\n\r\n"
    ).encode() + body


def test_two_refused_large_bodies_then_a_request_each_get_an_answer(web: Palace) -> None:
    """Given bodies of 3 MB sent on one keep-alive connection, when a small request follows, then each request
    gets a whole HTTP answer: on the same connection, or, where the server announced ``Connection: close`` and
    closed it (its sync workers close every connection), on the new one a client then opens. A connection the
    server left open never drops a request unanswered."""
    sock = socket.create_connection(("127.0.0.1", web.port), timeout=15)
    statuses = []
    try:
        for request in (post(web.port, BIG), post(web.port, BIG), post(web.port, 30)):
            try:
                answer = exchange(sock, request)
            except (BrokenPipeError, ConnectionResetError):
                answer = b""
            if not answer:
                # The server closed the kept-alive connection while it was idle (gunicorn's keep-alive, 2 s: a
                # loaded machine can be that slow between two requests), before any byte of an answer: a client
                # sends again on a new connection, as HTTP allows. Every request must then be answered.
                sock.close()
                sock = socket.create_connection(("127.0.0.1", web.port), timeout=15)
                answer = exchange(sock, request)
            assert answer.startswith(b"HTTP/1.1 "), f"no answer on a connection left open: {answer[:200]!r}"
            statuses.append(answer.split(b" ", 2)[1])
            if b"\r\nconnection: close\r\n" in answer.split(b"\r\n\r\n")[0].lower() + b"\r\n":
                assert sock.recv(1) == b"", "the server announced Connection: close and kept the connection"
                sock.close()
                sock = socket.create_connection(("127.0.0.1", web.port), timeout=15)
    finally:
        sock.close()
    assert statuses[0] == statuses[1] and statuses[0].startswith(b"4"), statuses
    assert statuses[2] in (b"201", b"400"), statuses
