"""Recomputing every rating from the games' logs: the check that ratings follow from the logs alone.

Every finished rated game is replayed in the order it was rated (``RatedGame.finished``, then the game's id),
each from its own log (``ratings.selectors.results.game_result``) and the ratings the replay has reached, from
newcomers' ratings up. The stored ratings are exactly what the games' finishes wrote if, and only if, the
replay gives the same floats: ``ratings_recompute`` reports every difference and, unless ``write`` is off,
stores what the replay gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Max

from games.models import Game, GameStatus
from ratings.models import RatedGame, Rating, RatingChange
from ratings.selectors.results import Identity, game_result
from ratings.services.rate import finish_moment, new_rating, skill_set
from ratings.skill import MU, SIGMA, Skill, rate

Key = tuple[str, Identity]
"""A rating: its ladder and identity."""


@dataclass
class Recomputed:
    """What a recomputation found: ``games`` replayed, ``ratings`` reached, and ``differences`` from what was
    stored, in words (empty: the stored ratings are the logs' own)."""

    games: int = 0
    ratings: int = 0
    differences: list[str] = field(default_factory=list)


@dataclass
class _Replay:
    skills: dict[Key, Skill] = field(default_factory=dict)
    games: dict[Key, int] = field(default_factory=dict)
    last: dict[Key, datetime] = field(default_factory=dict)
    changes: dict[tuple[int, int], tuple[Key, int, Skill, Skill]] = field(default_factory=dict)


def _order() -> list[tuple[Game, datetime | None]]:
    """Every finished rated game with its ``RatedGame.finished`` (``None`` if never rated), in replay order; one
    never rated counts as finished at its last log entry."""
    finished = dict(RatedGame.objects.values_list("game_id", "finished"))
    games = Game.objects.filter(rated=True, status=GameStatus.FINISHED).annotate(last_entry=Max("events__created"))
    keyed = [(finished.get(game.pk) or game.last_entry, game.pk, game) for game in games]
    return [(game, finished.get(game.pk)) for _, _, game in sorted(keyed, key=lambda item: item[:2])]


def _replay(order: list[tuple[Game, datetime | None]]) -> tuple[_Replay, dict[int, datetime]]:
    replay = _Replay()
    moments: dict[int, datetime] = {}
    for game, finished in order:
        result = game_result(game)
        if result is None:
            continue
        keys = {seat.identity: (result.ladder, seat.identity) for seat in result.seats}
        priors = {who: replay.skills.get(key, (MU, SIGMA)) for who, key in keys.items()}
        after = rate(priors, [(seat.identity, seat.place) for seat in result.seats])
        moment = finished or finish_moment(game.last_entry, (replay.last.get(key) for key in keys.values()))
        moments[game.pk] = moment
        for who, key in keys.items():
            replay.skills[key] = after[who]
            replay.games[key] = replay.games.get(key, 0) + 1
            replay.last[key] = moment
        for seat in result.seats:
            replay.changes[(game.pk, seat.seat)] = (
                keys[seat.identity],
                seat.place,
                priors[seat.identity],
                after[seat.identity],
            )
    return replay, moments


def _differences(replay: _Replay, stored: dict[Key, Rating]) -> list[str]:
    out = []
    for key in sorted(set(replay.skills) | set(stored)):
        row = stored.get(key)
        have = (row.mu, row.sigma, row.games) if row else None
        want = (*replay.skills[key], replay.games[key]) if key in replay.skills else None
        if have != want and not (want is None and row is not None and row.games == 0):
            out.append(f"{key[0]} {key[1]}: stored {have}, from the logs {want}")
    rows = RatingChange.objects.select_related("rated_game", "rating").order_by()
    seen = set()
    for row in rows:
        spot = (row.rated_game.game_id, row.seat)
        seen.add(spot)
        got = replay.changes.get(spot)
        have = (row.place, (row.mu_before, row.sigma_before), (row.mu_after, row.sigma_after))
        if got is None or have != got[1:]:
            out.append(f"game {spot[0]} seat {spot[1]}: stored {have}, from the logs {got and got[1:]}")
    out += [f"game {game} seat {seat}: not rated" for game, seat in sorted(set(replay.changes) - seen)]
    return out


@transaction.atomic
def ratings_recompute(*, write: bool = True) -> Recomputed:
    """Replay every finished rated game from its log; with ``write``, store the ratings, games and changes the
    replay gives (ratings no game reached back to a newcomer's). Locks every rating while it runs."""
    stored = {(row.ladder, (row.player_id or 0, row.bot)): row for row in Rating.objects.select_for_update()}
    order = _order()
    replay, moments = _replay(order)
    report = Recomputed(games=len(moments), ratings=len(replay.skills), differences=_differences(replay, stored))
    if write and report.differences:
        _store(replay, moments, stored)
    return report


def _store(replay: _Replay, moments: dict[int, datetime], stored: dict[Key, Rating]) -> None:
    for key, row in stored.items():
        if key not in replay.skills:
            skill_set(row, (MU, SIGMA), games=0, last_rated=None)
    for key, skill in replay.skills.items():
        row = stored.get(key) or new_rating(*key)
        skill_set(row, skill, games=replay.games[key], last_rated=replay.last[key])
        if row.pk is None:
            row.save()
        stored[key] = row
    Rating.objects.bulk_update(stored.values(), ["mu", "sigma", "ordinal", "provisional", "games", "last_rated"])
    RatingChange.objects.all().delete()
    records = {row.game_id: row for row in RatedGame.objects.all()}
    for game_id, moment in moments.items():
        if game_id not in records:
            records[game_id] = RatedGame.objects.create(game_id=game_id, ladder="", finished=moment)
    rows = []
    for (game_id, seat), (key, place, before, after) in sorted(replay.changes.items()):
        record = records[game_id]
        if record.ladder != key[0]:
            record.ladder = key[0]
            record.save(update_fields=["ladder"])
        rows.append(
            RatingChange(
                rated_game=record,
                rating=stored[key],
                seat=seat,
                place=place,
                mu_before=before[0],
                sigma_before=before[1],
                mu_after=after[0],
                sigma_after=after[1],
            )
        )
    RatingChange.objects.bulk_create(rows)
