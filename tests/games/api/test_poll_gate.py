"""The poll gate (games/api/polls.py): a current conditional poll answered 304 before Django, from Redis alone.

Run against the suite's Redis (``CELERY_BROKER_URL``; ``.ci/run`` sets one): the gate reads what Django's Redis
cache wrote, with a client of its own. Each test's keys carry a prefix of its own and are deleted after it.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from games.api import polls
from games.api.polls import PASS_RENEW_AFTER, POLL_PASS_SECONDS, PollGate, pass_key, viewer_mark
from games.services.versions import views_changed
from players.token_cache import TOKENS
from tests.games.api.table import create_table

pytestmark = pytest.mark.django_db

HEADS_UP = {"betting": "limit", "small_bet": 5, "big_bet": 10, "first_dealer": 1}
TURNS = "/api/v1/me/turns/"


@pytest.fixture
def gate_redis(settings, isolated_cache):
    """Django's cache on the suite's Redis, holding the view versions, under a key prefix of this test's own."""
    broker = settings.CELERY_BROKER_URL
    if not broker.startswith("redis://"):
        pytest.skip("the poll gate reads Redis: set CELERY_BROKER_URL to a Redis server (.ci/run does)")
    prefix = f"palace-test-{uuid.uuid4().hex[:12]}"
    backend = "palace_api.cache.RedisCache"
    settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": broker, "KEY_PREFIX": prefix}}
    settings.VIEW_VERSIONS_CACHE = "default"
    yield
    client = caches["default"]._cache.get_client(write=True)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)
    # Back to a per-process cache before isolated_cache's clean-up, which clears the default cache.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture
def alice(gate_redis, make_player):
    """alice's user, token and client (token authentication, as a poller's)."""
    user, token = make_player("alice")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return user, token, client


class Inner:
    """Django's place behind the gate: counts the requests it is given."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls += 1
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def ask(path: str, token: str, tag: str, *, query: bytes = b"", scheme: str = "Token") -> tuple[int, dict, int]:
    """One GET through a new gate: (status, headers, how many requests reached Django)."""
    inner, sent = Inner(), []
    headers = [(b"authorization", f"{scheme} {token}".encode()), (b"if-none-match", tag.encode())]
    scope = {"type": "http", "method": "GET", "path": path, "query_string": query, "headers": headers}

    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(PollGate(inner)(scope, receive, send))
    return sent[0]["status"], dict(sent[0]["headers"]), inner.calls


def test_a_current_poll_is_answered_before_django(alice):
    """Given alice's tag from Django (which gave her token a poll pass), when she sends it back, then the gate
    answers 304 with the same tag, and Django never sees the request; Bearer works as Token does."""
    _, token, client = alice
    tag = client.get(TURNS).headers["ETag"]
    status, headers, reached = ask(TURNS, token, tag)
    assert (status, headers[b"etag"].decode(), reached) == (304, tag, 0)
    assert ask(TURNS, token, tag, scheme="Bearer")[2] == 0


def test_a_stale_tag_goes_to_django(alice):
    user, token, client = alice
    tag = client.get(TURNS).headers["ETag"]
    assert views_changed(game_id=1, players=[user.pk])
    assert ask(TURNS, token, tag)[2] == 1


def test_a_token_without_a_pass_goes_to_django(alice, make_player):
    """A token Django has not checked lately (no pass), or another player's token with alice's tag: Django
    answers, which authenticates in full (a revoked token gets its 401 there)."""
    _, token, client = alice
    tag = client.get(TURNS).headers["ETag"]
    _, other = make_player("bob")
    assert ask(TURNS, other, tag)[2] == 1, "bob's token holds no pass for alice"
    caches["default"].delete(pass_key(token.encode()))
    assert ask(TURNS, token, tag)[2] == 1, "the pass expired: Django checks the token again"


def test_the_pass_lives_a_bounded_time(alice):
    _, token, client = alice
    client.get(TURNS)
    cache = caches["default"]
    ttl = cache._cache.get_client().ttl(cache.make_key(pass_key(token.encode())))
    assert 0 < ttl <= POLL_PASS_SECONDS


def test_a_pass_is_written_again_only_after_half_its_life(alice, monkeypatch):
    """A client that acts GETs the game before each move: the process writes its pass once per
    ``PASS_RENEW_AFTER``, not once a request."""
    user, token, client = alice
    key = pass_key(token.encode())
    client.get(TURNS)
    assert caches["default"].get(key) == viewer_mark(user)
    caches["default"].delete(key)
    client.get(TURNS)
    assert caches["default"].get(key) is None, "written moments ago by this process: not written again"
    later = polls.time.monotonic() + PASS_RENEW_AFTER
    monkeypatch.setattr(polls.time, "monotonic", lambda: later)
    client.get(TURNS)
    assert caches["default"].get(key) == viewer_mark(user)


def test_a_session_gets_no_pass(gate_redis, make_player):
    """A caller signed in without a token (the browser's session) gets no pass: nothing ties one to him."""
    user, token = make_player("carol")
    client = APIClient()
    client.force_authenticate(user)
    client.get(TURNS)
    assert caches["default"].get(pass_key(token.encode())) is None


def test_the_game_view_is_gated_per_viewer(alice, make_player, django_capture_on_commit_callbacks):
    """The game view's tag is alice's own: the gate answers it for her token only, for the path of its game, and
    Django again once the game moved."""
    user, token, client = alice
    _, bob_token = make_player("bob")
    bob = APIClient()
    bob.credentials(HTTP_AUTHORIZATION=f"Token {bob_token}")
    with django_capture_on_commit_callbacks(execute=True):
        table = create_table(client, [client, bob], options=HEADS_UP)
    url = f"/api/v1/games/{table.game_id}/"
    tag = client.get(url).headers["ETag"]
    bob.get(url)  # bob has a pass too, as himself
    assert ask(url, token, tag)[:3:2] == (304, 0)
    assert ask(url, bob_token, tag)[2] == 1, "bob's pass is not alice's"
    assert ask(f"/api/v1/games/{table.game_id + 1}/", token, tag)[2] == 1, "another game's path"
    with django_capture_on_commit_callbacks(execute=True):
        table.act(0, "stay")
    assert ask(url, token, tag)[2] == 1


@pytest.mark.parametrize(
    ("path", "tag", "query"),
    [
        (TURNS, '"t-0123456789abcdef"', b""),  # a tag from the database's path
        (TURNS, '"tv1-0123456789abcdef", "tv1-0123456789abcdef"', b""),  # a list: Django decides
        (TURNS, '"tv1-0123456789abcdef"', b"x=1"),  # a query string: Django's 400
        ("/api/v1/games/", '"tv1-0123456789abcdef"', b""),
    ],
)
def test_anything_else_goes_to_django(alice, path, tag, query):
    _, token, _ = alice
    assert ask(path, token, tag, query=query)[2] == 1


def test_without_redis_the_gate_steps_aside(alice, settings):
    """Redis unreachable: Django answers every request, and the gate raises nothing."""
    _, token, client = alice
    tag = client.get(TURNS).headers["ETag"]
    working = settings.CACHES
    settings.CACHES = {"default": {**working["default"], "LOCATION": "redis://127.0.0.1:9/0"}}
    assert ask(TURNS, token, tag)[2] == 1
    settings.CACHES = working  # for the clean-up of this test's keys


def test_polls_arriving_together_share_one_redis_read_each_answered_for_itself(alice, make_player):
    """Given twenty polls arriving at once through one gate, alice's and bob's current tags and bob's tag made
    stale, when the gate answers, then it reads Redis once per batch, not once per poll, and each poll gets its
    own answer: the current ones 304, the stale ones Django."""
    user, token, client = alice
    _, bob_token = make_player("bob")
    bob = APIClient()
    bob.credentials(HTTP_AUTHORIZATION=f"Token {bob_token}")
    alice_tag, bob_tag = client.get(TURNS).headers["ETag"], bob.get(TURNS).headers["ETag"]
    inner, answers, reads = Inner(), [], []
    gate = PollGate(inner)

    async def one(token: str, tag: str) -> None:
        headers = [(b"authorization", f"Token {token}".encode()), (b"if-none-match", tag.encode())]
        scope = {"type": "http", "method": "GET", "path": TURNS, "query_string": b"", "headers": headers}

        async def receive() -> dict:
            return {"type": "http.request", "body": b""}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                answers.append((tag, message["status"]))

        await gate(scope, receive, send)

    async def twenty() -> None:
        client = gate._client()
        real = client.mget

        async def counted(*args, **kwargs):
            reads.append(args)
            return await real(*args, **kwargs)

        client.mget = counted
        polls = [one(token, alice_tag) for _ in range(10)] + [one(bob_token, bob_tag) for _ in range(5)]
        polls += [one(bob_token, bob_tag[:-17] + "0" * 16 + '"') for _ in range(5)]
        await asyncio.gather(*polls)

    asyncio.run(twenty())
    assert sorted(status for _, status in answers) == [299] * 5 + [304] * 15
    assert all(status == 299 for tag, status in answers if tag not in (alice_tag, bob_tag))
    assert 1 <= len(reads) < 20 and inner.calls == 5


# --- A plain GET of a game view this process has just committed, answered by the gate from memory ---


class Replay:
    """Django's place behind the gate: answers every request with one response Django gave (status, headers,
    body, as its ASGI handler would send them), and counts the requests it is given."""

    def __init__(self, response: Any) -> None:
        self.calls = 0
        self.status = response.status_code
        self.headers = [(name.lower().encode(), value.encode("latin-1")) for name, value in response.items()]
        self.body = response.content

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls += 1
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


def gets(gate: PollGate, path: str, *tokens: str, extra: tuple[tuple[bytes, bytes], ...] = (), method: str = "GET"):
    """One GET of ``path`` per token, in order, through ``gate`` (one event loop): [(status, headers, body)]."""
    answers: list[tuple[int, dict[bytes, bytes], bytes]] = []

    async def run() -> None:
        for token in tokens:
            sent: list[dict] = []
            headers = [(b"host", b"testserver"), (b"accept", b"*/*"), (b"authorization", f"Token {token}".encode())]
            scope = {
                "type": "http",
                "method": method,
                "scheme": "http",
                "path": path,
                "query_string": b"",
                "headers": [*headers, *extra],
            }

            async def receive() -> dict:
                return {"type": "http.request", "body": b""}

            async def send(message: dict, sent: list[dict] = sent) -> None:
                sent.append(message)

            await gate(scope, receive, send)
            answers.append((sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"]))

    asyncio.run(run())
    return answers


def django_headers(response: Any) -> dict[bytes, bytes]:
    """A Django response's headers as the gate's answer carries them (names in lower case, the body's length)."""
    headers = {name.lower().encode(): value.encode("latin-1") for name, value in response.items()}
    return {**headers, b"content-length": str(len(response.content)).encode()}


@pytest.fixture
def committed(alice, make_player, make_staff, django_capture_on_commit_callbacks):
    """A heads-up match of alice and bob in which this process has just committed a decision (its view version
    token written after the commit), alice having read the game before; carol, who does not sit at it; and staff.
    Returns (table, {name: token}, {name: client})."""
    _, alice_token, alice_client = alice
    tokens, clients = {"alice": alice_token}, {"alice": alice_client}
    _, tokens["staff"] = make_staff()
    for name in ("bob", "carol"):
        _, tokens[name] = make_player(name)
    for name in ("bob", "carol", "staff"):
        clients[name] = APIClient()
        clients[name].credentials(HTTP_AUTHORIZATION=f"Token {tokens[name]}")
    with django_capture_on_commit_callbacks(execute=True):
        table = create_table(alice_client, [alice_client, clients["bob"]], options=HEADS_UP)
    seat = table.view(0)["to_act"][0]
    with django_capture_on_commit_callbacks(execute=True):
        table.act(seat, "stay")
    return table, tokens, clients


def test_the_gate_serves_a_view_it_has_just_committed_as_django_does(committed):
    """Given a decision this process just committed, when alice, bob (seated), carol (a spectator) and staff GET the
    game view, then after one answer from Django (whose headers the gate keeps), the gate answers each of them with
    the very body and headers Django gives that caller: each viewer's own view, never another's."""
    table, tokens, clients = committed
    url = table.url()
    viewers = ("alice", "bob", "carol", "staff")
    expected = {name: clients[name].get(url) for name in viewers}
    assert len({answer.content for answer in expected.values()}) == 4, "four viewers, four views"
    django = Replay(expected["alice"])
    gate = PollGate(django)
    first, *served = gets(gate, url, tokens["alice"], *(tokens[name] for name in viewers))
    assert django.calls == 1, "the first request taught the gate Django's headers; the rest it answered"
    assert first[2] == expected["alice"].content
    for (status, headers, body), name in zip(served, viewers, strict=True):
        assert (status, body) == (200, expected[name].content), name
        assert headers == django_headers(expected[name]), name


def test_the_gate_leaves_a_version_it_did_not_commit_to_django(committed):
    """Another process's commit (a new version token this process did not write): Django answers."""
    table, tokens, clients = committed
    django = Replay(clients["alice"].get(table.url()))
    gate = PollGate(django)
    gets(gate, table.url(), tokens["alice"])
    assert views_changed(game_id=table.game_id, players=[])
    gets(gate, table.url(), tokens["alice"])
    assert django.calls == 2


def test_a_revoked_or_unremembered_token_goes_to_django(committed, monkeypatch):
    """The gate serves a token only from this process's token memory, as Django's check would: a token logged
    out (here or, after ``AUTH_TOKEN_CACHE_SECONDS``, elsewhere) or never checked here reaches Django, which
    refuses or checks it in full."""
    table, tokens, clients = committed
    django = Replay(clients["alice"].get(table.url()))
    gate = PollGate(django)
    gets(gate, table.url(), tokens["alice"], tokens["bob"])
    assert django.calls == 1
    assert clients["bob"].post("/api/v1/auth/logout/").status_code == 204
    gets(gate, table.url(), tokens["bob"])
    assert django.calls == 2, "bob's token was revoked"
    later = TOKENS.clock() + TOKENS.seconds() + 1
    monkeypatch.setattr(TOKENS, "clock", lambda: later)
    gets(gate, table.url(), tokens["alice"])
    assert django.calls == 3, "alice's token was checked longer ago than the memory trusts it"


@pytest.mark.parametrize(
    ("extra", "method"),
    [
        (((b"accept", b"text/html"),), "GET"),  # DRF's browsable API
        (((b"cookie", b"sessionid=x"),), "GET"),  # a session may be whom Django authenticates
        (((b"authorization", b"Token x"),), "GET"),  # a header twice: Django joins them
        (((b"if-none-match", b'"gv1-0123456789abcdef-u1"'),), "GET"),  # a conditional GET: the 304 gate's
        ((), "HEAD"),
    ],
)
def test_other_requests_of_a_game_view_go_to_django(committed, extra, method):
    table, tokens, clients = committed
    django = Replay(clients["alice"].get(table.url()))
    gate = PollGate(django)
    gets(gate, table.url(), tokens["alice"])
    gets(gate, table.url(), tokens["alice"], extra=extra, method=method)
    assert django.calls == 2
