"""Reads of ratings for the API and the pages: a player's ratings and history, a ladder's leaderboard, what a
game did to its seats' ratings. Every rating is shown as ``rating_json``: the model's ``mu`` and ``sigma`` with
the number people see (``ratings.skill.display``) and whether it is provisional."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.engine.registry import LADDERS, game_kind
from games.models import Game, Seat
from games.selectors.words import seat_name
from palace_api.errors import ErrorCode, NotFoundError
from players.models import Player
from ratings.models import RatedGame, Rating, RatingChange
from ratings.selectors.results import identity_of
from ratings.skill import MU, SIGMA, display, provisional


def ladder_check(ladder: str) -> str:
    """``ladder`` if it is one (``LADDERS``); raises ``NotFoundError("ladder_not_found")``."""
    if ladder not in LADDERS:
        raise NotFoundError(ErrorCode.LADDER_NOT_FOUND, f"no ladder {ladder[:40]!r}; one of {sorted(LADDERS)}")
    return ladder


def skill_json(mu: float, sigma: float) -> dict[str, Any]:
    """``{"rating", "mu", "sigma", "provisional"}``: ``rating`` the number shown (``skill.display``)."""
    return {"rating": display(mu, sigma), "mu": mu, "sigma": sigma, "provisional": provisional(sigma)}


def rating_json(rating: Rating) -> dict[str, Any]:
    """A rating: ``ladder``, ``title``, its skill (``skill_json``), ``games`` and ``last_rated``."""
    return {
        "ladder": rating.ladder,
        "title": LADDERS.get(rating.ladder, rating.ladder),
        **skill_json(rating.mu, rating.sigma),
        "games": rating.games,
        "last_rated": rating.last_rated,
    }


def player_get(player_id: int) -> Player:
    """The player whose user id is ``player_id``; raises ``NotFoundError("player_not_found")`` (staff accounts
    have no player, and no rating)."""
    player = Player.objects.select_related("user").filter(user_id=player_id).first()
    if player is None:
        raise NotFoundError(ErrorCode.PLAYER_NOT_FOUND, "no such player")
    return player


def player_ratings(player: Player) -> list[dict[str, Any]]:
    """The player's ratings (``rating_json``), one per ladder he has played a rated game on, in ladder order."""
    rows = Rating.objects.filter(player_id=player.user_id)
    order = list(LADDERS)
    return [rating_json(row) for row in sorted(rows, key=lambda row: order.index(row.ladder))]


def player_history(player: Player, *, ladder: str | None = None) -> QuerySet[RatingChange]:
    """The player's rating changes, latest first (a queryset to page; ``change_json`` renders one)."""
    rows = RatingChange.objects.filter(rating__player_id=player.user_id).select_related("rated_game", "rating")
    if ladder is not None:
        rows = rows.filter(rating__ladder=ladder)
    return rows.order_by("-rated_game__finished", "-rated_game__game_id")


def change_json(change: RatingChange) -> dict[str, Any]:
    """One rating change: ``game``, ``ladder``, ``finished``, ``seat``, ``place``, ``before`` and ``after``
    (``skill_json``) and ``delta`` (the shown rating's change)."""
    before = skill_json(change.mu_before, change.sigma_before)
    after = skill_json(change.mu_after, change.sigma_after)
    return {
        "game": change.rated_game.game_id,
        "ladder": change.rated_game.ladder,
        "finished": change.rated_game.finished,
        "seat": change.seat,
        "place": change.place,
        "before": before,
        "after": after,
        "delta": after["rating"] - before["rating"],
    }


def leaderboard(ladder: str) -> QuerySet[Rating]:
    """``ladder``'s ratings that are not provisional, best first (``ordinal``, then the oldest rating): a queryset
    to page. Raises ``NotFoundError("ladder_not_found")``."""
    ladder_check(ladder)
    return Rating.objects.filter(ladder=ladder, provisional=False).select_related("player").order_by("-ordinal", "pk")


def board_row(rating: Rating, rank: int) -> dict[str, Any]:
    """A leaderboard row: ``rank`` (1 first), ``player`` (``{"id", "name"}``) or ``bot`` (its level), and the
    rating (``rating_json``)."""
    player = {"id": rating.player_id, "name": rating.player.get_username()} if rating.player_id else None
    return {"rank": rank, "player": player, "bot": rating.bot or None, **rating_json(rating)}


def game_ratings(game: Game) -> dict[str, Any]:
    """What ``game`` does to ratings: ``game``, ``rated``, ``ladder``, ``applied`` (its end has been rated) and
    ``seats``: each ``seat``, ``name`` (``seat_name``), ``player``, ``bot``, ``place`` (once applied, else
    ``None``), ``before`` (``skill_json``: the rating it was rated from, else the rating now, newcomers' for one
    without) and ``after`` and ``delta`` (once applied). A casual game has no ladder and no seats."""
    out: dict[str, Any] = {"game": game.pk, "rated": game.rated, "ladder": None, "applied": False, "seats": []}
    if not game.rated:
        return out
    ladder = game_kind(game.kind).standings.ladder(game.options)
    seats = sorted(Seat.objects.filter(game=game).select_related("player").order_by(), key=lambda seat: seat.number)
    changes = {row.seat: row for row in RatingChange.objects.filter(rated_game__game=game).select_related("rated_game")}
    current = _current(ladder, seats)
    out.update(ladder=ladder, applied=RatedGame.objects.filter(game=game).exists())
    for seat in seats:
        name = seat_name(seat.number, player=seat.player.get_username() if seat.player else None, bot=seat.bot or None)
        row: dict[str, Any] = {
            "seat": seat.number,
            "name": name,
            "player": {"id": seat.player_id, "name": seat.player.get_username()} if seat.player else None,
            "bot": None if seat.player_id else seat.bot,
            "place": None,
            "before": skill_json(*current.get(identity_of(seat), (MU, SIGMA))),
            "after": None,
            "delta": None,
        }
        if seat.number in changes:
            change = change_json(changes[seat.number])
            row.update(place=change["place"], before=change["before"], after=change["after"], delta=change["delta"])
        out["seats"].append(row)
    return out


def _current(ladder: str, seats: list[Seat]) -> dict[tuple[int, str], tuple[float, float]]:
    players = [seat.player_id for seat in seats if seat.player_id]
    bots = [seat.bot for seat in seats if not seat.player_id and seat.bot]
    rows = Rating.objects.filter(ladder=ladder).filter(player_id__in=players) | Rating.objects.filter(
        ladder=ladder, player__isnull=True, bot__in=bots
    )
    return {(row.player_id or 0, row.bot): (row.mu, row.sigma) for row in rows}
