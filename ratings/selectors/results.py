"""A finished game's result as ratings count it, read off its log: its ladder and each seat's identity and place.

The places are the rules' own (``games.engine.registry.game_kind(kind).standings.places``, from the engine
events of the log, ``match_ended`` and those before it); ratings add one thing, that leaving counts as losing:
a seat that resigned, or whose absence handed it to the bot (a ``seat_to_bot`` entry), finishes below every
seat that stayed (``ratings.skill.with_departures``).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.registry import game_kind
from games.models import Event, Game, Seat
from ratings.skill import with_departures

Identity = tuple[int, str]
"""A rated identity: ``(user id, "")`` for a player, ``(0, level)`` for a bot level."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's part: ``identity`` (``Identity``) and ``place`` (1 first, equal places tie)."""

    seat: int
    identity: Identity
    place: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game as ratings count it: its ``ladder`` and every seat's ``SeatResult``, in seat order."""

    game_id: int
    ladder: str
    seats: tuple[SeatResult, ...]


def identity_of(seat: Seat) -> Identity:
    """Whose rating a seat plays for: its player (also while the bot plays the seat for him), else its bot."""
    return (seat.player_id, "") if seat.player_id else (0, seat.bot)


def game_result(game: Game) -> GameResult | None:
    """``game``'s result from its log, or ``None`` if the log holds no end of the match (a game not finished;
    a cancelled one never started)."""
    events = []
    departed: dict[int, int] = {}
    rows = Event.objects.filter(game=game).order_by("seq").values_list("seq", "kind", "payload")
    for seq, kind, payload in rows:
        if kind == "seat_to_bot":
            departed.setdefault(payload["seat"], seq)
        for event in payload.get("events", ()) if "action" in payload else ():
            events.append(event)
            if event["type"] == "resigned":
                departed.setdefault(event["seat"], seq)
    standings = game_kind(game.kind).standings
    places = standings.places(events)
    if places is None:
        return None
    counted = with_departures(places, departed)
    seats = sorted(Seat.objects.filter(game=game).order_by(), key=lambda seat: seat.number)
    return GameResult(
        game_id=game.pk,
        ladder=standings.ladder(game.options),
        seats=tuple(
            SeatResult(seat=seat.number, identity=identity_of(seat), place=counted[seat.number]) for seat in seats
        ),
    )
