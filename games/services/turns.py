"""Decisions the server makes itself: bot moves and turn timeouts. They go through the same log
append as any client's decision, guarded by the version the work was queued for."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.bot_levels import SLOW_BOTS
from games.engine.bots import get_bot
from games.engine.cards import parse_cards
from games.engine.errors import EngineError
from games.engine.protocol import Action
from games.models import Event, Game, GameStatus, OnAbsent, Seat
from games.selectors.state import engine_of, game_state
from games.services.log import append_action, append_rows, game_lock, seat_bots
from games.services.scheduling import SLOW_BOT_MOVE
from outbox.broker import send_after_commit

_RNG = secrets.SystemRandom()
_log = logging.getLogger(__name__)

ABSENT_BOT = "basic"
"""The bot that plays a seat handed over after ``max_timeouts`` (``on_absent: "bot"``): every kind has one."""


def _locked_game(game_id: int, version: int | None) -> Game | None:
    game = game_lock(game_id)
    if game is None or game.status != GameStatus.ACTIVE:
        return None
    if version is not None and game.version != version:
        return None
    return game


def _action_from(body: dict[str, Any], seat: int) -> Action:
    return Action(
        type=body["type"],
        seat=seat,
        cards=parse_cards(body.get("cards") or []),
        target=body.get("target"),
        amount=body.get("amount"),
    )


@transaction.atomic
def bot_move(*, game_id: int, version: int) -> bool:
    """Let the bot whose decision it is act, if the game is still at ``version``.

    The bot reads only its seat's view. Should its choice be refused by the rules, the seat's
    default action is applied instead. Returns whether a decision was appended.
    """
    game = _locked_game(game_id, version)
    if game is None:
        return False
    state = game_state(game)
    engine = engine_of(game)
    bots = {number: bot for number, bot in seat_bots(game).items() if bot}
    seat = next((seat for seat in engine.to_act(state) if seat in bots), None)
    if seat is None:
        return False
    _bot_decide(game, state, seat, bots[seat])
    return True


def _bot_decide(game: Game, state: Any, seat: int, bot: str) -> Any:
    """Append the decision of ``bot`` for ``seat``, or the seat's default action should the bot fail or the
    rules refuse its choice; returns the new state."""
    engine = engine_of(game)
    try:
        action = _action_from(get_bot(game.kind, bot).choose(engine.view(state, seat), _RNG), seat)
    except Exception:
        # A bot's fault must not stall the table: its seat plays the rules' default action, and the fault is
        # logged for us to mend (without the view, which holds the seat's hidden cards).
        _log.exception("bot %r failed to decide in game %s seat %s; default action taken", bot, game.id, seat)
        action = engine.default_action(state, seat)
    try:
        # The engine refuses an illegal choice before anything is written.
        state, _ = append_action(game, state, action)
    except EngineError:
        state, _ = append_action(game, state, engine.default_action(state, seat))
    return state


def _timeouts_before(game: Game, seat: int, limit: int) -> int:
    """How many of ``seat``'s last decisions, up to ``limit``, were timeouts in a row (read off the log:
    its engine actions marked ``timeout``; entries without an action, a seat taken say, do not count)."""
    if limit <= 0:
        return 0
    decisions = (
        Event.objects.filter(game=game, actor=seat, payload__has_key="action")
        .order_by("-seq")
        .values_list("payload", flat=True)[:limit]
    )
    count = 0
    for payload in decisions:
        if not payload["action"].get("timeout"):
            break
        count += 1
    return count


def _absent(game: Game, state: Any, seat: int) -> Any:
    """The seat has timed out ``max_timeouts`` times in a row: it resigns (``on_absent: "resign"``; the
    engine's ``resign`` marked ``timeout``), or the basic bot takes it for the rest of the match and makes
    this decision (``"bot"``; a ``seat_to_bot`` entry, which replay skips: the engine never knows who
    decides for a seat). Returns the new state."""
    if game.on_absent == OnAbsent.BOT:
        Seat.objects.filter(game=game, number=seat).update(bot=ABSENT_BOT)
        game._seats = None  # type: ignore[attr-defined]  # the seats changed: the appends below read them again
        entry = Event(
            game=game,
            seq=game.version + 1,
            kind="seat_to_bot",
            actor=seat,
            payload={"seat": seat, "bot": ABSENT_BOT, "timeouts": game.max_timeouts},
        )
        append_rows(game, [entry])
        return _bot_decide(game, state, seat, ABSENT_BOT)
    state, _ = append_action(game, state, Action(type="resign", seat=seat, timeout=True))
    return state


@transaction.atomic
def timeout_apply(*, game_id: int, version: int | None = None) -> bool:
    """Apply the default action of every human seat the expired deadline concerns (``due_to_act``:
    in a simultaneous setup all who have not chosen, else the one seat the game waits for).

    Absent players: the ``max_timeouts``-th timeout in a row of a seat (counted in its own decisions,
    ``_timeouts_before``; ``None``: never) applies no default action: the seat resigns, or with
    ``on_absent: "bot"`` the basic bot takes the seat for the rest of the match and decides (``_absent``).

    Does nothing before the deadline, after the game moved past ``version`` (when given), or when
    another worker applied it first: the game row is locked and the deadline re-read under the lock,
    so two sweepers apply each timeout once. The logged action is marked ``timeout``.
    """
    game = _locked_game(game_id, version)
    if game is None or game.deadline is None or game.deadline > timezone.now():
        return False
    state = game_state(game)
    engine = engine_of(game)
    humans = {number for number, bot in seat_bots(game).items() if not bot}
    expired = [seat for seat in engine.due_to_act(state) if seat in humans]
    for seat in expired:
        if seat not in engine.due_to_act(state):  # a seat the last default made act again keeps its new deadline
            continue
        limit = game.max_timeouts
        if limit is not None and _timeouts_before(game, seat, limit - 1) >= limit - 1:
            state = _absent(game, state, seat)
        else:
            state, _ = append_action(game, state, engine.default_action(state, seat))
    return bool(expired)


def timeouts_sweep(*, limit: int = 200) -> int:
    """Apply every expired deadline (each game in its own transaction); returns how many were applied."""
    due = Game.objects.filter(status=GameStatus.ACTIVE, deadline__lte=timezone.now()).order_by("deadline")
    applied = 0
    for game_id in list(due.values_list("id", flat=True)[:limit]):
        applied += timeout_apply(game_id=game_id)
    return applied


def stalled_bots_sweep(*, limit: int = 200) -> int:
    """Make every bot decision that has been due for ``settings.BOT_STALL_SECONDS`` or more with no move
    (its message lost: the broker was down at the commit, or a worker died holding it); returns how many
    bots moved, or were sent to the slow queue.

    The database says what is due (a bot seat's ``Seat.to_act`` in an active game untouched since the
    cutoff); each move goes through ``bot_move`` at the version read here, so a move made meanwhile by
    the original message, or by another sweeper, leaves nothing to do: the decision is logged once. A slow
    bot's move (``games.bot_levels.SLOW_BOTS``) is not made here, on the queue the sweeper shares with basic
    bots and timeouts, but sent again to the slow queue: should that queue be backed up past the stall delay,
    each sweep adds one more message per game, which does nothing once the first has moved.
    """
    cutoff = timezone.now() - timedelta(seconds=settings.BOT_STALL_SECONDS)
    stalled = list(
        Game.objects.filter(
            status=GameStatus.ACTIVE,
            updated__lte=cutoff,
            id__in=Seat.objects.filter(to_act=True).exclude(bot="").values("game_id"),
        )
        .order_by("updated")
        .values_list("id", "version")[:limit]
    )
    slow = set(
        Seat.objects.filter(
            game_id__in=[game_id for game_id, _ in stalled], to_act=True, bot__in=SLOW_BOTS
        ).values_list("game_id", flat=True)
    )
    send_after_commit(SLOW_BOT_MOVE, [[game_id, version] for game_id, version in stalled if game_id in slow])
    moved = sum(bot_move(game_id=game_id, version=version) for game_id, version in stalled if game_id not in slow)
    return moved + len(slow)
