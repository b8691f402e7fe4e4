"""Every page and mail that tells what happened says it in the game's own words (its phrase table, through
``games.engine.registry``): the table's log, the whole-log page, the replay, the admin's hand histories and
event log, and the finished-game mail.

Given random games of both kinds played through the services (tests/games/selectors/test_redaction.py's
``play_audited``: every option at random, 2 to 5 seats, a bot seat now and then, expired deadlines, resignations,
absent seats resigned or handed to the bot), when each seated player, a spectator and staff read the log page,
replay steps and the table's latest lines, staff read the admin's pages, and each seat's finished mail is made,
then every line is the game's phrase of that event as that viewer receives it, and none holds ``?``, ``None``, a
snake_case code, or a card listed twice; the table numbers its latest lines with the log's own step numbers.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from games.engine.protocol import SPECTATOR
from games.engine.registry import KINDS
from games.models import Game
from games.selectors.hand_history import hand_histories
from games.selectors.read_models import game_events, game_get, game_seats, viewer_for
from games.selectors.words import game_outcome, log_lines, seat_names
from tests.games.selectors.test_redaction import play_audited
from web.views.table import LOG_LINES

GAMES_PER_KIND = 2
REPLAY_STEPS = 12
"""Replay steps read per viewer and game, spread over the game (each replays the game from its start)."""
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
LOG = re.compile(r'<ol class="log[^"]*"[^>]*>(.*?)</ol>', re.S)
LATEST = re.compile(r'aria-label="Latest events".*?<ol[^>]*>(.*?)</ol>', re.S)


def clean(text: str, where: str) -> None:
    for bad in ("?", "None", "{", "}"):
        assert bad not in text, f"{where}: {bad!r} in {text!r}"
    assert not SNAKE.search(text), f"{where}: a code in {text!r}"


def read(item: str) -> str:
    """An item's text as a person reads it: tags dropped (a card reads as its face, ``A♠``), spaces joined."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", item)).split())


def page_lines(page: str) -> list[str]:
    """The log's lines as a person reads them."""
    (log,) = LOG.findall(page)
    texts = [read(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", log, re.S)]
    return [re.sub(r"^step \d+: ", "", text) for text in texts]


def expected(game: Game, user: Any) -> list[Any]:
    """The game's lines for ``user`` as the web shows them (staff see the table as a spectator does)."""
    entries = game_events(game, user, after=0, limit=10_000, public_only=True)["results"]
    return log_lines(game.kind, entries, seat_names(game_seats(game)))


def check_lines(lines: list[Any], where: str) -> None:
    for line in lines:
        clean(line.text, where)
        assert len(line.cards) == len(set(line.cards)), f"{where}: a card listed twice in {line.text!r}"


def log_page_reads_the_phrases(client: Client, game: Game, user: Any, where: str) -> int:
    lines = expected(game, user)
    check_lines(lines, where)
    events = sum(len(entry.get("events", [])) for entry in game_events(game, user, after=0, limit=10_000)["results"])
    assert len(lines) >= events, f"{where}: an event without its line"
    page = client.get(f"/games/{game.pk}/log/")
    assert page.status_code == 200
    assert page_lines(page.content.decode()) == [" ".join(line.text.split()) for line in lines], where
    return len(lines)


def table_numbers_the_latest_lines_as_the_log_does(client: Client, game: Game, user: Any, where: str) -> None:
    """The table's "What happened": the log's latest lines, newest first, each numbered with its log entry's
    step number, the number the whole-log page and the replay give it (not counted again from 1)."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    (latest,) = LATEST.findall(page)
    shown = [(int(seq), read(item)) for seq, item in re.findall(r'<li value="(\d+)">(.*?)</li>', latest, re.S)]
    lines = [(line.seq, " ".join(line.text.split())) for line in reversed(expected(game, user))]
    assert shown and shown == lines[:LOG_LINES], where


def replay_reads_the_phrases(client: Client, game: Game, user: Any, where: str) -> None:
    step_lines = {line.seq: [] for line in expected(game, user)}
    for line in expected(game, user):
        step_lines[line.seq].append(" ".join(line.text.split()))
    steps = sorted({*range(1, game.version + 1, max(1, game.version // REPLAY_STEPS)), game.version})
    for step in steps:
        page = client.get(f"/games/{game.pk}/replay/{step}/")
        assert page.status_code == 200, f"{where}: replay step {step}"
        shown = page_lines(page.content.decode())
        assert shown == (step_lines.get(step) or ["Chance shuffles the cards."]), f"{where}: replay step {step}"


def admin_reads_the_phrases(client: Client, game: Game, where: str) -> None:
    hands = hand_histories(game)
    assert hands, f"{where}: no hand"
    for hand in hands:
        page = client.get(f"/admin/games/game/{game.pk}/hands/{hand.number}/").content.decode()
        clean(hand.result, where)
        assert escape(hand.result) in page, where
        steps = getattr(hand, "steps", None) or [step for turn in hand.turns for step in turn.steps]
        for step in [*steps, *hand.dealer_draw]:
            clean(step.text, f"{where}, hand {hand.number}")
            assert len(step.cards) == len(set(step.cards)) or game.options.get("decks") == 2, step.text
            assert escape(step.text) in page, f"{where}: {step.text!r} not on the hand page"
    log = client.get(f"/admin/games/event/?game__id__exact={game.pk}")
    assert log.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_pages_admin_replay_and_mails_say_every_event_in_the_games_words(kind: str, make_staff) -> None:
    staff, _ = make_staff()
    admin = Client()
    admin.force_login(staff)
    lines = 0
    for seed in range(GAMES_PER_KIND):
        audit = play_audited(kind, seed)
        game = game_get(audit.game_id)
        assert game.status == "finished"
        people = {
            **{seat: user for seat, user in audit.users.items() if seat != SPECTATOR},
            "spectator": audit.users[SPECTATOR],
            "staff": staff,
        }
        for who, user in people.items():
            client = Client()
            client.force_login(user)
            where = f"{kind} game {game.pk} for {who}"
            lines += log_page_reads_the_phrases(client, game, user, where)
            replay_reads_the_phrases(client, game, user, where)
            table_numbers_the_latest_lines_as_the_log_does(client, game, user, where)
            if isinstance(who, int):
                outcome = game_outcome(game, viewer_for(game, user))
                assert outcome and any(line.startswith("The ") for line in outcome), where
                for line in outcome:
                    clean(line, where)
        admin_reads_the_phrases(admin, game, f"{kind} game {game.pk} in the admin")
    assert lines > GAMES_PER_KIND * 50
