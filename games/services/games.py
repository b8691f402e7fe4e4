"""Creating games and taking seats."""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from games.engine.bots import get_bot
from games.engine.cards import parse_cards
from games.engine.fairness import SALT_BYTES, is_hex
from games.engine.master_seed import MASTER_BYTES
from games.engine.registry import get_game
from games.models import Event, Game, GameStatus, OnAbsent, Seat
from games.services.log import append_action, append_rows
from palace_api.errors import ApplicationError, ConflictError, ErrorCode, ForbiddenError, NotFoundError
from players.selectors import player_for_user

TURN_TIMEOUT_MIN = 10
TURN_TIMEOUT_MAX = 14 * 24 * 3600
MAX_TIMEOUTS_DEFAULT = 3
MAX_TIMEOUTS_MAX = 100
SERVER_OPTIONS = {"turn_timeout", "max_timeouts", "on_absent"}
"""Options the server keeps for itself; every other option goes to the engine."""


def _turn_timeout(value: Any) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not TURN_TIMEOUT_MIN <= value <= TURN_TIMEOUT_MAX:
        raise ApplicationError(
            ErrorCode.INVALID_OPTION,
            f"option 'turn_timeout' is seconds from {TURN_TIMEOUT_MIN} to {TURN_TIMEOUT_MAX} (14 days), or null",
        )
    return value


def _max_timeouts(value: Any) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_TIMEOUTS_MAX:
        raise ApplicationError(
            ErrorCode.INVALID_OPTION,
            f"option 'max_timeouts' counts timeouts in a row, 1 to {MAX_TIMEOUTS_MAX}, or null",
        )
    return value


def _on_absent(value: Any) -> str:
    if value not in OnAbsent.values:
        raise ApplicationError(ErrorCode.INVALID_OPTION, f"option 'on_absent' is one of {OnAbsent.values}")
    return str(value)


def _copies_per_card(engine: Any, options: dict[str, Any], seats: int) -> int:
    """How many copies of each card the match's pack holds: ``decks`` for Palace (1 or 2), 1 for Palace
    Poker. Read off the first shuffle a new match asks for, which orders the whole pack in both games."""
    request = engine.chance_request(engine.new_game(options, seats))
    return max(Counter(request.cards).values()) if request is not None else 1


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _prearranged(shuffles: Any, copies: int) -> list[list[str]] | None:
    """The shuffles as lists of codes; each card a list names must be there ``copies`` times (a list may
    leave cards out: a shuffle of the discards orders only some; a list short of its shuffle's cards is
    refused when that shuffle is due, ``log._shuffle_for``).

    Raises ``ApplicationError("invalid_prearranged_shuffles")``, naming in ``shuffle``, ``card``, ``count``
    and ``expected`` the first card, in list order, that a list holds another number of times.
    """
    if shuffles is None:
        return None
    if not isinstance(shuffles, list) or not all(isinstance(order, list) for order in shuffles):
        raise ApplicationError(
            ErrorCode.INVALID_PREARRANGED_SHUFFLES, "prearranged_shuffles is a list of lists of card codes"
        )
    cleaned = []
    for number, order in enumerate(shuffles):
        cards = parse_cards(order)
        counts = Counter(cards)
        wrong = next((card for card, count in counts.items() if count != copies), None)
        if wrong is not None:
            decks = "one deck holds" if copies == 1 else f"{copies} decks hold"
            raise ApplicationError(
                ErrorCode.INVALID_PREARRANGED_SHUFFLES,
                f"prearranged shuffle {number} holds {wrong.code} {_times(counts[wrong])}; "
                f"{decks} each card {_times(copies)}",
                shuffle=number,
                card=wrong.code,
                count=counts[wrong],
                expected=copies,
            )
        cleaned.append([card.code for card in cards])
    return cleaned


@transaction.atomic
def game_create(
    *,
    creator: AbstractBaseUser,
    kind: str,
    seats: int,
    options: dict[str, Any] | None = None,
    prearranged_shuffles: list[list[str]] | None = None,
    rated: bool = False,
) -> Game:
    """Create a game waiting for its players; the creator is not seated.

    ``options``: the engine's options plus the server's (``SERVER_OPTIONS``): ``turn_timeout`` (seconds,
    10 s to 14 days, or null), ``max_timeouts`` (consecutive timeouts of a seat, 1 to 100, default 3, null
    for never) and ``on_absent`` (``"resign"``, the default, or ``"bot"``: what those timeouts do, see
    ``games.services.turns.timeout_apply``).
    ``prearranged_shuffles`` (staff only): the n-th shuffle of the match yields the n-th list as
    the stock, top card first; each card in a list as often as the pack holds it (twice with two
    decks). ``rated``: the match's end changes its players' ratings (the ``ratings`` app); its seats take
    only players and bots (``seat_take``) and its shuffles are never prearranged.
    Raises ``EngineError`` (``unknown_kind``, ``invalid_option``...),
    ``ApplicationError`` (``rated_not_prearranged``...) and ``ForbiddenError("staff_only")``.
    """
    options = dict(options or {})
    turn_timeout = _turn_timeout(options.pop("turn_timeout", None))
    max_timeouts = _max_timeouts(options.pop("max_timeouts", MAX_TIMEOUTS_DEFAULT))
    on_absent = _on_absent(options.pop("on_absent", OnAbsent.RESIGN))
    engine = get_game(kind)
    engine_options = engine.normalize_options(options, seats)
    if prearranged_shuffles is not None and not getattr(creator, "is_staff", False):
        raise ForbiddenError(ErrorCode.STAFF_ONLY, "only staff may prearrange shuffles")
    if rated and prearranged_shuffles is not None:
        raise ApplicationError(ErrorCode.RATED_NOT_PREARRANGED, "a rated table's shuffles cannot be prearranged")
    shuffles = _prearranged(prearranged_shuffles, _copies_per_card(engine, engine_options, seats))
    return Game.objects.create(
        kind=kind,
        seat_count=seats,
        options=engine_options,
        turn_timeout=turn_timeout,
        max_timeouts=max_timeouts,
        on_absent=on_absent,
        prearranged_shuffles=shuffles,
        creator=creator,
        rated=rated,
        # Fixed before anyone sits, so before any player's seed exists (games.engine.master_seed).
        seed_master=secrets.token_hex(MASTER_BYTES),
        seed_master_salt=secrets.token_hex(SALT_BYTES),
    )


@transaction.atomic
def seat_take(
    *, game_id: int, player: AbstractBaseUser, seat: int | None = None, bot: str | None = None, seed: str = ""
) -> Seat:
    """Sit ``player`` at ``seat`` (or the lowest free one), or, with ``bot``, a bot of that policy
    (the game's creator only); the match starts when every seat is taken. ``seed``: the player's own shuffle
    seed, 1 to 32 bytes of lower-case hex, mixed into every shuffle (``games.engine.fairness``); a bot's seat
    and a player who gives none get one the server draws.

    Raises ``NotFoundError("game_not_found")``, ``ConflictError`` (``game_started``,
    ``seat_taken``, ``already_seated``, ``no_free_seat``), ``ForbiddenError`` (``creator_only``;
    ``unrated_account``: a rated table seats players, whose accounts are rated, and bots; not staff accounts
    without a player), ``EngineError("unknown_bot")`` and ``ApplicationError`` (``invalid_seat``, ``invalid_seed``).
    """
    if seed and (bot is not None or not is_hex(seed)):
        raise ApplicationError(
            ErrorCode.INVALID_SEED, "a player's seed is 1 to 32 bytes of lower-case hex; a bot takes none"
        )
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise NotFoundError(ErrorCode.GAME_NOT_FOUND, "no such game")
    if bot is not None:
        if game.creator_id != player.pk:
            raise ForbiddenError(ErrorCode.CREATOR_ONLY, "only the game's creator seats bots")
        get_bot(game.kind, bot)
    if game.status == GameStatus.CANCELLED:
        raise ConflictError(ErrorCode.GAME_CANCELLED, "this game was cancelled")
    if game.status != GameStatus.WAITING:
        raise ConflictError(ErrorCode.GAME_STARTED, "this game has started: its seats are closed")
    if game.rated and bot is None and player_for_user(user=player) is None:
        raise ForbiddenError(
            ErrorCode.UNRATED_ACCOUNT, "a rated table seats players and bots only: this account has no rating"
        )
    taken = {row.number: row for row in Seat.objects.filter(game=game)}
    if bot is None and any(row.player_id == player.pk for row in taken.values()):
        raise ConflictError(ErrorCode.ALREADY_SEATED, "you already sit at this game")
    if seat is None:
        seat = next((number for number in range(game.seat_count) if number not in taken), None)
        if seat is None:
            raise ConflictError(ErrorCode.NO_FREE_SEAT, "every seat is taken")
    elif not 0 <= seat < game.seat_count:
        raise ApplicationError(ErrorCode.INVALID_SEAT, f"seats are numbered 0 to {game.seat_count - 1}")
    elif seat in taken:
        raise ConflictError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken")
    try:
        with transaction.atomic():
            row = Seat.objects.create(game=game, number=seat, player=None if bot else player, bot=bot or "", seed=seed)
    except IntegrityError as error:
        raise ConflictError(ErrorCode.SEAT_TAKEN, f"seat {seat} is taken") from error
    event = Event(
        game=game,
        seq=game.version + 1,
        kind="seat_taken",
        actor=seat,
        payload={"seat": seat, "bot": bot}
        if bot
        else {"seat": seat, "player": {"id": player.pk, "name": player.get_username()}},
    )
    append_rows(game, [event])
    if len(taken) + 1 == game.seat_count:
        game.status = GameStatus.ACTIVE
        engine = get_game(game.kind)
        append_action(game, engine.new_game(game.options, game.seat_count), None)
    return row
