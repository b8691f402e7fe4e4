"""The table is never stale (issue 28), on Django's live server, where the page polls (a WSGI server cannot hold an
event stream open: test_live_stream.py covers the stream under uvicorn): a bot answering at once, many times in a
row; the network dropped for 5 s mid-game; a click that lost a race; a choice half made kept through a swap; the
your-turn signals.

The bot answers through the real Celery worker on the configured broker (Redis in CI, as deployed; the embedded
broker without ``CELERY_BROKER_URL``)."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Max

from games.engine.bots import get_bot
from games.models import Event, Seat
from games.selectors.read_models import game_get
from games.selectors.state import engine_of, game_state
from games.services import action_submit_idempotent, game_create, seat_take
from tests.system.browser.conftest import sign_up, wait_until
from tests.system.browser.play import (
    MOVE_MS,
    SHOWN_AT,
    SHOWS_AT_LEAST,
    Latest,
    Record,
    catch_up,
    play_against_bot,
    version,
)
from web.errors import RACE_WORDS

PASSWORD = "a long test password 42"  # noqa: S105
ANSWERS = 50
"""Bot answers in a row the polling page must keep up with: the fallback of a page whose stream cannot be had
(test_live_stream.py makes the 200 of issue 28's Done when on each broker, as deployed: following the stream)."""
OFFLINE_SECONDS = 5


def _bot_game(user: Any) -> int:
    """A started game of Palace (the shedding game): ``user`` in seat 0, the basic bot in seat 1."""
    game = game_create(creator=user, kind="palace", seats=2, options={"max_turns": 200})
    seat_take(game_id=game.pk, player=user)
    seat_take(game_id=game.pk, player=user, bot="basic")
    return game.pk


def _latest(game_id: int):
    """The server's side of ``game_id`` (``play.Latest``), read from the database."""
    bots = list(Seat.objects.filter(game_id=game_id).exclude(bot="").values_list("number", flat=True))

    def latest(before: int) -> Latest:
        game = game_get(game_id)
        entries = Event.objects.filter(game_id=game_id)
        at = entries.aggregate(at=Max("created"))["at"]
        answers = entries.filter(seq__gt=before, actor__in=bots).count()
        return Latest(version=game.version, at=at.timestamp(), status=game.status, bot_entries=answers)

    return latest


def _decide_elsewhere(user: Any, game_id: int, seat: int = 0) -> None:
    """The decision of ``user`` in ``seat`` made from elsewhere (another tab, a program with his token): the basic
    policy's."""
    game = game_get(game_id)
    engine = engine_of(game)
    view = engine.view(game_state(game), seat)
    choice = get_bot("palace", "basic").choose(view, random.Random(1))
    body = {key: choice[key] for key in ("type", "cards", "target", "amount") if choice.get(key) is not None}
    action_submit_idempotent(
        user=user, game_id=game_id, body={**body, "expected_version": game.version}, idempotency_key=None
    )


IN_FLIGHT = """
window.__inFlight = 0;
const send = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.send = function (...args) {
  window.__inFlight += 1;
  this.addEventListener("loadend", () => { window.__inFlight -= 1; });
  return send.apply(this, args);
};
"""
"""An init script (``context.add_init_script``): ``window.__inFlight``, how many of the page's requests (htmx's, each
of which may bring a table) have not ended, counted in the page itself."""


def _answered(page: Any) -> None:
    """Wait until every request the page sent has ended (``IN_FLIGHT``): one sent before the page was cut off and
    answered after a decision made meanwhile would show the new table. Counted in the page, not from Playwright's
    request events, which reach the test later than the page sends (a request missed that way once showed the
    new table in a loaded run)."""
    wait_until(lambda: page.evaluate("window.__inFlight") == 0, what="the page's requests to end")


def _page(browser: Any, server: str, name: str, **options: Any) -> tuple[Any, Any, Any]:
    context = browser.new_context(**options)
    context.add_init_script(SHOWN_AT)
    context.add_init_script(IN_FLIGHT)
    page = context.new_page()
    sign_up(page, server, name, PASSWORD)
    return context, page, get_user_model().objects.get(username=name)


def test_the_polling_page_keeps_up_with_a_bot_answering_at_once(server, browser, worker):
    """Given a person plays the basic bot, when the bot answers each decision at once, ANSWERS times in a row
    (over as many games as that takes), then each time the page shows the server's version within 3 s of its
    writing."""
    _, page, user = _page(browser, server, "fran")
    record = Record()
    started = time.monotonic()
    while record.answers < ANSWERS:
        assert time.monotonic() - started < 600, f"too slow: {record.summary()}"
        page.goto(f"{server}/games/{_bot_game(user)}/")
        play_against_bot(page, _latest(page_game(page)), answers=ANSWERS, record=record)
    print(f"polling: {record.summary()} in {time.monotonic() - started:.0f} s")


def page_game(page: Any) -> int:
    return int(page.url.rstrip("/").split("/")[-1])


def test_the_page_catches_up_after_the_network_drops_for_5_s(server, browser, worker):
    """Given a person at the table with her decision due, when her network drops for 5 s while she decides from
    elsewhere and the bot answers, then within 3 s of the network's return the page shows the server's version."""
    context, page, user = _page(browser, server, "gina")
    game_id = _bot_game(user)
    page.goto(f"{server}/games/{game_id}/")
    latest = _latest(game_id)
    record = Record()
    play_against_bot(page, latest, answers=3, record=record)
    catch_up(page, latest, record)
    page.wait_for_selector("#table[data-turn=mine]")
    context.set_offline(True)
    # A request sent before the network dropped may still get its answer (it failed once in CI, answered after
    # the decision below): let it end first.
    _answered(page)
    shown = version(page)
    _decide_elsewhere(user, game_id)
    page.wait_for_timeout(OFFLINE_SECONDS * 1000)
    assert version(page) == shown, "the page moved while offline"
    assert game_get(game_id).version > shown, "nothing happened while the page was offline"
    context.set_offline(False)
    back = time.time()
    page.wait_for_function(
        "([v]) => Number(document.getElementById('table').dataset.version) >= v",
        arg=[game_get(game_id).version],
        timeout=3_000,
    )
    print(f"caught up {time.time() - back:.3f} s after the network came back")


def test_a_click_that_lost_a_race_shows_the_new_table_and_a_sentence(server, browser, worker):
    """Given the page shows the player's decision due at version v, when the game moves on before the click
    arrives (she decided from elsewhere, the bot answered, her decision is due again), then the click's answer is
    the table now with a sentence in a player's words: no version number, no code."""
    _, page, user = _page(browser, server, "hana")
    game_id = _bot_game(user)
    page.goto(f"{server}/games/{game_id}/")
    record = Record()
    play_against_bot(page, _latest(game_id), answers=2, record=record)
    catch_up(page, _latest(game_id), record)
    page.wait_for_selector("#table[data-turn=mine]")
    page.route("**/live/**", lambda route: route.abort())  # the page hears nothing of what follows
    _answered(page)  # ... once a request sent before the route has its answer
    shown = version(page)
    _decide_elsewhere(user, game_id)
    deadline = time.monotonic() + 20
    # Her decision due and the bot's done: seat 0 alone may act (a bot may also play out of turn, and would then
    # move the game on once more while the click is on its way).
    while list(Seat.objects.filter(game_id=game_id, to_act=True).values_list("number", flat=True)) != [0]:
        assert time.monotonic() < deadline, "the bot did not answer"
        time.sleep(0.05)
    assert version(page) == shown
    with page.expect_response(lambda answer: answer.url.endswith("/act/")):
        page.click("button[data-action]")
    page.wait_for_selector("#error")
    sentence = page.inner_text("#error")
    assert sentence == RACE_WORDS, sentence
    assert version(page) == game_get(game_id).version > shown
    assert not re.search(r"\d", sentence) and "version" not in page.inner_text("#table").lower()


MOVED_OR_REFUSED = """([shown]) => Number(document.getElementById("table").dataset.version) > shown
  || !!document.getElementById("error")"""


def _two_people_game(creator: Any, **options: Any) -> tuple[Any, Any]:
    """A started game of Palace (the shedding game): ``creator`` in seat 0, dave in seat 1 (made here); ``options``
    beside the stalemate limit. Returns the game and dave."""
    dave = get_user_model().objects.create_user(username="dave", password=PASSWORD)
    game = game_create(creator=creator, kind="palace", seats=2, options={"max_turns": 200, **options})
    seat_take(game_id=game.pk, player=creator)
    seat_take(game_id=game.pk, player=dave)
    return game, dave


def _ticked(page: Any) -> list[str]:
    """The cards ticked on the page's table, sorted."""
    return sorted(page.eval_on_selector_all("#table input.pick:checked", "boxes => boxes.map(box => box.value)"))


def test_a_choice_half_made_survives_the_other_players_move_and_a_refusal(server, browser):
    """Given carol has ticked cards for her face-up choice, when dave's choice moves the game on (her page swaps in
    the new table) and when her click is refused (four cards, not three), then the cards she ticked are still
    ticked; once her decision is taken, nothing is."""
    _, page, carol = _page(browser, server, "carol")
    game, dave = _two_people_game(carol)
    page.goto(f"{server}/games/{game.pk}/")
    page.wait_for_selector("button[data-action=choose_face_up]")
    for label in page.query_selector_all("#table .choice label")[:4]:
        label.click()
    ticked = _ticked(page)
    assert len(ticked) == 4
    shown = version(page)

    _decide_elsewhere(dave, game.pk, seat=Seat.objects.get(game_id=game.pk, player=dave).number)
    page.wait_for_function(SHOWS_AT_LEAST, arg=[shown + 1], timeout=MOVE_MS)
    assert page.query_selector("button[data-action=choose_face_up]"), "carol's choice is still due"
    assert _ticked(page) == ticked, "dave's move undid carol's ticks"

    with page.expect_response(lambda answer: answer.url.endswith("/act/")):
        page.click("button[data-action=choose_face_up]")
    page.wait_for_selector("#error")
    assert _ticked(page) == ticked, "the refusal undid carol's ticks"

    page.click(f"#table .choice label[data-card='{ticked[0]}']")
    with page.expect_response(lambda answer: answer.url.endswith("/act/")):
        page.click("button[data-action=choose_face_up]")
    page.wait_for_function(SHOWS_AT_LEAST, arg=[shown + 2], timeout=MOVE_MS)
    assert page.query_selector("#error") is None, page.inner_text("#error")
    assert _ticked(page) == []


def test_a_card_left_ticked_does_not_spoil_a_pick_up(server, browser):
    """Given carol may play or pick up the pile (``must_play_if_able`` off) and has ticked a card, when she clicks
    "Pick up" instead, then she picks up the pile: the ticked card goes only with a control that takes cards."""
    _, page, carol = _page(browser, server, "carol")
    game, _ = _two_people_game(carol, must_play_if_able=False)
    players = {seat.number: seat.player for seat in Seat.objects.filter(game_id=game.pk)}
    mine = next(number for number, player in players.items() if player == carol)
    for _ in range(50):  # bounded: decisions made elsewhere until carol may both play and pick up
        now = game_get(game.pk)
        view = engine_of(now).view(game_state(now), mine)
        offered = {action["type"] for action in view["legal_actions"]}
        if mine in view["to_act"] and {"play", "pick_up"} <= offered:
            break
        seat = view["to_act"][0]
        _decide_elsewhere(players[seat], game.pk, seat=seat)
    else:
        raise AssertionError("carol was never offered both a play and a pick-up")
    page.goto(f"{server}/games/{game.pk}/")
    shown = version(page)
    page.click("#table .choice label")
    assert len(_ticked(page)) == 1
    with page.expect_response(lambda answer: answer.url.endswith("/act/")):
        page.click("button[data-action=pick_up]")
    page.wait_for_function(MOVED_OR_REFUSED, arg=[shown], timeout=MOVE_MS)
    assert page.query_selector("#error") is None, page.inner_text("#error")
    assert version(page) > shown


SIGNALS = """
window.__notes = [];
window.__hidden = false;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
class FakeNotification {
  constructor(title, options) { window.__notes.push(`${title}: ${(options && options.body) || ""}`); }
  static requestPermission() { FakeNotification.permission = "granted"; return Promise.resolve("granted"); }
}
FakeNotification.permission = "default";
window.Notification = FakeNotification;
"""
"""An init script: the browser's notifications recorded in ``window.__notes`` (the permission granted when asked),
and ``document.hidden`` as the test sets ``window.__hidden`` (a headless tab is never hidden)."""


def _tab_to(page: Any, element_id: str) -> None:
    """Press Tab until ``element_id`` has the focus (at most 60 times): it is reachable by keyboard."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.id") == element_id:
            return
    raise AssertionError(f"#{element_id} cannot be reached with Tab")


def test_your_turn_shows_in_the_tab_and_notifies_when_asked(server, browser, worker):
    """Given a person at the table, when her decision is due, then the tab's title begins "Your turn", its icon
    wears the badge, and the time left is in words; when she turns notifications on (by keyboard: Tab, Enter; the
    permission is asked for on that press only) and her decision becomes due while the tab is hidden, then the
    browser shows a notification naming the table."""
    context = browser.new_context()
    context.add_init_script(SIGNALS)
    page = context.new_page()
    sign_up(page, server, "kate", PASSWORD)
    user = get_user_model().objects.get(username="kate")
    game_id = _bot_game(user)
    page.goto(f"{server}/games/{game_id}/")
    page.wait_for_selector("#table[data-turn=mine]")
    page.wait_for_function("() => document.title.startsWith('Your turn')")
    assert page.get_attribute("#favicon", "href").endswith("favicon-turn.svg")
    if page.query_selector("#deadline"):
        assert re.fullmatch(r"\d+ (seconds?|minutes?) left|due by .+", page.inner_text("#deadline").strip())
    assert page.evaluate("() => Notification.permission") == "default", "asked for before any click"

    _tab_to(page, "turn-sound")
    page.keyboard.press("Enter")
    assert page.get_attribute("#turn-sound", "aria-pressed") == "true"
    _tab_to(page, "turn-notify")
    page.keyboard.press("Enter")
    page.wait_for_selector("#turn-notify[aria-pressed=true]")
    assert "tell you" in page.inner_text("#turn-signals-status")

    page.evaluate("() => { window.__hidden = true; }")
    shown = version(page)
    _decide_elsewhere(user, game_id)
    page.wait_for_function(
        "([v]) => { const t = document.getElementById('table'); return t.dataset.version > v && t.dataset.turn; }",
        arg=[shown],
    )
    page.wait_for_function("() => window.__notes.length > 0")
    assert page.evaluate("() => window.__notes")[0].startswith(f"Your turn: Palace #{game_id}")
