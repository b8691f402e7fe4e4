"""The table's chat panel (issue 26, README "Chat"): each room the viewer may read, polled by htmx, with a form
where he may write, and a mute button beside each other author. Text is escaped by the templates (autoescape)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from chat.selectors import ROOMS, latest_messages, mutes_of, room_rights
from chat.services import MAX_LENGTH, message_post, mute_set
from games.selectors import read_models as games
from palace_api.errors import ApplicationError, NotFoundError

TITLES = {"players": "Players' chat", "spectators": "Spectators' chat"}


def _game(game_id: int) -> Any:
    try:
        return games.game_get(game_id)
    except NotFoundError as error:
        raise Http404("no such game") from error


def _room(request: HttpRequest, game: Any, room: str, *, error: str | None = None, text: str = "") -> dict[str, Any]:
    rights = room_rights(game, request.user, room)
    return {
        "game_id": game.pk,
        "room": room,
        "title": TITLES[room],
        "write": rights.write,
        "messages": latest_messages(game, request.user, room=room) if rights.read else [],
        "me": request.user.pk,
        "error": error,
        "text": text,
        "max_length": MAX_LENGTH,
    }


def chat_panel(request: HttpRequest, game: Any) -> dict[str, Any]:
    """What ``web/_chat.html`` draws: ``rooms`` (each readable room's ``_room`` context) and ``muted`` (names)."""
    rooms = [_room(request, game, room) for room in ROOMS if room_rights(game, request.user, room).read]
    return {"rooms": rooms, "muted": mutes_of(request.user), "game_id": game.pk}


def _known_room(room: str) -> str:
    if room not in ROOMS:
        raise Http404("no such room")
    return room


@login_required
def table_chat(request: HttpRequest, game_id: int, room: str) -> HttpResponse:
    """The messages of one room (the fragment htmx polls); a room the viewer may not read is a 403 page."""
    game = _game(game_id)
    if not room_rights(game, request.user, _known_room(room)).read:
        return HttpResponse("This room is not yours to read while the game is played.", status=403)
    return render(request, "web/_chat_messages.html", _room(request, game, room))


@login_required
@require_POST
def table_chat_say(request: HttpRequest, game_id: int, room: str) -> HttpResponse:
    """Say something in a room, through the API's own service; a refusal is shown beside the form (the text
    kept), with a 400 (htmx gets a 200, since it swaps no 4xx answer)."""
    game = _game(game_id)
    text = request.POST.get("text", "")[: 4 * MAX_LENGTH]
    error = None
    try:
        message_post(user=request.user, game_id=game.pk, room=_known_room(room), text=text)
    except ApplicationError as exc:
        error = exc.detail
    context = _room(request, game, room, error=error, text=text if error else "")
    if not request.htmx:
        if error:  # a page of its own, with the form and the text kept
            return render(request, "web/chat_refused.html", context, status=400)
        return redirect("web:table", game_id=game.pk)
    return render(request, "web/_chat_room.html", context)


@login_required
@require_POST
def chat_mute(request: HttpRequest, player_id: int) -> HttpResponse:
    """Mute (``muted=1``) or unmute (``muted=0``) a player for oneself, then back to the table ``game``. Any other
    ``muted``, or a ``game`` that is not an id, is a 400 page; a refusal of the service too (an unknown player: 404)."""
    muted, game = request.POST.get("muted", ""), request.POST.get("game", "")
    if muted not in ("0", "1") or not (game.isdigit() and len(game) <= 18):
        raise BadRequest("muted: 0 or 1; game: a game id")
    try:
        mute_set(user=request.user, player_id=player_id, muted=muted == "1")
    except NotFoundError as exc:
        raise Http404(exc.detail) from exc
    except ApplicationError as exc:
        raise BadRequest(exc.detail) from exc
    return redirect("web:table", game_id=int(game))
