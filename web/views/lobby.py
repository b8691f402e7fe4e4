"""The lobby (open tables, tables being played), a new table, joining, seating a bot, and "my games"."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.engine.errors import EngineError
from games.selectors import read_models as games
from games.selectors.hand_end import match_ends
from games.selectors.options import bot_names, game_kinds, option_defaults, option_fields
from games.services import seat_take
from games.services.lifecycle import game_cancel, seat_leave
from games.services.tables import table_open
from palace_api.errors import ApplicationError, NotFoundError
from web.errors import error_words
from web.forms import BotForm, TableForm, parse_seq
from web.registry import table_kind
from web.tables import seat_names

KIND_NAMES = {"palace-poker": "Palace Poker", "palace": "Palace"}
LOBBY_TABLES = 50


def _options_in_words(summary: dict[str, Any]) -> list[str]:
    """The options that differ from their defaults, as ``name: value``."""
    defaults = option_defaults(summary["kind"], seats=summary["seat_count"])
    return [
        f"{name.replace('_', ' ')}: {value}"
        for name, value in summary["options"].items()
        if defaults.get(name) != value
    ]


def _table_row(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        **summary,
        "kind_name": KIND_NAMES.get(summary["kind"], summary["kind"]),
        "names": list(seat_names(row for row in summary["seats"] if row["player"] or row["bot"]).values()),
        "options_in_words": _options_in_words(summary),
    }


def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables with their kind, seats, options and time per decision; and tables being played."""
    kinds = [(kind, KIND_NAMES.get(kind, kind)) for kind in game_kinds()]
    if not request.user.is_authenticated:
        return render(request, "web/welcome.html", {"kinds": kinds})
    queryset = games.games_queryset(request.user)
    open_tables = games.filter_open_seats(queryset, open_seats=True)[:LOBBY_TABLES]
    playing = queryset.filter(status="active")[:LOBBY_TABLES]
    return render(
        request,
        "web/lobby.html",
        {
            "open_tables": [_table_row(games.game_summary(game)) for game in open_tables],
            "playing": [_table_row(games.game_summary(game)) for game in playing],
            "kinds": kinds,
        },
    )


def _like(request: HttpRequest, kind: str) -> dict[str, Any]:
    """The form's initial values from the table ``?like=<id>`` (its seats, time, options and bots), if the
    person may see that table and it is of this kind; else none."""
    if "like" not in request.GET:
        return {}
    try:
        game = games.game_of_kind(parse_seq(request.GET["like"]), kind)
    except (ValueError, NotFoundError):
        return {}
    summary = games.game_summary(game)
    bots = [row["bot"] for row in summary["seats"] if row["bot"]]
    initial: dict[str, Any] = {f"option_{name}": value for name, value in game.options.items()}
    initial |= {"seats": game.seat_count, "turn_timeout": game.turn_timeout, "bots": len(bots)}
    if bots:
        initial["bot"] = bots[0]
    return initial


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest, kind: str) -> HttpResponse:
    """A new table of ``kind`` with any of its options, the creator seated unless he unticks it, and the bots
    he asks for (``table_open``); ``?like=<id>`` fills the form in from that table. A form refused (by its
    fields or by the rules) comes back with the reasons, answered 400."""
    if kind not in game_kinds():
        raise Http404("no such game")
    form = TableForm(
        request.POST or None,
        initial=_like(request, kind) if request.method == "GET" else None,
        option_fields=option_fields(kind),
        defaults=option_defaults(kind),
        bots=bot_names(kind),
        common=table_kind(kind).common_options,
    )
    if request.method == "POST" and form.is_valid():
        try:
            game = table_open(
                creator=request.user,
                kind=kind,
                seats=form.cleaned_data["seats"],
                options=form.options(),
                sit=form.cleaned_data["sit"],
                bots=form.bot_seats(),
                rated=form.cleaned_data["rated"],
            )
        except (ApplicationError, EngineError) as error:
            form.add_error(None, _words(error))
        else:
            return redirect("web:table", game_id=game.pk)
    context = {"form": form, "kind": kind, "kind_name": KIND_NAMES.get(kind, kind)}
    return render(request, "web/table_new.html", context, status=400 if form.errors else 200)


def rules(request: HttpRequest, kind: str) -> HttpResponse:
    """The rules of ``kind`` in short, in our own words (``TableKind.rules_template``); open to everyone."""
    if kind not in game_kinds():
        raise Http404("no such game")
    context = {"kind": kind, "kind_name": KIND_NAMES.get(kind, kind), "rules_template": table_kind(kind).rules_template}
    return render(request, "web/rules.html", context)


def _words(error: ApplicationError | EngineError) -> str:
    """What went wrong, for people (``web.errors``, the one place)."""
    return error_words(error)


@login_required
@require_POST
def table_join(request: HttpRequest, game_id: int) -> HttpResponse:
    """Sit at the lowest free seat of a waiting table."""
    return _seat(request, game_id, bot=None)


@login_required
@require_POST
def table_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    """Seat a bot (the table's creator only): one of the game's bots (``BotForm``), else a 400 page."""
    try:
        kind = games.game_get(game_id).kind
    except NotFoundError as error:
        raise Http404("no such game") from error
    form = BotForm(request.POST, bots=bot_names(kind))
    if not form.is_valid():
        raise BadRequest("not a bot of this game")
    return _seat(request, game_id, bot=form.cleaned_data["bot"])


@login_required
@require_POST
def table_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    """Give up one's seat at a table that has not started."""
    try:
        seat_leave(user=request.user, game_id=game_id)
    except (ApplicationError, EngineError) as error:
        request.session["web_error"] = _words(error)
    return redirect("web:table", game_id=game_id)


@login_required
@require_POST
def table_cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    """Cancel a table that has not started (its creator only)."""
    try:
        game_cancel(user=request.user, game_id=game_id)
    except (ApplicationError, EngineError) as error:
        request.session["web_error"] = _words(error)
    return redirect("web:table", game_id=game_id)


def _seat(request: HttpRequest, game_id: int, *, bot: str | None) -> HttpResponse:
    try:
        seat_take(game_id=game_id, player=request.user, bot=bot)
    except (ApplicationError, EngineError) as error:
        request.session["web_error"] = _words(error)
    return redirect("web:table", game_id=game_id)


def _outcome(game: Any, row: dict[str, Any], event: dict[str, Any] | None, user_id: int) -> tuple[bool, str]:
    """Whether the player won the finished ``game`` and his place and final chips (or points) in words."""
    outcome = table_kind(game.kind).outcome
    if event is None or outcome is None:
        return False, ""
    seat = next((seat["seat"] for seat in row["seats"] if (seat["player"] or {}).get("id") == user_id), None)
    return outcome(event, seat)


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """Every game the player sits at or created: whether the decision is his, its deadline, live badges."""
    turns = {turn["game"]: turn for turn in games.my_turns(request.user)}
    mine = games.filter_mine(games.games_queryset(request.user), request.user, mine=True)[:200]
    mine = list(mine)
    ends = match_ends(mine)
    rows = []
    for game in mine:
        row = _table_row(games.game_summary(game))
        row["my_turn"] = turns.get(game.pk)
        row["won"], row["result"] = _outcome(game, row, ends.get(game.pk), request.user.pk)
        rows.append(row)
    rows.sort(key=lambda row: (row["my_turn"] is None, row["status"] == "finished"))
    return render(request, "web/my_games.html", {"games": rows})


@login_required
def my_turns_badge(request: HttpRequest) -> HttpResponse:
    """The navigation's live badge: how many games wait for the player's decision."""
    return render(request, "web/_badge.html", {"turns": len(games.my_turns(request.user))})
