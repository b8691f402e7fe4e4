"""Every HTML page answers a Content-Security-Policy (settings.CONTENT_SECURITY_POLICY, django-csp): a walk of
the whole URL conf, the browser pages, the admin, the API docs, DRF's browsable API and the mail links' pages,
as a staff member and as a visitor, and Django's error pages (400, 403, 404, 500 and the CSRF failure).

Beside the header, each page is read for what the policy would block in a browser: an inline <script> or
<style> without the header's nonce, or a style attribute where styles may not be inline. The browser tests
(tests/system/browser/) then report no violation as people use the pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, include, path
from django.urls.resolvers import RegexPattern
from django.utils.regex_helper import normalize

from games.services import game_create, seat_take
from notifications.services import email_set
from notifications.services.links import confirm_token, unsubscribe_token
from palace_api.urls import handler400, handler403, handler404, handler500
from palace_api.urls import urlpatterns as project_urlpatterns

pytestmark = pytest.mark.django_db

STREAMS = {"game-stream", "my-stream", "table-stream"}
"""Event streams answer text/event-stream and stay open: not pages, and a test client would wait on them."""
ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>\w+)>")
INLINE = re.compile(r"<(script|style)\b([^>]*)>", re.IGNORECASE)
NONCE = re.compile(r"""\bnonce=["']([^"']*)["']""")


# --- the pages ---


def _raising(exc: Exception):
    def view(request: HttpRequest) -> HttpResponse:
        raise exc

    return view


urlpatterns = [
    path("test/raise-400/", _raising(SuspiciousOperation("no"))),
    path("test/raise-403/", _raising(PermissionDenied())),
    path("test/raise-500/", _raising(RuntimeError("a bug"))),
    path("", include(project_urlpatterns)),
]
__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


def pages(samples: dict[str, str]) -> list[str]:
    """Every route of the URL conf but the streams, each parameter given its value in ``samples`` (an admin's
    ``object_id``: its first row), or ``x``."""
    return sorted(
        {f"/{url}" for url, pattern in _walk(get_resolver().url_patterns, samples) if pattern.name not in STREAMS}
    )


def _walk(patterns: list, samples: dict[str, str], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, samples, prefix + _concrete(pattern.pattern, samples))
            continue
        model_admin = getattr(pattern.callback, "model_admin", None)
        if model_admin is not None:
            first = model_admin.model._default_manager.order_by("pk").first()
            samples = {**samples, "object_id": str(first.pk) if first is not None else "1"}
        yield prefix + _concrete(pattern.pattern, samples), pattern


def _concrete(pattern, samples: dict[str, str]) -> str:
    if isinstance(pattern, RegexPattern):
        template, names = normalize(pattern.regex.pattern)[0]
        return template % {name: samples.get(name, "x") for name in names}
    return ROUTE_PARAMETER.sub(lambda match: samples.get(match["name"], "x"), str(pattern))


@pytest.fixture
def staff_game(make_staff) -> tuple[Client, int]:
    """A superuser logged in, with a game under way against a bot: every page has something to show."""
    staff, _ = make_staff()
    staff.is_superuser = True
    staff.save(update_fields=["is_superuser"])
    game = game_create(creator=staff, kind="palace-poker", seats=2)
    seat_take(game_id=game.pk, player=staff)
    seat_take(game_id=game.pk, player=staff, bot="random")
    client = Client()
    client.force_login(staff)
    return client, game.pk


def assert_policy(response: HttpResponse, url: str) -> str:
    """The page's policy names 'self' alone for scripts, and every inline block carries its nonce."""
    policy = response.get("Content-Security-Policy")
    assert policy, f"{url} ({response.status_code}) answers no Content-Security-Policy"
    directives = dict((part.strip().split(" ", 1) + [""])[:2] for part in policy.split(";"))
    assert directives["default-src"] == "'self'", (url, policy)
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'", (url, policy)
    scripts = directives["script-src"].split()
    assert scripts[0] == "'self'" and all(source.startswith("'nonce-") for source in scripts[1:]), (url, policy)
    html = response.content.decode()
    styles = directives["style-src"].split()
    for tag, attributes in INLINE.findall(html):
        if (
            "src=" in attributes
            or 'type="application/json"' in attributes
            or tag.lower() == "style"
            and ("'unsafe-inline'" in styles)
        ):
            continue
        nonce = NONCE.search(attributes)
        source = scripts if tag.lower() == "script" else styles
        assert nonce and f"'nonce-{nonce[1]}'" in source, f"{url}: an inline <{tag}{attributes}> without the nonce"
    if "'unsafe-inline'" not in styles:
        assert not re.search(r"\sstyle=", html), f"{url}: a style attribute the policy refuses"
    return policy


def test_every_html_page_of_the_url_conf_answers_the_policy(staff_game, client) -> None:
    """Given every route of the URL conf with sample parameters (the staff member's game, its first rows in the
    admin), when a staff member and a visitor ask for it as a browser would, then each HTML answer, whatever its
    status, carries the policy, and its inline blocks the nonce the policy names."""
    staff, game = staff_game
    samples = {"game_id": str(game), "kind": "palace-poker", "token": "not-a-token", "step": "1", "number": "1"}
    html = []
    for who in (staff, client):
        for url in pages(samples | {"content_type_id": "1", "webhook_id": "1"}):
            response = who.get(url, HTTP_ACCEPT="text/html,*/*;q=0.8")
            if response.get("Content-Type", "").startswith("text/html"):
                assert_policy(response, url)
                html.append((url, response.status_code))
    # The walk reached the pages it is for, and found them rendered: a broken walk would check little.
    reached = {url for url, status in html if status == 200}
    for url in ("/", "/login/", "/signup/", f"/games/{game}/", "/admin/", "/admin/games/game/", "/api/docs/"):
        assert url in reached, f"{url} was not reached as an HTML page"
    assert f"/admin/games/game/{game}/hands/" in reached and "/api/redoc/" in reached and "/api/v1/me/" in reached
    assert "/admin/auth/user/add/" in reached and len(reached) >= 45, sorted(reached)


def test_the_mail_links_pages_answer_the_policy(make_player) -> None:
    """The pages a mail links to: confirm (asked, then done), unsubscribe (asked, then done) and a bad link; they
    wear the site's layout (its style sheet, no inline style) and lead back to the site."""
    alice, _ = make_player("alice")
    email_set(user=alice, address="alice@example.com")
    confirm = f"/email/confirm/{confirm_token(user_id=alice.pk, address='alice@example.com')}/"
    unsubscribe = f"/email/unsubscribe/{unsubscribe_token(user_id=alice.pk, scope='all')}/"
    client = Client()
    for method, url, status in [
        ("get", confirm, 200),
        ("post", confirm, 200),
        ("get", unsubscribe, 200),
        ("post", unsubscribe, 200),
        ("get", "/email/confirm/nonsense/", 400),
    ]:
        response = getattr(client, method)(url)
        assert response.status_code == status and response["Content-Type"].startswith("text/html"), url
        assert_policy(response, url)
        html = response.content.decode()
        assert "web/palace.css" in html and 'id="back-to-site"' in html, f"{url}: not in the site's layout"


@pytest.mark.urls(__name__)
@pytest.mark.parametrize(
    ("url", "status"),
    [("/test/raise-400/", 400), ("/test/raise-403/", 403), ("/no-such-page/", 404), ("/test/raise-500/", 500)],
)
def test_django_error_pages_answer_the_policy(settings, url: str, status: int) -> None:
    """handler400/403/404/500 outside /api/ (Django's pages, palace_api/errors/handlers.py), DEBUG off."""
    settings.DEBUG = False
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == status and response["Content-Type"].startswith("text/html")
    assert_policy(response, url)


def test_the_csrf_failure_page_answers_the_policy(make_player) -> None:
    """A form posted without its CSRF token: Django's 403 page, from the CSRF middleware itself."""
    response = Client(enforce_csrf_checks=True).post("/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403 and response["Content-Type"].startswith("text/html")
    assert_policy(response, "/login/")
    assert "CSRF verification failed" in response.content.decode()
