"""Every input of every page, bad: over-long, empty, non-ASCII, a NUL byte (issue 27, item 4).

The pages come from the URL conf (every route outside /api/ and /admin/, the mails' pages included), their forms
and fields from the HTML each page serves (so a page, form or field added later is walked without a word here),
and the query parameters a page reads from the links and ``hx-get`` attributes that carry them. Read by hand and
found in no page (``HAND_READ_QUERY``): ``after`` of ``web:table-stream`` (``palace.js`` adds it) and ``next`` of
``web:login`` (``login_required`` redirects there with it).

Each request sets one input to one bad value and sends the rest as the page itself would (a form's own values, a
good one where it leaves a field blank: ``GOOD``); a value the page itself sends is not bad. The answer must be a
4xx page: never a 5xx, never a success. The staff pages the project defines in the admin (its ModelAdmins' lists,
searches and filters, and its own hand-history pages) answer bad query parameters as Django's admin does (a list
with nothing found, or a redirect to ``?e=1`` for a filter it cannot apply), never with a 5xx.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.services import game_create, seat_take
from notifications.services import email_set
from players.services import token_create
from tests.bad_inputs import BAD_VALUES, Tally
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SKIPPED_PREFIXES = ("api/", "admin/")
"""The API (tests/games/api/test_input_bounds.py walks it from its schema) and the admin (walked below, its own way)."""

GOOD = {"name": "zed", "password": PASSWORD, "password_again": PASSWORD, "address": "alice@example.com"}
"""A good value for a field a page leaves blank, by name."""

UNICODE_FIELDS = {"text"}
"""Fields that take any Unicode, so non-ASCII is no bad value for them: the table chat's (issue 26, README "Chat")."""
HAND_READ_QUERY = {"web:table-stream": ["after"], "web:login": ["next"]}
"""Query parameters a page reads that no page's HTML carries: route name -> parameter names."""


@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)  # what the page sends as it stands
    names: list[str] = field(default_factory=list)  # every name the form can send
    button: tuple[str, str] | None = None  # the first named submit button: sent as if clicked


class Page(HTMLParser):
    """The POST forms of a page and the query strings of its own links (``href``, ``hx-get``)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.forms: list[Form] = []
        self.links: list[str] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._option = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        for link in (a.get("href"), a.get("hx-get")):
            if link and "?" in link and link.startswith(("/", "?")):
                self.links.append(urlsplit(self.url).path + link if link.startswith("?") else link)
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._form = Form(action=a.get("action") or self.url)
            self.forms.append(self._form)
        form = self._form
        if form is not None and tag == "option" and self._select:
            # The first option, or the selected one: what a browser sends.
            if self._select not in form.fields or "selected" in a:
                if "value" in a:
                    form.fields[self._select] = a["value"]
                else:
                    self._option = True  # its text is its value
            return
        if form is None or not a.get("name"):
            return
        name = a["name"]
        if name not in form.names:
            form.names.append(name)
        if tag == "input" and a.get("type") in ("checkbox", "radio"):
            if "checked" in a:
                form.fields[name] = a.get("value") or "on"
        elif tag == "input":
            form.fields[name] = a.get("value", "") or GOOD.get(name, "")
        elif tag == "button" and form.button is None and a.get("type", "submit") == "submit":
            form.button = (name, a.get("value", ""))
        elif tag == "select":
            self._select = name
        elif tag == "textarea":
            form.fields[name] = GOOD.get(name, "")

    def handle_data(self, data: str) -> None:
        if self._option and self._form is not None and self._select:
            self._form.fields[self._select] = data.strip()
            self._option = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def page_routes() -> Iterator[tuple[str, str, URLPattern]]:
    """``(route name, route, pattern)`` of every named route outside ``SKIPPED_PREFIXES``."""

    def walk(patterns: list[Any], prefix: str, namespace: str) -> Iterator[tuple[str, str, URLPattern]]:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                yield from walk(entry.url_patterns, route, inner)
            elif entry.name:
                yield route, namespace + entry.name, entry

    for route, name, pattern in walk(get_resolver().url_patterns, "", ""):
        if not route.startswith(SKIPPED_PREFIXES):
            yield name, route, pattern


def _url(route: str, arguments: dict[str, Any]) -> str:
    """The path of ``route`` (``games/<int:game_id>/act/``) with ``arguments`` in it, each quoted."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda match: quote(str(arguments[match.group(1)]), safe=""), route)


def _arguments(pattern: URLPattern, world: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Path arguments for ``pattern``: each of the world's games for a game id, each kind for a kind."""
    converters = dict(pattern.pattern.converters)
    choices: dict[str, list[Any]] = {
        "game_id": world["games"],
        "step": [1],
        "kind": ["palace-poker", "palace"],
        "token": ["x"],
        "ladder": ["palace-poker", "palace-poker-points", "palace"],
        "room": ["players", "spectators"],
        "player_id": [1],
        "what": ["offer", "accept", "decline", "leave"],
    }
    combos: list[dict[str, Any]] = [{}]
    for name in converters:
        assert name in choices, f"a path argument the walk cannot fill: {name} ({pattern.pattern})"
        combos = [{**combo, name: value} for combo in combos for value in choices[name]]
    yield from combos


@pytest.fixture
def world(web_client, make_player) -> dict[str, Any]:
    """alice (logged in through the pages, with an API token and an email address) at a waiting table she made
    (leave, cancel, seat a bot), a waiting table of bob's (join) and a running one of each kind where she is to
    act (act, resign)."""
    alice = web_client("alice")
    alice.raise_request_exception = False  # a 500 is an answer to count
    user = get_user_model().objects.get(username="alice")
    bob, _ = make_player("bob")
    mine = game_create(creator=user, kind="palace-poker", seats=3, options={})
    seat_take(game_id=mine.pk, player=user)
    theirs = game_create(creator=bob, kind="palace", seats=3, options={})
    running = []
    for kind, options in (("palace-poker", {"first_dealer": 1}), ("palace", {})):
        game = game_create(creator=user, kind=kind, seats=2, options=options)
        seat_take(game_id=game.pk, player=user)
        seat_take(game_id=game.pk, player=bob)
        running.append(game.pk)
    token_create(user=user)
    email_set(user=user, address="alice@example.com")
    return {"client": alice, "games": [mine.pk, theirs.pk, *running]}


def _crawl(world: dict[str, Any]) -> tuple[list[str], list[Page]]:
    """Every page URL the routes give, and what each GET served."""
    client = world["client"]
    urls, pages = [], []
    for _, route, pattern in page_routes():
        for arguments in _arguments(pattern, world):
            url = _url(route, arguments)
            urls.append(url)
            response = client.get(url)
            assert response.status_code < 500, (url, response.status_code)
            if "text/html" in response.get("Content-Type", ""):
                page = Page(url)
                page.feed(response.content.decode())
                pages.append(page)
    return urls, pages


def _csrf(client: Client) -> str:
    return client.cookies["csrftoken"].value


def _problem(response: Any) -> str | None:
    return None if 400 <= response.status_code < 500 else f"answered {response.status_code}"


def test_every_form_field_refuses_bad_values_with_a_4xx_page(world) -> None:
    """Issue 27, item 4: each field of each form, bad, gets a 4xx page; 0 x 5xx, no bad value accepted."""
    client, tally = world["client"], Tally()
    _, pages = _crawl(world)
    forms = {(form.action, tuple(form.names)): form for page in pages for form in page.forms}
    names = {name for form in forms.values() for name in form.names}
    assert {"idempotency_key", "version", "act", "bot", "revoke", "address", "name", "username"} <= names, names
    for form in forms.values():
        for name in form.names:
            for label, value in BAD_VALUES.items():
                data = {**form.fields, "csrfmiddlewaretoken": _csrf(client)}
                if form.button is not None:
                    data.setdefault(*form.button)
                if data.get(name) == value or (name in UNICODE_FIELDS and label == "non-ASCII"):
                    continue  # the page's own value is not bad, nor Unicode in a chat message
                data[name] = value
                response = client.post(form.action, data)
                tally.record(response.status_code, f"POST {form.action} {name} = {label}", _problem(response))
    print(f"\nforms: {len(forms)}, fields: {sum(len(form.names) for form in forms.values())}; {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures)


def test_every_query_parameter_a_page_reads_refuses_bad_values_with_a_4xx_page(world) -> None:
    client, tally = world["client"], Tally()
    _, pages = _crawl(world)
    wanted: dict[str, set[str]] = {}
    for page in pages:
        for link in page.links:
            parts = urlsplit(link)
            wanted.setdefault(parts.path, set()).update(name for name, _ in parse_qsl(parts.query))
    for name, route, pattern in page_routes():
        for parameter in HAND_READ_QUERY.get(name, []):
            for arguments in _arguments(pattern, world):
                wanted.setdefault(_url(route, arguments), set()).add(parameter)
    assert any("v" in names for names in wanted.values()), wanted
    for path, parameters in wanted.items():
        for parameter in parameters:
            for label, value in BAD_VALUES.items():
                response = client.get(f"{path}?{urlencode({parameter: value})}")
                tally.record(response.status_code, f"GET {path}?{parameter} = {label}", _problem(response))
    print(f"\nquery parameters: {sum(map(len, wanted.values()))}; {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures)


def test_every_path_argument_refuses_bad_values_with_a_4xx_page(world) -> None:
    client, tally = world["client"], Tally()
    for name, route, pattern in page_routes():
        for argument in pattern.pattern.converters:
            good = next(_arguments(pattern, world))
            for label, value in BAD_VALUES.items():
                response = client.get(_url(route, {**good, argument: value}))
                tally.record(response.status_code, f"GET {name} {argument} = {label}", _problem(response))
    print(f"\npath arguments: {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures)


PROJECT_APPS = ("games", "players", "webhooks", "notifications")


def test_the_projects_admin_pages_never_answer_5xx_to_bad_query_parameters(world) -> None:
    """The lists of every model the project registers in the admin, with each parameter their pages carry
    (search, ordering, page, each filter's) and the project's own hand-history pages, bad; for a superuser, who
    may see them all."""
    staff = get_user_model().objects.create_superuser(username="root", password=PASSWORD)
    client = Client(raise_request_exception=False)
    client.force_login(staff)
    tally = Tally()
    lists = [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
        if model._meta.app_label in PROJECT_APPS
    ]
    assert len(lists) >= 8, lists
    wanted: dict[str, set[str]] = {}
    for url in lists:
        page = Page(url)
        page.feed(client.get(url).content.decode())
        names = {name for link in page.links for name, _ in parse_qsl(urlsplit(link).query)}
        wanted[url] = names | {"q", "o", "p"}
    game = world["games"][-1]
    for url in (reverse("admin:games_game_hands", args=[game]), reverse("admin:games_game_hand", args=[game, 1])):
        assert client.get(url).status_code == 200, url
        wanted[url] = set()
    assert "player" in wanted[reverse("admin:games_game_changelist")]
    for url, parameters in wanted.items():
        for parameter in parameters:
            for label, value in BAD_VALUES.items():
                response = client.get(f"{url}?{urlencode({parameter: value})}")
                problem = None if response.status_code < 500 else f"answered {response.status_code}"
                tally.record(response.status_code, f"GET {url}?{parameter} = {label}", problem)
    print(f"\nadmin: {len(wanted)} pages, {sum(map(len, wanted.values()))} parameters; {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures)
