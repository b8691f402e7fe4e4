"""The rematch control at the end of a game (issue 26, README "Rematch"): offer, accept, decline or leave in one
click, through the API's own services; the panel polls while an offer is open and links to the new game."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.selectors import read_models as games
from games.selectors.rematch import rematch_json
from games.services.rematch import rematch_answer, rematch_leave, rematch_offer
from palace_api.errors import ApplicationError, NotFoundError


def _game(game_id: int) -> Any:
    try:
        return games.game_get(game_id)
    except NotFoundError as error:
        raise Http404("no such game") from error


def rematch_panel(request: HttpRequest, game: Any) -> dict[str, Any]:
    """What ``web/_rematch.html`` draws: ``offer`` (``rematch_json``, or ``None``), ``seat`` (the viewer's, or
    ``None`` for a spectator), ``answer`` (his answer is awaited), ``game_id``, ``error``."""
    viewer = games.viewer_for(game, request.user, public_only=True)
    seat = viewer if isinstance(viewer, int) else None
    offer = rematch_json(game)
    return {
        "offer": offer,
        "seat": seat,
        "answer": offer is not None and seat is not None and seat in offer["waiting_for"],
        "game_id": game.pk,
        "error": None,
    }


@login_required
def table_rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """The rematch panel alone (htmx polls it while an offer is open)."""
    game = _game(game_id)
    return render(request, "web/_rematch.html", {"rematch": rematch_panel(request, game)})


ANSWERS = {
    "offer": lambda user, game_id: rematch_offer(user=user, game_id=game_id),
    "accept": lambda user, game_id: rematch_answer(user=user, game_id=game_id, accept=True),
    "decline": lambda user, game_id: rematch_answer(user=user, game_id=game_id, accept=False),
    "leave": lambda user, game_id: rematch_leave(user=user, game_id=game_id),
}


@login_required
@require_POST
def table_rematch_answer(request: HttpRequest, game_id: int, what: str) -> HttpResponse:
    """Offer, accept, decline or leave; then the new game if that made it, else the panel (htmx) or the table.
    A refusal is shown in the panel in words."""
    if what not in ANSWERS:
        raise Http404("no such answer")
    error = None
    try:
        ANSWERS[what](request.user, game_id)
    except ApplicationError as exc:
        error = exc.detail
    game = _game(game_id)
    panel = rematch_panel(request, game)
    made = panel["offer"] and panel["offer"]["game"]
    if made and not error:
        if request.htmx:
            response = HttpResponse()  # htmx follows HX-Redirect
            response["HX-Redirect"] = f"/games/{made}/"
            return response
        return redirect("web:table", game_id=made)
    if not request.htmx:
        if error:
            request.session["web_error"] = error
        return redirect("web:table", game_id=game.pk)
    panel["error"] = error
    return render(request, "web/_rematch.html", {"rematch": panel})
