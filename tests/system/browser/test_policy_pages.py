"""The pages that are not the game's own, used under the Content-Security-Policy in chromium: the admin, the API
docs (Swagger UI and Redoc), DRF's browsable API, a mail link's page and an error page. The browser fixture fails
the test on any violation; the tests here check that each page also did its work (a policy that broke a page
would report no violation for what never ran)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.services import game_create, seat_take
from tests.system.browser.conftest import STEP_SECONDS

PASSWORD = "a long staff password 42"  # noqa: S105  (a test account's password)
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
"""The one thing a page of the project asks from elsewhere: Redoc's bundle draws Redocly's logo from its CDN (and
hides it when it fails to load). The policy refuses it, as it should."""


def test_the_admin_pages_work_under_the_policy(server, browser, worker) -> None:
    """Given a superuser and a game against a bot, when he logs in to the admin and opens the game, its hands and
    the form that adds a user, then each page shows what it is for, and the policy refuses nothing."""
    staff = get_user_model().objects.create_superuser(username="root", password=PASSWORD)
    game = game_create(creator=staff, kind="palace-poker", seats=2)
    seat_take(game_id=game.pk, player=staff)
    seat_take(game_id=game.pk, player=staff, bot="random")
    page = browser.new_page()
    page.goto(f"{server}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{server}/admin/")
    for path, shows in [
        (f"/admin/games/game/{game.pk}/change/", "#content h1"),
        (f"/admin/games/game/{game.pk}/hands/", ".review"),
        ("/admin/auth/user/add/", "#id_password1"),
    ]:
        page.goto(server + path)
        page.wait_for_selector(shows, timeout=STEP_SECONDS * 1000)
    # The admin's own script ran: its sidebar toggle is there (nav_sidebar.js adds its behaviour).
    page.goto(f"{server}/admin/games/game/")
    page.wait_for_selector("#toggle-nav-sidebar", timeout=STEP_SECONDS * 1000)
    page.click("#toggle-nav-sidebar")
    page.wait_for_function("() => localStorage.getItem('django.admin.navSidebarIsOpen') !== null")


def test_the_api_docs_work_under_the_policy(server, browser) -> None:
    """Given the API docs, when a visitor opens Swagger UI and unfolds an operation, and opens Redoc, then both
    draw the schema's operations, and the policy refuses nothing but Redocly's logo from elsewhere."""
    page = browser.new_page()
    page.goto(f"{server}/api/docs/")
    page.wait_for_function("() => document.querySelectorAll('.opblock').length >= 20", timeout=STEP_SECONDS * 1000)
    page.click(".opblock-summary >> nth=0")
    page.wait_for_selector(".opblock-body", timeout=STEP_SECONDS * 1000)
    browser.expect_violation(REDOC_LOGO)
    page.goto(f"{server}/api/redoc/")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-item-id]').length >= 20", timeout=STEP_SECONDS * 1000
    )
    # Redoc draws the logo once its sidebar is mounted; the violation's report follows (bounded: 100 x 0.1 s).
    for _ in range(100):
        if any(REDOC_LOGO in text for text in browser.violations):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("Redoc asked for nothing from elsewhere: REDOC_LOGO is out of date")


def test_the_browsable_api_and_plain_pages_work_under_the_policy(server, browser) -> None:
    """Given a person logged in on the site, when he opens an API path in the browser, a mail link that is not
    valid and a path that does not exist, then each shows its page, and the policy refuses nothing."""
    get_user_model().objects.create_user(username="ann", password=PASSWORD)
    page = browser.new_page()
    page.goto(f"{server}/login/")
    page.fill("#id_username", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server}/")
    page.goto(f"{server}/api/v1/me/")
    page.wait_for_selector(".response-info", timeout=STEP_SECONDS * 1000)
    assert '"name": "ann"' in page.inner_text(".response-info")
    assert page.goto(f"{server}/email/confirm/nonsense/").status == 400
    assert page.goto(f"{server}/no-such-page/").status == 404
