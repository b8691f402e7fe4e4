"""The hand history of a shedding game (kind ``"palace"``, ``games.engine.shedding.history``): its read model and
its admin pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from games.selectors.hand_history import hand_histories, hand_history
from games.selectors.state import engine_of, game_state
from games.services import action_submit, game_create, seat_take

pytestmark = pytest.mark.django_db

MAX_DECISIONS = 2000


def _play_to_the_end(game: Game, users: dict[int, object]) -> tuple[list[tuple[int, tuple[str, ...]]], int]:
    """Play a whole match: each seat chooses its first three cards, then on turn flips a blind card,
    else plays every card of its lowest playable rank, else picks up. Returns the ``play`` decisions
    as (seat, cards) in order, and the number of play-phase decisions."""
    engine = engine_of(game)
    plays: list[tuple[int, tuple[str, ...]]] = []
    decisions = 0
    for _ in range(MAX_DECISIONS):
        game.refresh_from_db()
        state = game_state(game)
        if engine.is_over(state):
            return plays, decisions
        seat = engine.due_to_act(state)[0]
        legal = {action.type: action for action in reversed(engine.legal_actions(state, seat))}
        user = users[seat]
        if "choose_face_up" in legal:
            codes = [card.code for card in legal["choose_face_up"].cards[:3]]
            action_submit(user=user, game_id=game.pk, type="choose_face_up", cards=codes)
            continue
        decisions += 1
        if "play_face_down" in legal:
            action_submit(user=user, game_id=game.pk, type="play_face_down")
        elif "play" in legal:
            choice = legal["play"]
            codes = tuple(card.code for card in choice.cards[: choice.max_cards])
            action_submit(user=user, game_id=game.pk, type="play", cards=list(codes))
            plays.append((seat, codes))
        else:
            action_submit(user=user, game_id=game.pk, type="pick_up")
    raise AssertionError("the match did not end")


@pytest.fixture
def finished_game(make_player) -> tuple[Game, list[tuple[int, tuple[str, ...]]], int]:
    ann, _ = make_player("ann")
    ben, _ = make_player("ben")
    game = game_create(creator=ann, kind="palace", seats=2, options={})
    seat_take(game_id=game.pk, player=ann)
    seat_take(game_id=game.pk, player=ben)
    users = {seat.number: seat.player for seat in game.seats.select_related("player")}
    plays, decisions = _play_to_the_end(game, users)
    game.refresh_from_db()
    return game, plays, decisions


def test_read_model_of_a_finished_shedding_game(finished_game):
    game, plays, decisions = finished_game
    history = hand_history(game, 1)
    state = game_state(game)

    assert history.finished
    assert history.dealer is not None and history.dealer.number == state.dealer
    assert [seat.number for seat in history.order] == list(state.order)
    assert [row.place for row in sorted(history.seats, key=lambda row: history.order.index(row.seat))] == [1, 2]
    assert {shuffle.purpose for shuffle in history.shuffles} >= {"deal"}
    for row in history.seats:
        assert len(row.face_down) == len(row.face_up_dealt) == len(row.hand_dealt) == 3
        assert None not in row.face_down
        assert len(row.face_up) == 3
        assert set(row.face_up) <= {*row.face_up_dealt, *row.hand_dealt}
    assert history.first_player is not None
    assert [step.type for step in history.setup].count("face_up_chosen") == 2

    assert len(history.turns) == decisions
    assert [turn.number for turn in history.turns] == list(range(1, decisions + 1))
    logged = [
        (turn.seat.number, next(step.cards for step in turn.steps if step.type == "play"))
        for turn in history.turns
        if turn.action == "play"
    ]
    assert logged == plays
    assert len(history.plays) >= len(plays)
    pick_ups = [step for turn in history.turns for step in turn.steps if step.type == "pick_up"]
    assert all(step.cards for step in pick_ups)
    last_steps = [step.type for step in history.turns[-1].steps]
    assert last_steps[-1] == "match_ended"
    assert "player_out" in last_steps
    assert history.result.startswith("The game ends") and f": 1. {history.order[0]}" in history.result
    assert "_" not in history.result and history.result == history.end.text


def test_admin_pages_show_the_shedding_history_to_staff(client, finished_game):
    game, plays, _ = finished_game
    staff = get_user_model().objects.create_user(username="auditor", is_staff=True)
    client.force_login(staff)

    listing = client.get(f"/admin/games/game/{game.pk}/hands/")
    assert listing.status_code == 200
    assert f"/admin/games/game/{game.pk}/hands/1/" in listing.content.decode()

    page = client.get(f"/admin/games/game/{game.pk}/hands/1/")
    assert page.status_code == 200
    html = page.content.decode()
    assert plays[0][1][0] in html
    assert "Finishing order" in html
    assert page.templates[0].name == "admin/games/shedding/hand_detail.html"

    assert client.get(f"/admin/games/game/{game.pk}/hands/2/").status_code == 404
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200


def test_admin_pages_refuse_non_staff(client, finished_game, make_player):
    game, _, _ = finished_game
    outsider, _ = make_player("carl")
    client.force_login(outsider)
    for path in (f"/admin/games/game/{game.pk}/hands/", f"/admin/games/game/{game.pk}/hands/1/"):
        response = client.get(path)
        assert response.status_code == 302, path


def test_history_before_the_deal_is_empty(make_player, client):
    ann, _ = make_player("ann")
    game = game_create(creator=ann, kind="palace", seats=2, options={})
    seat_take(game_id=game.pk, player=ann)
    assert hand_histories(game) == [] and hand_history(game, 1) is None
    staff = get_user_model().objects.create_user(username="auditor", is_staff=True)
    client.force_login(staff)
    assert client.get(f"/admin/games/game/{game.pk}/hands/").status_code == 200
    assert client.get(f"/admin/games/game/{game.pk}/hands/1/").status_code == 404
