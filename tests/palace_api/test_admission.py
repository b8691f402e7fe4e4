"""Admission (palace_api/admission.py): at most ``limit`` requests between their arrival and their answer's start."""

from __future__ import annotations

import asyncio

from palace_api.admission import Admission

HTTP = {"type": "http", "method": "GET", "path": "/"}


async def receive() -> dict:
    return {"type": "http.request", "body": b""}


async def discard(message: dict) -> None:
    return None


def test_requests_past_the_limit_wait_until_one_answers():
    """Given a limit of 2 and five slow requests at once, then never more than two are inside at a time, and all
    five are answered."""
    inside, most, answered = 0, 0, 0

    async def slow(scope, receive, send):
        nonlocal inside, most, answered
        inside += 1
        most = max(most, inside)
        await asyncio.sleep(0.01)
        inside -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        answered += 1

    async def main():
        app = Admission(slow, limit=2)
        await asyncio.gather(*(app(HTTP, receive, discard) for _ in range(5)))

    asyncio.run(main())
    assert (most, answered) == (2, 5)


def test_a_stream_holds_no_place_once_its_answer_started():
    """Given a limit of 1 and a stream that started its answer and stays open, then the next request goes in."""

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        if scope["path"] == "/stream":
            await asyncio.Event().wait()  # open until cancelled
        await send({"type": "http.response.body", "body": b""})

    async def main():
        admission = Admission(app, limit=1)
        stream = asyncio.create_task(admission({**HTTP, "path": "/stream"}, receive, discard))
        await asyncio.sleep(0)
        await asyncio.wait_for(admission(HTTP, receive, discard), timeout=5)
        stream.cancel()

    asyncio.run(main())


def test_a_request_that_fails_before_answering_gives_its_place_back():
    async def failing(scope, receive, send):
        raise RuntimeError("boom")

    async def answering(scope, receive, send):
        await send({"type": "http.response.start", "status": 204, "headers": []})

    async def main():
        admission = Admission(failing, limit=1)
        for _ in range(3):
            try:
                await admission(HTTP, receive, discard)
            except RuntimeError:
                pass
        admission.app = answering
        await asyncio.wait_for(admission(HTTP, receive, discard), timeout=5)

    asyncio.run(main())


def test_lifespan_and_websocket_scopes_pass_untouched():
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    async def main():
        admission = Admission(app, limit=1)
        await admission({"type": "lifespan"}, receive, discard)
        await admission({"type": "lifespan"}, receive, discard)

    asyncio.run(main())
    assert seen == ["lifespan", "lifespan"]
