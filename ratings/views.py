"""The leaderboard pages: one per ladder, a page of 50 ratings at a time, linked from the lobby."""

from __future__ import annotations

import re

from django.core.exceptions import BadRequest
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.registry import LADDERS
from palace_api.errors import NotFoundError
from ratings.selectors.boards import board_row, leaderboard
from ratings.skill import PROVISIONAL_SIGMA

PER_PAGE = 50
_PAGE = re.compile(r"[1-9][0-9]{0,5}")


def leaderboards(request: HttpRequest, ladder: str | None = None) -> HttpResponse:
    """``ladder``'s leaderboard (the first ladder without one), ``?page=n`` (1 to 6 digits; else a 400 page)."""
    ladder = ladder or next(iter(LADDERS))
    raw = request.GET.get("page", "1")
    if set(request.GET) - {"page"} or not _PAGE.fullmatch(raw):
        raise BadRequest("?page= is a page number")
    try:
        rows = leaderboard(ladder)
    except NotFoundError as error:
        raise Http404("no such ladder") from error
    page = Paginator(rows, PER_PAGE).get_page(int(raw))
    start = (page.number - 1) * PER_PAGE
    context = {
        "ladder": ladder,
        "title": LADDERS[ladder],
        "ladders": list(LADDERS.items()),
        "rows": [board_row(rating, start + number + 1) for number, rating in enumerate(page)],
        "page": page,
        "provisional_sigma": PROVISIONAL_SIGMA,
    }
    return render(request, "ratings/leaderboard.html", context)
