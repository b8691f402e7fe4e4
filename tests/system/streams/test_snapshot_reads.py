"""The reads that pair a game's seats with its log give one snapshot (issue #27): ``game_get``'s seats are those of
the version it read, even when the first seats are taken between its two statements, and ``game_events`` (``events/``,
the web table, a stream's own pages) answers nothing past the version of the seats it was given."""

from __future__ import annotations

from typing import Any

from games.engine.protocol import SPECTATOR
from games.models import Event, Game
from games.selectors import read_models
from games.selectors.read_models import event_json, game_events, game_get, viewer_for
from games.services import game_create, seat_take


class GameAfter:
    """Stands for ``games.models.Game`` in ``games.selectors.read_models``: ``then`` runs on the first use of
    ``objects``, that is between ``game_get``'s read of the seats and its read of the game alone."""

    def __init__(self, then: Any) -> None:
        self.then = then

    @property
    def objects(self) -> Any:
        then, self.then = self.then, None
        if then is not None:
            then()
        return Game.objects


def test_a_game_read_while_its_first_seats_are_taken_comes_with_those_seats(monkeypatch, make_player):
    """Given a game nobody sits at, when both its seats are taken (which deals) after ``game_get`` found no seat and
    before it read the game, then the game it returns has the two seats of its version, and each player's log shows
    his own cards."""
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    game = game_create(creator=alice, kind="palace", seats=2)

    def both_sit() -> None:
        seat_take(game_id=game.pk, player=alice, seat=0)
        seat_take(game_id=game.pk, player=bob, seat=1)

    with monkeypatch.context() as patch:
        # The ORM's path, whose two statements this race falls between: on PostgreSQL game_get is one statement
        # (games/selectors/statements.py), which PostgreSQL reads as one snapshot.
        patch.setattr(read_models.statements, "is_postgresql", lambda: False)
        patch.setattr(read_models, "Game", GameAfter(both_sit))
        read = game_get(game.pk)

    assert read.status == "active" and read.version == Event.objects.filter(game=game).count()
    assert [seat.player_id for seat in read.seats.all()] == [alice.pk, bob.pk]
    assert viewer_for(read, alice) == 0 and viewer_for(read, bob) == 1
    # The deal: the first entry a seat sees otherwise than a spectator.
    deal = next(row for row in Event.objects.filter(game=game) if event_json(row, 0) != event_json(row, SPECTATOR))
    for viewer, user in enumerate((alice, bob)):
        entry = next(row for row in game_events(read, user, after=0, limit=100)["results"] if row["seq"] == deal.seq)
        assert entry == event_json(deal, viewer) != event_json(deal, SPECTATOR)


def test_a_log_read_stops_at_the_version_of_the_seats_it_was_given(make_player, auth_client, monkeypatch):
    """Given a game read with one of its two seats taken, when the last seat is taken (which deals) before its log
    is read, then ``game_events`` and ``events/`` answer up to the version read, never the deal as the new player
    would see it without his seat."""
    alice, _ = make_player("alice")
    bob, bob_token = make_player("bob")
    game = game_create(creator=alice, kind="palace", seats=2)
    seat_take(game_id=game.pk, player=alice, seat=0)
    before = game_get(game.pk)
    seat_take(game_id=game.pk, player=bob, seat=1)

    page = game_events(before, bob, after=0, limit=100)
    assert [entry["seq"] for entry in page["results"]] == [1] and page["version"] == 1
    assert page["next_after"] is None

    # events/ itself, with the deal committed between its read of the game and its read of the log.
    def stale(game_id: int) -> Game:
        return before

    with monkeypatch.context() as patch:
        patch.setattr(read_models, "game_get", stale)
        answer = auth_client(bob_token).get(f"/api/v1/games/{game.pk}/events/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["version"] == 1 and [entry["seq"] for entry in body["results"]] == [1]
    now = auth_client(bob_token).get(f"/api/v1/games/{game.pk}/events/").json()
    assert now["version"] > 2 and [entry["seq"] for entry in now["results"]] == list(range(1, now["version"] + 1))
