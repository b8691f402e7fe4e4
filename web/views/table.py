"""The table: the page, its live fragment, acting, the log in words and the step-by-step replay."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.engine.errors import EngineError
from games.selectors import read_models as games
from games.selectors.export import has_phh
from games.selectors.hand_end import last_finished_hand, match_ends
from games.selectors.options import bot_choices
from games.selectors.replay import game_replay_step
from games.selectors.review import review_panel
from games.selectors.words import log_lines
from games.services import action_submit_idempotent
from games.services.lifecycle import game_resign
from games.services.review import review_request
from palace_api.errors import ApplicationError, NotFoundError
from players.auth import stream_token_for
from web.errors import error_words
from web.forms import ActForm, HandSeenForm, seq_parameter
from web.registry import table_kind
from web.tables import TableKind, seat_names
from web.views.chat import chat_panel
from web.views.lobby import KIND_NAMES
from web.views.rematch import rematch_panel

LOG_LINES = 40
"""Log lines shown under the table (the log page shows the whole game)."""


def _game(game_id: int) -> Any:
    try:
        return games.game_get(game_id)
    except NotFoundError as error:
        raise Http404("no such game") from error


def _table(request: HttpRequest, game: Any, *, error: str | None = None) -> dict[str, Any]:
    """Everything ``web/_table.html`` draws, for this viewer (spectators see the public view only)."""
    detail = games.game_detail(game, request.user, public_only=True)
    kind = table_kind(game.kind)
    names = seat_names(detail["seats"])
    events = games.game_events(
        game, request.user, after=max(0, game.version - LOG_LINES), limit=LOG_LINES, public_only=True
    )
    seated = isinstance(detail["viewer"], int)
    playing = (
        seated
        and detail["status"] == "active"
        and detail["state"] is not None
        and not detail["state"]["seats"][detail["viewer"]].get("resigned")
    )
    return {
        "game": detail,
        "kind": game.kind,
        "kind_name": KIND_NAMES.get(game.kind, game.kind),
        "template": kind.template,
        "t": None if detail["state"] is None else kind.table_context(detail, names),
        **_ending(request, game, kind, names),
        "names": names,
        "to_act_names": [names[seat] for seat in detail["to_act"]],
        "seated": seated,
        "playing": playing,
        "creator": request.user.pk == game.creator_id,
        "bots": bot_choices(game.kind),
        "log": list(reversed(log_lines(game.kind, events["results"], names)))[:LOG_LINES],
        "resign_words": kind.resign_words,
        "glossary_template": kind.glossary_template,
        "error": error,
        "idempotency_key": uuid.uuid4().hex,
        "poll_ms": int(settings.WEB_POLL_SECONDS * 1000),
        "stream_kinds": " ".join(kind.entry_kinds),
        # A WSGI server (runserver, the browser tests' live server) buffers a stream whole: the page polls there.
        "live_stream": settings.WEB_LIVE_STREAM and isinstance(request, ASGIRequest),
        # Called by the template only when it draws the results (Django calls a callable context value).
        "rematch": lambda: rematch_panel(request, game),
    }


def _ending(request: HttpRequest, game: Any, kind: TableKind, names: dict[int, str]) -> dict[str, Any]:
    """The match's ``results`` once it ended; before, the end of the last hand (``end``, drawn by
    ``kind.hand_end_template``; ``end_fresh``: shown open until the viewer's next decision). Both are read from the
    game's own events and history (``games.selectors.hand_end``)."""
    out: dict[str, Any] = {"end": None, "end_fresh": False, "end_template": kind.hand_end_template, "results": None}
    event = match_ends([game]).get(game.pk) if kind.results is not None else None
    if event is not None and kind.results is not None:
        out["results"] = kind.results(event, names)
    elif kind.hand_end is not None:
        finished = last_finished_hand(game, request.user, public_only=True)
        if finished is not None:
            seen = request.session.get(HANDS_SEEN, {}).get(str(game.pk), 0)
            out["end"] = kind.hand_end(finished.hand)
            out["end_fresh"] = finished.fresh and seen < finished.hand.number
    return out


HANDS_SEEN = "web_hands_seen"
"""The session's key of the hands whose result the player put away ("Next hand"): game id -> hand number."""


@login_required
@require_POST
def table_next_hand(request: HttpRequest, game_id: int) -> HttpResponse:
    """The "Next hand" button: the player has seen hand ``hand``'s result, which folds away on his table (this
    session only; nothing changes in the game). A ``hand`` that is not a number is a 400 page."""
    form = HandSeenForm(request.POST)
    if not form.is_valid():
        raise BadRequest("hand: not a hand number")
    game = _game(game_id)
    seen = dict(request.session.get(HANDS_SEEN, {}))
    seen[str(game.pk)] = max(seen.get(str(game.pk), 0), form.cleaned_data["hand"])
    request.session[HANDS_SEEN] = seen
    template = "web/_table.html" if request.htmx else "web/table.html"
    return render(request, template, _table(request, game))


@login_required
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table page: the player's own seat if he sits at it, else the public view, and the chat panel."""
    game = _game(game_id)
    context = _table(request, game, error=request.session.pop("web_error", None))
    context["chat"] = chat_panel(request, game)
    return render(request, "web/table.html", context)


@login_required
def table_live(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table fragment if the game moved past version ``v`` (without one: always), else 204 (htmx swaps
    nothing). A finished game's fragment polls no more (``web/_live.html``). The one place live updates come
    from: an SSE stream may replace it. A ``v`` that is not a version is a 400 page."""
    game = _game(game_id)
    seen = seq_parameter(request.GET, "v", default=-1)
    if seen == game.version:
        return HttpResponse(status=204)
    return render(request, "web/_table.html", _table(request, game))


@login_required
@require_POST
def table_act(request: HttpRequest, game_id: int) -> HttpResponse:
    """An ordinary POST of one decision (``ActForm``), through the API's own service; a refusal is shown in
    words, with a 400 (htmx, which swaps no 4xx answer, gets it with a 200)."""
    form = ActForm(request.POST)
    error: str | None = None
    if not form.is_valid():
        error = "That form was not filled in right: reload the page and try again."
    else:
        key = form.cleaned_data["idempotency_key"]
        try:
            action_submit_idempotent(
                user=request.user, game_id=game_id, body=form.cleaned_data["body"], idempotency_key=key
            )
        except (ApplicationError, EngineError) as exc:
            error = error_words(exc)
    game = _game(game_id)
    context = _table(request, game, error=error)
    if request.htmx:
        return render(request, "web/_table.html", context)
    return render(request, "web/table.html", context, status=400 if error else 200)


@login_required
def table_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """Where the page's ``EventSource`` follows this game: the API's game stream after the version the page shows,
    with a stream token of the session (60 s to connect; asked again for each connection; void once the session
    logs out). An ``after`` that is not a seq is a 400 page."""
    game = _game(game_id)
    after = seq_parameter(request.GET, "after", default=game.version)
    token = stream_token_for(request)
    url = reverse("game-stream", kwargs={"game_id": game.pk})
    return JsonResponse({"url": f"{url}?{urlencode({'token': token, 'after': after})}"})


@login_required
@require_POST
def table_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """Leave a running match for good, through the API's own service (README, Rules decisions: resigning)."""
    error = None
    try:
        game_resign(user=request.user, game_id=game_id)
    except (ApplicationError, EngineError) as exc:
        error = error_words(exc)
    context = _table(request, _game(game_id), error=error)
    return render(request, "web/table.html", context, status=400 if error else 200)


@login_required
def table_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """The whole log in words, as the player may see it."""
    game = _game(game_id)
    detail = games.game_detail(game, request.user, public_only=True)
    names = seat_names(detail["seats"])
    entries: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = games.game_events(game, request.user, after=after, limit=500, public_only=True)
        entries += page["results"]
        after = page["next_after"]
    return render(
        request,
        "web/log.html",
        {
            "game": detail,
            "kind_name": KIND_NAMES.get(game.kind, game.kind),
            "log": log_lines(game.kind, entries, names),
        },
    )


@login_required
def table_replay(request: HttpRequest, game_id: int, step: int) -> HttpResponse:
    """The game after ``step`` log entries, as the player could see it then, with the way to the next step."""
    game = _game(game_id)
    try:
        replay = game_replay_step(game, request.user, step=step, public_only=True)
    except NotFoundError as error:
        raise Http404(error.detail) from error
    kind = table_kind(game.kind)
    names = seat_names(replay["seats"])
    return render(
        request,
        "web/replay.html",
        {
            "game": replay,
            "kind_name": KIND_NAMES.get(game.kind, game.kind),
            "template": kind.template,
            "t": None if replay["state"] is None else kind.table_context(replay, names),
            "lines": replay["lines"],
            "previous": step - 1 if step > 1 else None,
            "next": step + 1 if step < replay["steps"] else None,
            "replaying": True,
            "phh": has_phh(game),
            "review": review_panel(game, request.user, step=step),
            "error": request.session.pop("web_error", None),
        },
    )


@login_required
@require_POST
def table_review(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for the search bot's review of one's own seat in a finished game (``games.services.review``); back to
    the replay's last step, where it shows, with a refusal in words if any."""
    game = _game(game_id)
    try:
        review_request(user=request.user, game_id=game_id)
    except (ApplicationError, EngineError) as error:
        request.session["web_error"] = error_words(error)
    return redirect("web:table-replay", game_id=game_id, step=max(1, game.version))
