"""A refused large body leaves no request unanswered: under gunicorn with uvicorn workers (the production server,
Dockerfile), every body over the upload limit, on the API, a page's form or a multipart upload, sent whole or
chunked, is answered 413 with ``Connection: close``, and the server closes the connection once it has read and
dropped the rest of the body (palace_api/middleware.py ``BodyLimitMiddleware``); a body on a method that reads
none is dropped and the connection kept.

The server runs on a SQLite file and the in-memory broker: no outage is involved, only the HTTP connection. The
last tests drive ``BodyLimitMiddleware`` alone, with a stand-in for Django, to check what it hands on.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from palace_api.middleware import BodyLimitMiddleware
from tests.servers import migrate_sqlite
from tests.system.faults.servers import Palace

BIG = 3 * 1024 * 1024
"""Over Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB): the body is refused unread."""


@pytest.fixture(scope="module")
def web(tmp_path_factory) -> Iterator[Palace]:
    home: Path = tmp_path_factory.mktemp("large-bodies")
    app = Palace(database_url=f"sqlite:///{home / 'db.sqlite3'}", broker_url="memory://", home=home)
    migrate_sqlite(app.env)
    app.start_web()
    yield app
    app.close()


def exchange(sock: socket.socket, request: bytes) -> bytes:
    """Send ``request`` whole, then read the answer until the server closes or the headers and body are in."""
    sock.sendall(request)
    return read_answer(sock)


def read_answer(sock: socket.socket) -> bytes:
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
        if length is not None and len(body) >= length or length is None and body.endswith(b"0\r\n\r\n"):
            return answer


def headers(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")[1:]
    return {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in head)}


def request(port: int, method: str, path: str, body: bytes, content_type: str, *, chunked: bool = False) -> bytes:
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {len(body)}"
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {content_type}\r\n{framing}\r\n\r\n"
    if chunked:
        body = b"".join(f"{len(part):x}\r\n".encode() + part + b"\r\n" for part in _parts(body)) + b"0\r\n\r\n"
    return head.encode() + body


def _parts(body: bytes, size: int = 256 * 1024) -> list[bytes]:
    return [body[start : start + size] for start in range(0, len(body), size)]


def post(port: int, size: int) -> bytes:
    body = b'{"name": "' + b"x" * (size - 12) + b'"}'
    return request(port, "POST", "/api/v1/players/", body, "application/json")


def test_two_refused_large_bodies_then_a_request_each_get_an_answer(web: Palace) -> None:
    """Given bodies of 3 MB sent on one keep-alive connection, when a small request follows, then each request
    gets a whole HTTP answer: each 413 announces ``Connection: close`` and the server then closes the connection
    (not a reset), so the client sends the next request on a new one, as HTTP asks."""
    sock = socket.create_connection(("127.0.0.1", web.port), timeout=15)
    statuses = []
    try:
        for req in (post(web.port, BIG), post(web.port, BIG), post(web.port, 30)):
            try:
                answer = exchange(sock, req)
            except (BrokenPipeError, ConnectionResetError):
                answer = b""
            if not answer:
                # The server closed the kept-alive connection while it was idle (its keep-alive timeout: a loaded
                # machine can be that slow between two requests), before any byte of an answer: a client sends
                # again on a new connection, as HTTP allows. Every request must then be answered.
                sock.close()
                sock = socket.create_connection(("127.0.0.1", web.port), timeout=15)
                answer = exchange(sock, req)
            assert answer.startswith(b"HTTP/1.1 "), f"no answer on a connection left open: {answer[:200]!r}"
            statuses.append(answer.split(b" ", 2)[1])
            if headers(answer).get("connection") == "close":
                assert sock.recv(1) == b"", "the server announced Connection: close and kept the connection"
                sock.close()
                sock = socket.create_connection(("127.0.0.1", web.port), timeout=15)
    finally:
        sock.close()
    assert statuses[:2] == [b"413", b"413"], statuses
    assert statuses[2] in (b"201", b"400"), statuses


MULTIPART = (
    b'--edge\r\nContent-Disposition: form-data; name="name"\r\n\r\nann\r\n'
    b'--edge\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n'
    b"Content-Type: application/octet-stream\r\n\r\n" + b"x" * BIG + b"\r\n--edge--\r\n"
)
REFUSED = {
    "api-json": ("/api/v1/players/", b'{"name": "' + b"x" * BIG + b'"}', "application/json"),
    "page-form": ("/login/", b"username=ann&password=" + b"x" * BIG, "application/x-www-form-urlencoded"),
    "page-multipart": ("/signup/", MULTIPART, "multipart/form-data; boundary=edge"),
}


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("kind", list(REFUSED))
def test_every_refused_body_is_a_413_that_closes_the_connection(web: Palace, kind: str, chunked: bool) -> None:
    """Given a body of 3 MB to the API, to a page's form or as a multipart upload, sent with its length or
    chunked, then the answer is 413 with ``Connection: close`` (the API's ``payload_too_large`` with ``limit``
    under /api/), and the server closes the connection after reading the rest: the client reads the end of the
    stream, not a reset."""
    path, body, content_type = REFUSED[kind]
    with socket.create_connection(("127.0.0.1", web.port), timeout=15) as sock:
        answer = exchange(sock, request(web.port, "POST", path, body, content_type, chunked=chunked))
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        assert headers(answer)["connection"] == "close"
        assert sock.recv(1) == b""
    if path.startswith("/api/"):
        refusal = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert refusal["code"] == "payload_too_large" and refusal["limit"] == 2_621_440


def test_a_client_that_waits_to_send_its_body_gets_the_413_instead_of_100_continue(web: Palace) -> None:
    """Given a request with ``Expect: 100-continue`` and a length over the limit, when the client waits before
    sending the body, then the answer is a 413 (no ``100 Continue``) and the server closes the connection."""
    head = (
        f"POST /api/v1/players/ HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {BIG}\r\nExpect: 100-continue\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", web.port), timeout=15) as sock:
        answer = exchange(sock, head.encode())
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        assert headers(answer)["connection"] == "close" and sock.recv(1) == b""


def test_a_body_on_a_get_is_dropped_and_the_connection_kept(web: Palace) -> None:
    """Given a GET that carries 3 MB of body (which nothing reads), then it is answered as without one, and the
    next request on the same connection is answered too."""
    with socket.create_connection(("127.0.0.1", web.port), timeout=15) as sock:
        first = exchange(sock, request(web.port, "GET", "/api/v1/games/", b"x" * BIG, "application/json"))
        second = exchange(sock, request(web.port, "GET", "/api/v1/games/", b"", "application/json"))
    assert first.startswith(b"HTTP/1.1 401 ") and second.startswith(b"HTTP/1.1 401 "), (first[:80], second[:80])
    assert headers(first).get("connection") != "close"


# --- BodyLimitMiddleware alone, a stand-in for Django behind it ---


def run(scope_headers: list[tuple[bytes, bytes]], messages: list[dict], method: str = "POST") -> dict:
    """Drive the middleware once: what the app behind it received, what was sent, and how many messages the
    middleware itself read from the client."""
    pending = list(messages)
    seen: dict = {"app": None, "sent": [], "read": 0}

    async def receive() -> dict:
        seen["read"] += 1
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        seen["sent"].append(message)

    async def app(scope, app_receive, app_send) -> None:
        got = [await app_receive()]
        while got[-1]["type"] == "http.request" and got[-1].get("more_body"):
            got.append(await app_receive())
        seen["app"] = got

    scope = {"type": "http", "method": method, "path": "/api/v1/players/", "headers": scope_headers}
    asyncio.run(BodyLimitMiddleware(app)(scope, receive, send))
    return seen


def body(data: bytes, more: bool) -> dict:
    return {"type": "http.request", "body": data, "more_body": more}


def test_a_refused_body_is_read_to_its_end_before_the_response_ends(settings) -> None:
    """The 413 goes out whole at once; the rest of the body is then read and dropped, and only then does the
    response end (and the server close the connection): Django never sees the body."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    seen = run([(b"content-length", b"30")], [body(b"x" * 10, True), body(b"x" * 10, True), body(b"x" * 10, False)])
    assert seen["app"] is None and seen["read"] == 3
    start, first, last = seen["sent"]
    assert start["status"] == 413 and (b"connection", b"close") in start["headers"]
    assert json.loads(first["body"])["code"] == "payload_too_large" and first["more_body"] is True
    assert last == {"type": "http.response.body", "body": b"", "more_body": False}


def test_a_waiting_client_is_refused_without_a_read(settings) -> None:
    """``Expect: 100-continue``: reading would make the server send ``100 Continue``; the middleware reads
    nothing and ends the response at once."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    seen = run([(b"content-length", b"30"), (b"expect", b"100-continue")], [body(b"x" * 30, False)])
    assert seen["read"] == 0 and seen["app"] is None
    assert seen["sent"][0]["status"] == 413 and seen["sent"][-1]["more_body"] is False


def test_a_chunked_body_within_the_limit_reaches_the_app_as_it_came(settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    parts = [body(b"abc", True), body(b"defg", True), body(b"hij", False)]
    seen = run([], parts)
    assert seen["app"] == parts and seen["sent"] == []


def test_a_chunked_body_over_the_limit_is_refused_once_it_passes_it(settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    seen = run([], [body(b"x" * 6, True), body(b"x" * 6, True), body(b"x" * 6, False)])
    assert seen["app"] is None and seen["sent"][0]["status"] == 413 and seen["read"] == 3


def test_the_body_of_a_get_is_dropped_before_the_app(settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10
    seen = run([(b"content-length", b"40")], [body(b"x" * 20, True), body(b"x" * 20, False)], method="GET")
    assert seen["app"] == [body(b"", True), body(b"", False)] and seen["sent"] == []
