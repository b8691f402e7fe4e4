"""Exports (``games.selectors.export``) and their verifier (``games.engine.verify``, ``tools/verify_palace.py``).

Given random games of both kinds played to their end through the services (a human at seat 0 with his own seed,
random bots elsewhere), when each is exported as that player and as staff, then the verifier accepts both, and
rejects, naming it, an export with one byte of a seed changed, one card of a shuffle changed, or two log entries
swapped. Before the end, a player's export holds no seed and no card he may not know (the redaction audit of
tests/games/selectors/test_redaction.py covers the rest of the reads).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games.engine.fairness import commitment
from games.engine.master_seed import master_draw
from games.engine.verify import Mismatch, verify
from games.models import Game
from games.selectors.export import game_export, player_games
from games.selectors.read_models import game_detail, game_get
from games.services.actions import action_submit
from games.services.games import game_create, seat_take
from games.services.turns import bot_move
from players.models import Player
from players.services import player_register
from tests.games.selectors.test_redaction import random_body

ROOT = Path(__file__).resolve().parents[3]
GAMES = [
    ("palace-poker", {"max_hands": 2, "starting_stack": 40, "small_bet": 2}, 3),
    ("palace-poker", {"max_hands": 2, "reveal_seeds": "hand", "first_dealer": 0}, 2),
    ("palace", {"max_turns": 200}, 3),
    ("palace", {"decks": 2, "max_turns": 200}, 4),
]


def staff_user() -> Any:
    user, _ = player_register(name=f"staff{random.randrange(10**6)}")
    user.is_staff = True
    user.save()
    Player.objects.filter(user=user).delete()
    return user


def play(kind: str, options: dict[str, Any], seats: int, name: str, *, stop_at: int | None = None) -> tuple[Game, Any]:
    """A match with a human at seat 0 (seed ``c0ffee00``) and random bots, to its end or ``stop_at`` decisions."""
    rng = random.Random(name)
    human, _ = player_register(name=name)
    game = game_create(creator=human, kind=kind, seats=seats, options=options)
    seat_take(game_id=game.pk, player=human, seat=0, seed="c0ffee00")
    for seat in range(1, seats):
        seat_take(game_id=game.pk, player=human, seat=seat, bot="random")
    for _ in range(stop_at if stop_at is not None else 5000):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            break
        detail = game_detail(game_get(game.pk), human)
        if detail["legal_actions"]:
            body = random_body(rng.choice(detail["legal_actions"]), rng)
            action_submit(user=human, game_id=game.pk, expected_version=game.version, **body)
        else:
            assert bot_move(game_id=game.pk, version=game.version)
    return game_get(game.pk), human


def seeded_entry(export: dict[str, Any]) -> dict[str, Any]:
    return next(entry for entry in export["log"] if "seeds" in (entry.get("action") or {}))


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "options", "seats"), GAMES)
def test_exports_of_finished_games_verify_and_each_alteration_is_named(kind, options, seats) -> None:
    game, human = play(kind, options, seats, f"exp{kind[:3]}{seats}{len(options)}")
    assert game.status == "finished"
    staff = game_export(game, staff_user())
    mine = game_export(game, human)
    assert staff["complete"] and mine["complete"] and mine["viewer"] == 0
    assert all(deal["server_seed"] and deal["revealed_at"] for deal in mine["deals"])
    assert mine["deals"][0]["players"][0] == "c0ffee00" and 0 not in mine["deals"][0]["drawn"]
    for export in (staff, mine):
        report = verify(json.loads(json.dumps(export)))
        assert report.complete and report.entries > 5 and report.shuffles >= 2 and report.revealed == report.deals
        assert report.master == "checked" and export["master"]["seed"] == game.seed_master

    master = copy.deepcopy(mine)
    master["master"]["seed"] = ("0" if master["master"]["seed"][0] != "0" else "1") + master["master"]["seed"][1:]
    with pytest.raises(Mismatch, match="the revealed master seed does not match its commitment"):
        verify(master)

    # A deal whose seeds the server drew afresh (as before master seeds), every other check passing: named.
    fresh = copy.deepcopy(mine)
    fresh["master"] = {**fresh["master"], "seed": "ab" * 32, "salt": "cd" * 16}
    fresh["master"]["commitment"] = commitment("ab" * 32, "cd" * 16)
    with pytest.raises(Mismatch, match=r"the server seed of deal \d+ is not the one the master seed gives"):
        verify(fresh)

    seed = copy.deepcopy(staff)
    seeds = seeded_entry(seed)["action"]["seeds"]
    seeds["server_seed"] = ("0" if seeds["server_seed"][0] != "0" else "1") + seeds["server_seed"][1:]
    with pytest.raises(Mismatch, match="server seed of deal .* does not match its commitment"):
        verify(seed)

    card = copy.deepcopy(staff)
    order = seeded_entry(card)["action"]["cards"]
    order[5] = next(code for code in ("2c", "3d") if code != order[5])
    with pytest.raises(Mismatch, match=r"shuffle 0 \(.*\) differs from the order the seeds .* at card"):
        verify(card)

    swapped = copy.deepcopy(staff)
    log = swapped["log"]
    i = len(log) // 2
    log[i], log[i + 1] = log[i + 1], log[i]
    with pytest.raises(Mismatch, match=f"log entry {i + 1} has seq {i + 2}: entries are missing or out of order"):
        verify(swapped)
    # The same swap with the seqs renumbered is caught by the replay.
    for position, entry in enumerate(log, 1):
        entry["seq"] = position
    with pytest.raises(Mismatch, match=f"entry ({i + 1}|{i + 2}): "):
        verify(swapped)


@pytest.mark.django_db
def test_before_the_end_a_players_export_holds_no_seed() -> None:
    """Mid-match: the player's and a spectator's exports hold no server seed or salt, the seeds' actions are
    stripped, shuffles are counted, not listed; staff's export holds them all. (Which cards each viewer's export
    may show is audited with every other read in tests/games/selectors/test_redaction.py.)"""
    # Ten hands: each takes two decisions at least (two folds), so twelve decisions cannot end the match, whatever
    # the deals (three hands sometimes ended within twelve, and the game was no longer mid-match).
    game, human = play("palace-poker", {"max_hands": 10}, 3, "expmid", stop_at=12)
    assert game.status == "active"
    staff = game_export(game, staff_user())
    secrets = {deal["server_seed"] for deal in staff["deals"]} | {deal["salt"] for deal in staff["deals"]}
    assert secrets and None not in secrets
    for user in (human, AnonymousUser()):
        export = game_export(game, user)
        text = json.dumps(export)
        assert not export["complete"] and not any(secret in text for secret in secrets)
        assert all(deal["server_seed"] is None for deal in export["deals"])
        for entry in export["log"]:
            if entry["kind"] == "shuffle":
                assert set(entry["action"]) == {"type", "size"}
    report = verify(game_export(game, human))
    assert not report.complete and report.revealed == 0 and report.master == "committed"
    committed = game_export(game, human)["master"]
    assert committed["seed"] is None and committed["salt"] is None
    assert committed["commitment"] == commitment(game.seed_master, game.seed_master_salt)
    assert game.seed_master not in json.dumps(game_export(game, human))


@pytest.mark.django_db
def test_every_seed_the_server_brings_derives_from_the_master_committed_before_anyone_sat() -> None:
    """The master seed is drawn when the game is created, before any seat (and its seed) is taken; each deal's
    server seed and salt, and the seeds of seats that brought none (the bots here), are derived from it."""
    creator, _ = player_register(name="mastered")
    game = game_create(creator=creator, kind="palace-poker", seats=3, options={"max_hands": 2})
    assert len(game.seed_master) == 64 and len(game.seed_master_salt) == 32
    game, _ = play("palace-poker", {"max_hands": 2}, 3, "mastered2")
    draws = [
        seeded["action"]["seeds"]
        for seeded in game_export(game, staff_user())["log"]
        if "seeds" in seeded.get("action", {})
    ]
    assert len(draws) >= 2
    for draw in draws:
        derived = master_draw(game.seed_master, game=str(game.pk), deal=draw["deal"], players=["c0ffee00", None, None])
        assert (draw["server_seed"], draw["salt"], draw["players"]) == (
            derived.server_seed,
            derived.salt,
            list(derived.players),
        )
        assert draw["drawn"] == [1, 2]


@pytest.mark.django_db
def test_a_players_games_come_oldest_first_filtered_and_bounded(tmp_path) -> None:
    first, human = play("palace", {"max_turns": 60}, 2, "expmany")
    others = []
    for _ in range(2):
        game = game_create(creator=human, kind="palace-poker", seats=2, options={"max_hands": 1})
        seat_take(game_id=game.pk, player=human, seat=0)
        seat_take(game_id=game.pk, player=human, seat=1, bot="random")
        while (game := Game.objects.get(pk=game.pk)).status == "active":
            detail = game_detail(game_get(game.pk), human)
            if detail["legal_actions"]:
                # The first legal action in its smallest complete form: a discard step holding more soldiers
                # than allowed must name some (min_cards), and a bet names a target.
                entry = detail["legal_actions"][0]
                cards = entry["cards"][: entry["min_cards"]] if entry.get("min_cards") else None
                target = entry["targets"][0] if entry.get("targets") else None
                action_submit(user=human, game_id=game.pk, type=entry["type"], cards=cards, target=target)
            else:
                bot_move(game_id=game.pk, version=game.version)
        others.append(game)
    ids = [game.pk for game in player_games(human, page=1)]
    assert ids == [first.pk, *[game.pk for game in others]]
    assert [game.pk for game in player_games(human, kind="palace-poker")] == [game.pk for game in others]
    assert [game.pk for game in player_games(human, limit=2, page=1)] == ids[:2]
    assert [game.pk for game in player_games(human, since=others[0].created)] == ids[1:]
    assert [game.pk for game in player_games(human, until=others[0].created)] == ids[:1]
    lines = "".join(json.dumps(game_export(game, human)) + "\n" for game in player_games(human))
    path = tmp_path / "mine.ndjson"
    path.write_text(lines)
    done = subprocess.run(  # noqa: S603 - this checkout's own script
        [sys.executable, str(ROOT / "tools" / "verify_palace.py"), str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("every card matches") == 3
    path.write_text(lines.replace('"seq":3', '"seq":4', 1).replace('"seq": 3', '"seq": 4', 1))
    done = subprocess.run(  # noqa: S603 - this checkout's own script
        [sys.executable, str(ROOT / "tools" / "verify_palace.py"), str(path)], capture_output=True, text=True
    )
    assert done.returncode == 1 and "MISMATCH: log entry 3 has seq 4" in done.stderr
