"""Playing Palace (the shedding game) against a bot through the page, and measuring how far the page lags the
server: shared by the browser tests on Django's live server (polling) and under uvicorn (the event stream)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Error as PlaywrightError

LAG_SECONDS = 3.0
"""How long after the server's change the page must show it (issue 28, Done when)."""
MOVE_MS = 20_000
"""How long one decision and the bot's answer may take, whatever the page: a bound, never a wait."""

MY_TURN_AFTER = """([before]) => {
  const table = document.getElementById("table");
  if (!table) return false;
  const moved = Number(table.dataset.version) > before;
  return (moved && (table.dataset.turn === "mine" || table.dataset.status === "finished"))
    || !!table.querySelector("#error");
}"""
"""The page shows a version past ``before`` where the player decides again (or the game is over), or a refusal."""

SHOWS_AT_LEAST = "([version]) => Number(document.getElementById('table').dataset.version) >= version"


@dataclass(frozen=True)
class Latest:
    """The server's side: ``version`` of the game, ``at`` (epoch seconds) when its last entry was written,
    ``status``, and ``bot_entries``: how many entries a bot wrote after the version asked about."""

    version: int
    at: float
    status: str
    bot_entries: int


@dataclass
class Record:
    """What a run measured: ``lags`` (seconds from the server's last entry to the page showing it, once per
    decision of the player), ``answers`` (bot entries), ``decisions`` (the player's clicks that moved the game)."""

    lags: list[float] = field(default_factory=list)
    answers: int = 0
    decisions: int = 0
    measured: set[int] = field(default_factory=set)

    def summary(self) -> str:
        ordered = sorted(self.lags) or [0.0]
        return (
            f"{self.answers} bot answers to {self.decisions} decisions; page lag median "
            f"{ordered[len(ordered) // 2]:.3f} s, max {ordered[-1]:.3f} s"
        )


def version(page: Any) -> int:
    return int(page.get_attribute("#table", "data-version"))


DECIDE = """([avoid, tried]) => {
  document.getElementById("error")?.remove();
  const table = document.getElementById("table");
  const button = (type) => table.querySelector(`button[data-action='${type}']`);
  const choices = [...table.querySelectorAll(".choice input")];
  let type = "pick_up";
  if (button("choose_face_up")) {
    choices.slice(0, 3).forEach((input) => { input.checked = true; });
    type = "choose_face_up";
  } else if (button("play") && !avoid.includes("play") && choices.length) {
    choices[0].checked = true;
    type = "play";
  } else if (button("play_face_down")) {
    type = "play_face_down";
  }
  if (!button(type) && button("play") && choices.length > tried) {
    // Nothing else to do (no pile to pick up): the next card, the ones before it having been refused.
    choices.forEach((input, index) => { input.checked = index === tried; });
    type = "play";
  }
  if (!button(type)) return null;
  button(type).click();
  return type;
}"""
"""One decision of Palace (the shedding game) made in the page, as a player would with the mouse, in one round
trip: choose face-up cards, play the first card that may be played, turn over a face-down card, or pick up the
pile (``avoid``: decisions just refused); when a play was refused and nothing else may be done, the next card
(``tried``: plays refused so far this turn). The previous refusal's sentence is removed first. Returns the type."""


SHOWN_AT = """
window.__shownAt = {};
const mark = () => {
  const table = document.getElementById("table");
  if (table && !(table.dataset.version in window.__shownAt)) window.__shownAt[table.dataset.version] = Date.now();
};
document.addEventListener("DOMContentLoaded", mark);
document.addEventListener("htmx:afterSwap", mark);
"""
"""An init script (``context.add_init_script``): ``window.__shownAt[v]``, when (epoch ms) the page first showed
version ``v``; the test compares it with when the server wrote it (the same machine's clock)."""

FIRST_SHOWN = "([version]) => Math.min(...Object.entries(window.__shownAt).filter(([v]) => Number(v) >= version)\
.map(([, at]) => at))"


def catch_up(page: Any, latest: Callable[[int], Latest], record: Record, now: Latest | None = None) -> Latest:
    """Wait (in the page, on its own events) until it shows the server's version; assert it showed it at most
    ``LAG_SECONDS`` after the server wrote it, and record the lag. Returns the server's side compared: ``now`` if
    given (read just before), else read from the entries after the page's version (a short read of the log's tail)."""
    if now is None:
        now = latest(version(page))
    try:
        page.wait_for_function(SHOWS_AT_LEAST, arg=[now.version], timeout=MOVE_MS)
    except PlaywrightError as error:
        raise AssertionError(f"the page stayed at version {version(page)}, the server at {now.version}") from error
    if now.version not in record.measured:
        record.measured.add(now.version)
        lag = page.evaluate(FIRST_SHOWN, [now.version]) / 1000 - now.at
        record.lags.append(lag)
        assert lag <= LAG_SECONDS, f"the page showed version {now.version} {lag:.2f} s after the server wrote it"
    return now


def play_against_bot(page: Any, latest: Callable[[int], Latest], *, answers: int, record: Record) -> bool:
    """Decide through the page each time it is the player's turn, until the bot has answered ``answers`` times
    in all (``record.answers``) or the game is over (returns whether it is). Each time, first the page must show
    the server's version within ``LAG_SECONDS`` of it (``catch_up``)."""
    refused: frozenset[str] = frozenset()
    tried = 0
    read: Latest | None = None  # the server's side read after the last decision, still current (the player's turn)
    while record.answers < answers:
        server = catch_up(page, latest, record, read)
        read = None
        if server.status == "finished":
            return True
        before = version(page)
        if page.get_attribute("#table", "data-turn") != "mine":
            # The bot decides first (or at the same time, the setup's face-up cards): the page shows it by itself.
            page.wait_for_function(MY_TURN_AFTER, arg=[before], timeout=MOVE_MS)
            continue
        choice = page.evaluate(DECIDE, [sorted(refused), tried])
        assert choice, "no decision on the page"
        page.wait_for_function(MY_TURN_AFTER, arg=[before], timeout=MOVE_MS)
        if version(page) == before:
            refused = refused | {choice}  # a rule refused it (no card of the hand beats the pile): another one
            tried += choice == "play"
            continue
        refused = frozenset()
        tried = 0
        record.decisions += 1
        read = latest(before)
        record.answers += read.bot_entries
    return False
