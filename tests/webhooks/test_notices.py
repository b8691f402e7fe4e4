"""Which events a game's log owes its players (webhooks/selectors/notices.py), each redacted for its recipient.

Given two human players with endpoints at a game played to its end through the services, when the log is
announced after every decision (as the game_changed task does), then each player gets game.started once,
turn.due each time a decision becomes due from him (after his own decisions too), hand.finished per Palace
Poker hand and game.finished once; and no payload holds a card its recipient may not see (by the staff log's
visibility of the entry it came from).
"""

from __future__ import annotations

import random

import pytest

from games.engine.cards import FULL_DECK
from games.engine.protocol import Action
from games.engine.registry import get_game
from games.messages import WEBHOOK_EVENTS as EVENT_TYPES
from games.models import Event, Game
from games.services.games import game_create, seat_take
from webhooks.models import Endpoint, Message
from webhooks.services.dispatch import game_changes_announce
from webhooks.services.endpoints import endpoint_create

from .conftest import play_one

pytestmark = pytest.mark.django_db

CODES = {card.code for card in FULL_DECK}


def codes_in(value: object) -> list[str]:
    if isinstance(value, dict):
        return [code for item in value.values() for code in codes_in(item)]
    if isinstance(value, list):
        return [code for item in value for code in codes_in(item)]
    return [value] if isinstance(value, str) and value in CODES else []


def visible_codes(row: Event, seat: int) -> list[str]:
    """Cards of a log entry that ``seat`` may see, by the staff log's visibility fields."""
    codes = []
    for event in row.payload.get("events", []):
        for group in event.get("cards", {}).values():
            if group["visible_to"] == "all" or seat in group["visible_to"]:
                codes += group["cards"]
    return codes


def play(kind: str, options: dict, make_player, *, seed: int, max_decisions: int = 3000) -> tuple[Game, dict]:
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    players = {0: alice, 1: bob}
    for user in players.values():
        endpoint_create(user=user, url="http://93.184.216.34/hook", events=list(EVENT_TYPES))
    game = game_create(creator=alice, kind=kind, seats=2, options=options)
    seat_take(game_id=game.pk, player=alice, seat=0)
    seat_take(game_id=game.pk, player=bob, seat=1)
    game_changes_announce(game_id=game.pk, version=Game.objects.get(pk=game.pk).version)
    rng = random.Random(seed)
    for _ in range(max_decisions):
        going_on = play_one(game.pk, players, rng)
        game_changes_announce(game_id=game.pk, version=Game.objects.get(pk=game.pk).version)
        if not going_on:
            break
    game.refresh_from_db()
    assert game.status == "finished"
    return game, players


def expected_turns_due(game: Game, seat: int) -> list[int]:
    """The versions at which a new decision became ``seat``'s (README, "Whose decision is due"), by replaying the
    log in the stretches ``play`` announced: the entries before the first decision, then each decision with the
    shuffles after it. A decision is new when the seat was not due at the stretch's start, or made a decision in
    it (a buy, then its discard step, is two decisions)."""
    engine = get_game(game.kind)
    state = engine.new_game(game.options, game.seat_count)
    stretches: list[list[Event]] = [[]]
    for row in Event.objects.filter(game=game).order_by("seq"):
        if row.actor is not None and "action" in row.payload:
            stretches.append([])
        stretches[-1].append(row)
    versions, due_before = [], False
    for stretch in stretches:
        decided = False
        for row in stretch:
            if "action" in row.payload:
                state, _ = engine.apply(state, Action.from_json(row.payload["action"]))
                decided = decided or row.actor == seat
        due_after = seat in engine.due_to_act(state)
        if due_after and (decided or not due_before):
            versions.append(stretch[-1].seq)
        due_before = due_after
    return versions


def messages_of(user) -> list[dict]:
    return [message.body for message in Message.objects.filter(endpoint__user=user).order_by("id")]


@pytest.mark.parametrize("seed", [1, 2])
def test_palace_poker_announces_start_turns_hands_and_end_redacted(make_player, seed, monkeypatch):
    monkeypatch.setattr("socket.getaddrinfo", lambda host, port, **kw: [(2, 1, 6, "", (host, port))])
    game, players = play("palace-poker", {"first_dealer": 1, "max_hands": 2}, make_player, seed=seed)
    rows = {row.seq: row for row in Event.objects.filter(game=game)}
    for seat, user in players.items():
        bodies = messages_of(user)
        types = [body["type"] for body in bodies]
        assert types.count("game.started") == 1 and types.count("game.finished") == 1
        assert types.count("hand.finished") == 2
        turns = [body["data"]["version"] for body in bodies if body["type"] == "turn.due"]
        assert turns == expected_turns_due(game, seat)
        for body in bodies:
            data = body["data"]
            assert data["seat"] == seat and data["game"] == game.pk
            allowed = visible_codes(rows[data["version"]], seat)
            for code in codes_in(data):
                assert code in allowed, (body["type"], code)
                allowed.remove(code)
        hands = [body["data"] for body in bodies if body["type"] == "hand.finished"]
        assert [hand["hand"] for hand in hands] == [1, 2]
        assert all(hand["pot"] == sum(winner["amount"] for winner in hand["winners"]) for hand in hands)
        finished = next(body["data"] for body in bodies if body["type"] == "game.finished")
        assert set(finished["result"]) >= {"winners", "stacks", "hands"}


def test_the_shedding_game_announces_its_end_with_the_ranking(make_player, monkeypatch):
    monkeypatch.setattr("socket.getaddrinfo", lambda host, port, **kw: [(2, 1, 6, "", (host, port))])
    game, players = play("palace", {}, make_player, seed=3)
    for user in players.values():
        bodies = messages_of(user)
        finished = [body["data"] for body in bodies if body["type"] == "game.finished"]
        assert len(finished) == 1 and sorted(finished[0]["result"]["order"]) == [0, 1]
        assert not any(body["type"] == "hand.finished" for body in bodies)


def test_announcing_twice_or_late_makes_each_message_once(make_player, monkeypatch):
    monkeypatch.setattr("socket.getaddrinfo", lambda host, port, **kw: [(2, 1, 6, "", (host, port))])
    alice, _ = make_player("alice")
    endpoint_create(user=alice, url="http://93.184.216.34/hook", events=["turn.due", "game.started"])
    game = game_create(creator=alice, kind="palace-poker", seats=2, options={"first_dealer": 1})
    seat_take(game_id=game.pk, player=alice, seat=0)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    version = Game.objects.get(pk=game.pk).version
    assert game_changes_announce(game_id=game.pk, version=version) == 2
    assert game_changes_announce(game_id=game.pk, version=version) == 0
    assert game_changes_announce(game_id=game.pk, version=version - 1) == 0
    assert sorted(Message.objects.values_list("event_type", flat=True)) == ["game.started", "turn.due"]


def test_a_game_without_listeners_is_not_read(make_player, django_assert_max_num_queries):
    alice, _ = make_player("alice")
    game = game_create(creator=alice, kind="palace-poker", seats=2, options={})
    seat_take(game_id=game.pk, player=alice, seat=0)
    seat_take(game_id=game.pk, player=alice, bot="basic")
    version = Game.objects.get(pk=game.pk).version
    with django_assert_max_num_queries(1):
        assert game_changes_announce(game_id=game.pk, version=version) == 0
    assert not Endpoint.objects.exists()


def test_a_resignation_and_a_seat_handed_to_the_bot_are_announced_to_every_player(make_player, monkeypatch):
    """Issue 11, absent players: a resignation and a seat handed to the bot are logged and announced by webhook,
    to the player concerned too; after the hand-over he is told of no turn of the bot's."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services.lifecycle import game_resign
    from games.services.turns import timeout_apply

    monkeypatch.setattr("socket.getaddrinfo", lambda host, port, **kw: [(2, 1, 6, "", (host, port))])
    users = [make_player(f"p{seat}")[0] for seat in range(3)]
    for user in users:
        endpoint_create(user=user, url="http://93.184.216.34/hook", events=list(EVENT_TYPES))
    options = {"turn_timeout": 60, "max_timeouts": 1, "on_absent": "bot"}
    game = game_create(creator=users[0], kind="palace", seats=3, options=options)
    for seat, user in enumerate(users):
        seat_take(game_id=game.pk, player=user, seat=seat)

    def announce() -> None:
        game_changes_announce(game_id=game.pk, version=Game.objects.get(pk=game.pk).version)

    announce()
    game_resign(user=users[2], game_id=game.pk)
    announce()
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeout_apply(game_id=game.pk)  # the setup's first timeout: both choosers are handed to the bot
    announce()
    for seat, user in enumerate(users):
        bodies = messages_of(user)
        resigned = [body["data"] for body in bodies if body["type"] == "player.resigned"]
        assert [(data["resigned"], data["timeout"]) for data in resigned] == [(2, False)]
        handed = sorted(body["data"]["handed"] for body in bodies if body["type"] == "seat.to_bot")
        assert handed == [0, 1]
        assert all(body["data"]["seat"] == seat for body in bodies)
    after = {row.seq for row in Event.objects.filter(game=game, kind="seat_to_bot")}
    for user in users[:2]:
        late = [b for b in messages_of(user) if b["type"] == "turn.due" and b["data"]["version"] > min(after)]
        assert late == [], "a seat the bot plays gets no turn.due"


def test_a_stretch_announced_after_a_seat_was_handed_to_the_bot_is_told_as_it_stood(make_player, monkeypatch):
    """Issue 27, a view paired with rows read later: the start's announcement runs late, after both players'
    setup timed out and the bot took their seats. The seats it reads say "bot", yet up to the start each seat was
    its player's: each is told game.started (seats without a bot) and turn.due, as an announcement on time would
    have told him; the stretch after the hand-over tells seat.to_bot and no turn.due."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services.turns import timeout_apply

    monkeypatch.setattr("socket.getaddrinfo", lambda host, port, **kw: [(2, 1, 6, "", (host, port))])
    users = [make_player(f"p{seat}")[0] for seat in range(2)]
    for user in users:
        endpoint_create(user=user, url="http://93.184.216.34/hook", events=list(EVENT_TYPES))
    options = {"turn_timeout": 60, "max_timeouts": 1, "on_absent": "bot"}
    game = game_create(creator=users[0], kind="palace", seats=2, options=options)
    for seat, user in enumerate(users):
        seat_take(game_id=game.pk, player=user, seat=seat)
    started = Game.objects.get(pk=game.pk).version
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeout_apply(game_id=game.pk)  # both choosers time out: the bot takes both seats

    game_changes_announce(game_id=game.pk, version=started)
    for seat, user in enumerate(users):
        bodies = messages_of(user)
        assert [body["type"] for body in bodies] == ["game.started", "turn.due"], bodies
        assert [row["bot"] for row in bodies[0]["data"]["seats"]] == [None, None]
        assert bodies[1]["data"]["seat"] == seat and bodies[1]["data"]["version"] == started
    game_changes_announce(game_id=game.pk, version=Game.objects.get(pk=game.pk).version)
    for user in users:
        later = [body["type"] for body in messages_of(user)[2:]]
        assert sorted(set(later)) == ["seat.to_bot"], later


def test_a_rematch_is_announced_as_game_started_naming_the_game_it_replays(make_player, monkeypatch):
    """Issue 26, README "Rematch": the players of a rematch are told by its game.started, with rematch_of."""
    from games.services.lifecycle import game_resign
    from games.services.rematch import rematch_answer, rematch_offer

    monkeypatch.setattr("socket.getaddrinfo", lambda host, port, **kw: [(2, 1, 6, "", (host, port))])
    (alice, _), (bob, _) = make_player("alice"), make_player("bob")
    endpoint_create(user=bob, url="http://93.184.216.34/hook", events=["game.started"])
    game = game_create(creator=alice, kind="palace", seats=2)
    seat_take(game_id=game.pk, player=alice)
    seat_take(game_id=game.pk, player=bob)
    game_resign(user=alice, game_id=game.pk)
    rematch_offer(user=alice, game_id=game.pk)
    rematch_answer(user=bob, game_id=game.pk, accept=True)
    new = Game.objects.get(rematch_of=game)
    for each in (game, new):
        game_changes_announce(game_id=each.pk, version=Game.objects.get(pk=each.pk).version)
    started = [m.body["data"] for m in Message.objects.filter(event_type="game.started").order_by("id")]
    assert [(data["game"], data["rematch_of"]) for data in started] == [(game.pk, None), (new.pk, game.pk)]
