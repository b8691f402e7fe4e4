"""Palace Poker as PHH text (``games.engine.poker.phh``; README, "Palace Poker as PHH").

Given random Palace Poker games on the engine played to their end (every option at random, 2 to 10 seats, bots,
resignations and timeouts now and then, and the rare scenarios of tests/games/api/test_event_schema.py), when each
game's log, as each seat, a spectator and staff receive it, is written as PHH, then:

- the text is TOML (``tomllib``) with one table a hand, ``[1]`` to ``[n]``, each with PHH's required fields for its
  variant, every per-player array as long as the hand's players, and every action a PHH action notation;
- the money adds up in standard fields and actions (PHH, "Finishing Stacks", "Winnings"): a player's starting
  stack, less what the ``antes`` and the actions put in (buys, bets, calls, raises; less chips given back), plus
  his ``winnings``, is his finishing stack; the winnings are the ``_pot``; without money nothing moves;
- a ``cbr`` names the side's total in the battle (PHH's "raise to");
- the text holds no card its viewer did not receive in that hand's events: a seat sees only his own palace dealt
  (others ``??????``), a spectator none, and staff's text holds no ``??``.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import pytest

from games.engine.phrasing import Names
from games.engine.poker.options import parse_options
from games.engine.poker.phh import FORMAT, VARIANTS, phhs
from games.engine.protocol import SPECTATOR, STAFF
from tests.games.api.test_event_schema import RARE, random_scenario
from tests.games.engine.test_phrases import bot_seats, names_for, playout

POKER = "palace-poker"
GAMES = 60
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][cdhs])+(?![A-Za-z0-9])")
NOTATION = re.compile(
    r"^(d dh p\d+ (?:[2-9TJQKA][cdhs]|\?\?)+|p\d+ (?:cc|f|cbr \d+|sm (?:[2-9TJQKA][cdhs]|\?\?)+))? ?(# .*)?$"
)
PUT_IN = {"buy": "cost", "buy_discard": "cost", "bet": "amount", "call": "cost", "raise": "cost"}
"""The commentaries of actions that put chips into the pot, and the field that says how many."""


def export_of(scenario: Any, viewer: Any, steps: list[tuple[Any, ...]]) -> dict[str, Any]:
    """An export (``games.selectors.export.game_export``'s shape) of a game the engine played: each action one
    log entry, its events as ``viewer`` receives them."""
    created = datetime(2026, 11, 26, 1, 2, 3, tzinfo=UTC).isoformat().replace("+00:00", "Z")
    return {
        "id": 7,
        "kind": POKER,
        "seat_count": scenario.seats,
        "options": parse_options(scenario.options, scenario.seats).to_json(),
        "viewer": viewer,
        "complete": viewer == STAFF,
        "log": [
            {"seq": seq, "created": created, "action": {}, "events": [event.view_json(viewer) for event in events]}
            for seq, events in enumerate(steps, 1)
        ],
    }


def words(comment: str) -> tuple[str, dict[str, str]]:
    """A commentary's event type and its ``name=value`` fields."""
    parts = comment.split()
    first = 1 if re.fullmatch(r"p\d+|seat\d+", parts[0]) else 0
    return parts[first], dict(part.split("=", 1) for part in parts[first + 1 :] if "=" in part)


def check_money(hand: dict[str, Any], where: str) -> None:
    """Starting stack - antes - chips the actions put in + winnings = finishing stack; the winnings are the pot."""
    put_in = list(hand["antes"])
    battle: dict[str, int] = {}
    for action in hand["actions"]:
        head, _, comment = action.partition("# ")
        type_, fields = words(comment)
        actor = comment.split()[0]
        index = int(actor[1:]) - 1 if re.fullmatch(r"p\d+", actor) else None
        if type_ in PUT_IN and index is not None:
            put_in[index] += int(fields[PUT_IN[type_]])
        elif type_ == "chips_returned" and index is not None:
            put_in[index] -= int(fields["amount"])
        if type_ == "bet":
            battle = {actor: int(fields["amount"])}
        elif type_ in ("call", "raise"):
            battle[actor] = battle.get(actor, 0) + int(fields["cost"])
        if " cbr " in f" {head}":
            assert int(head.split()[2]) == battle[actor], (where, action)
    for start, paid, won, end in zip(
        hand["starting_stacks"], put_in, hand["winnings"], hand["finishing_stacks"], strict=True
    ):
        assert start - paid + won == end, (where, hand["starting_stacks"], put_in, hand["winnings"])
    assert sum(hand["winnings"]) == hand.get("_pot", 0), where


def hand_cards(steps: list[tuple[Any, ...]], viewer: Any) -> dict[int, set[str]]:
    """Every card code ``viewer`` receives in each hand's events (from its ``hand_started`` to the next)."""
    seen: dict[int, set[str]] = defaultdict(set)
    hand = 0
    for events in steps:
        for event in events:
            if event.type == "hand_started":
                hand = event.data["hand"]
            received = event.view_json(viewer)
            for codes in (received.get("cards") or {}).values():
                seen[hand].update(code for code in codes if code is not None)
    return seen


def check_hand(hand: dict[str, Any], options: dict[str, Any], where: str) -> None:
    """One hand's fields: PHH's required ones for its variant, arrays one element a player, actions in PHH's
    notation; once it is over, the money (or, without money, the scores)."""
    players = len(hand["players"])
    assert hand["variant"] == VARIANTS[options["betting"]] and hand["_variant"] == POKER and hand["_format"] == FORMAT
    stakes = ("small_bet", "big_bet") if options["betting"] == "limit" else ("min_bet", "_big_bet")
    for name in ("antes", "blinds_or_straddles", "starting_stacks", "actions", *stakes):
        assert name in hand, (where, name)
    for name in ("antes", "blinds_or_straddles", "starting_stacks", "seats", "_banners", "_banners_rejected"):
        assert len(hand[name]) == players, (where, name)
    assert all(NOTATION.match(action) for action in hand["actions"]), (where, hand["actions"])
    if "finishing_stacks" not in hand:
        return
    assert len(hand["finishing_stacks"]) == len(hand["winnings"]) == players, where
    if options["points"]:
        assert hand["starting_stacks"] == hand["finishing_stacks"] and not any(hand["antes"]), where
        assert len(hand["_scores"]) == players and len(hand["_points_scored"]) == players, where
    else:
        check_money(hand, where)


def check_secrets(text: str, hands: dict[str, Any], steps: list[tuple[Any, ...]], viewer: Any, where: str) -> None:
    """No card the viewer did not receive in that hand; the palace deals he may not see are ``??????``."""
    if viewer == STAFF:
        assert "??" not in text, where
        return
    seen = hand_cards(steps, viewer)
    for number, hand in hands.items():
        shown = {code for match in CARD.findall(repr(hand)) for code in re.findall("..", match)}
        assert shown <= seen[int(number)], (where, number, shown - seen[int(number)])
        for action in hand["actions"]:
            if action.endswith("palace_dealt"):
                mine = viewer != SPECTATOR and hand["seats"][int(action.split()[2][1:]) - 1] == viewer + 1
                assert ("??????" not in action) == mine, (where, action)


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_as_phh_parse_add_up_and_hide_what_each_viewer_may_not_see(seed: int) -> None:
    rare = [scenario for scenario in RARE if scenario.kind == POKER]
    scenario = rare[seed] if seed < len(rare) else random_scenario(POKER, seed)
    bots = bot_seats(scenario, random.Random(seed))
    steps = list(playout(scenario, bots))
    names = names_for(scenario.seats, bots)
    for viewer in [*range(scenario.seats), SPECTATOR, STAFF]:
        export = export_of(scenario, viewer, steps)
        text = phhs(export, names)
        where = f"{scenario} as {viewer!r}"
        hands = tomllib.loads(text)
        assert list(hands) == [str(number) for number in range(1, len(hands) + 1)] and hands, where
        for hand in hands.values():
            check_hand(hand, export["options"], where)
            assert hand["time"].isoformat() == "01:02:03" and hand["year"] == 2026 and hand["day"] == 26
            assert hand["players"] == [names(seat - 1) for seat in hand["seats"]], where
        check_secrets(text, hands, steps, viewer, where)


def test_a_name_or_a_hand_with_quotes_stays_toml() -> None:
    """Players' names are free text: a quote, an apostrophe or a backslash in one is escaped, not TOML's end."""
    scenario = random_scenario(POKER, 3)
    steps = list(playout(scenario, {}))
    names = Names({seat: f'o\'neil "{seat}" \\' for seat in range(scenario.seats)})
    hands = tomllib.loads(phhs(export_of(scenario, STAFF, steps), names))
    assert all(name.startswith("o'neil \"") for hand in hands.values() for name in hand["players"])


def test_a_game_stored_with_fewer_options_is_written_with_the_engines_defaults() -> None:
    """A game stored before an option existed holds only some of them: the text reads the rest as the engine
    does (its defaults), where a missing key used to end the request in a KeyError."""
    names = names_for(3, {})
    for seed in range(6):
        scenario = random_scenario(POKER, seed)
        export = export_of(scenario, STAFF, list(playout(scenario, {})))
        defaults = parse_options({}, scenario.seats).to_json()
        stored = {key: value for key, value in export["options"].items() if defaults.get(key) != value}
        full = tomllib.loads(phhs(export, names))
        short = tomllib.loads(phhs({**export, "options": stored}, names))
        for hand in [*full.values(), *short.values()]:
            del hand["_options"]
        assert short == full, scenario
