"""Rating a finished game, once.

``rating_game_finished`` is the hook ``games`` calls in the transaction that finishes a game
(``games.services.finish_hooks``): the ratings change with the finish or not at all. ``rating_apply`` does the
same for a game id from outside that transaction (a repair, a test), and does nothing for a game already rated:
the game's row is locked first, and ``RatedGame`` is unique per game, so a finish processed twice, or two
processes racing, change ratings once.

Ratings of the game's identities are locked in one order (by primary key, after inserting missing ones) before
they are read, so two games sharing a player are rated one after the other, never from the same prior; the later
one gets a later ``RatedGame.finished`` than every earlier game of its identities, which is the order
``ratings.services.recompute`` replays them in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game, GameStatus
from palace_api.errors import ConflictError, ErrorCode, NotFoundError
from ratings.models import RatedGame, Rating, RatingChange
from ratings.selectors.results import GameResult, Identity, game_result
from ratings.skill import MU, SIGMA, Skill, ordinal, provisional, rate

TICK = timedelta(microseconds=1)


def rating_game_finished(game: Game) -> None:
    """The finish hook: rate ``game`` if it is rated (its row is locked by the finishing transaction)."""
    if game.rated:
        _rate(game)


@transaction.atomic
def rating_apply(*, game_id: int) -> RatedGame | None:
    """Rate the finished rated game ``game_id`` unless it already is; returns its ``RatedGame`` (``None`` for a
    casual, unfinished or cancelled game, which changes no rating). Raises ``NotFoundError("game_not_found")``."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    if not game.rated or game.status != GameStatus.FINISHED:
        return None
    return RatedGame.objects.filter(game=game).first() or _rate(game)


def _rate(game: Game) -> RatedGame | None:
    result = game_result(game)
    if result is None or RatedGame.objects.filter(game=game).exists():
        return None
    ratings = ratings_locked(result.ladder, [seat.identity for seat in result.seats])
    moment = finish_moment(timezone.now(), (rating.last_rated for rating in ratings.values()))
    try:
        with transaction.atomic():
            rated = RatedGame.objects.create(game=game, ladder=result.ladder, finished=moment)
    except IntegrityError as error:
        raise ConflictError(ErrorCode.VERSION_CONFLICT, "this game was rated by another request") from error
    priors = {who: (rating.mu, rating.sigma) for who, rating in ratings.items()}
    after = rate(priors, [(seat.identity, seat.place) for seat in result.seats])
    RatingChange.objects.bulk_create(changes(rated, result, ratings, priors, after))
    for who, rating in ratings.items():
        skill_set(rating, after[who], games=rating.games + 1, last_rated=moment)
    Rating.objects.bulk_update(ratings.values(), ["mu", "sigma", "ordinal", "provisional", "games", "last_rated"])
    return rated


def finish_moment(now: datetime, earlier: Iterable[datetime | None]) -> datetime:
    """When a game is rated: ``now``, or just after the latest ``earlier`` game of its identities if the clock
    says otherwise, so their games' order by this time is the order they were rated in."""
    latest = max((moment for moment in earlier if moment is not None), default=None)
    return now if latest is None or now > latest else latest + TICK


def changes(
    rated: RatedGame,
    result: GameResult,
    ratings: Mapping[Identity, Rating],
    priors: Mapping[Identity, Skill],
    after: Mapping[Identity, Skill],
) -> list[RatingChange]:
    """The ``RatingChange`` rows of ``rated``, one per seat (not saved)."""
    return [
        RatingChange(
            rated_game=rated,
            rating=ratings[seat.identity],
            seat=seat.seat,
            place=seat.place,
            mu_before=priors[seat.identity][0],
            sigma_before=priors[seat.identity][1],
            mu_after=after[seat.identity][0],
            sigma_after=after[seat.identity][1],
        )
        for seat in result.seats
    ]


def skill_set(rating: Rating, skill: Skill, *, games: int, last_rated: datetime | None) -> None:
    """Set ``rating``'s skill and what follows from it (not saved)."""
    rating.mu, rating.sigma = skill
    rating.ordinal = ordinal(*skill)
    rating.provisional = provisional(skill[1])
    rating.games = games
    rating.last_rated = last_rated


def new_rating(ladder: str, who: Identity) -> Rating:
    """A newcomer's rating on ``ladder`` (not saved)."""
    rating = Rating(ladder=ladder, player_id=who[0] or None, bot=who[1])
    skill_set(rating, (MU, SIGMA), games=0, last_rated=None)
    return rating


def ratings_locked(ladder: str, identities: Iterable[Identity]) -> dict[Identity, Rating]:
    """The ratings of ``identities`` on ``ladder``, made if missing, locked until the transaction ends. Missing
    ones are inserted first (a concurrent insert of the same one is ignored, and waited for), then all are locked
    in primary-key order: every rating transaction takes its locks in that one order."""
    wanted = sorted(set(identities))
    Rating.objects.bulk_create([new_rating(ladder, who) for who in wanted], ignore_conflicts=True)
    players = [user for user, _ in wanted if user]
    bots = [bot for user, bot in wanted if not user]
    rows = (
        Rating.objects.select_for_update()
        .filter(Q(player_id__in=players) | Q(player__isnull=True, bot__in=bots), ladder=ladder)
        .order_by("pk")
    )
    return {(row.player_id or 0, row.bot): row for row in rows}
