"""The pages a mail links to, no login needed (the signed token in the URL is the authority).

- ``/email/confirm/<token>/``: GET shows the address and a button; POST confirms it.
- ``/email/unsubscribe/<token>/``: GET shows a button; POST unsubscribes. A mail client's one-click
  unsubscribe (RFC 8058) POSTs ``List-Unsubscribe=One-Click`` here itself.

A GET never changes anything: mail scanners and link previews fetch links nobody clicked. Both POSTs are
exempt from CSRF: they use no cookie or session, and a mail client has no CSRF token to send. A bad or expired
token is a 400 page naming its ``code``; an address changed since the link was sent, a 409.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications.services import email_confirm, unsubscribe
from notifications.services.links import read_confirm_token, read_unsubscribe_token
from palace_api.errors import ApplicationError

SCOPE_WORDS = {
    "turn": "mails telling you it is your move",
    "finished": "mails about finished games",
    "all": "mails of any kind",
}


def _refused(request: HttpRequest, error: ApplicationError) -> HttpResponse:
    context = {"code": error.code, "detail": error.detail}
    return render(request, "notifications/page_error.html", context, status=error.status)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    """The confirmation link of a confirmation mail."""
    try:
        if request.method == "POST":
            row = email_confirm(token=token)
            return render(request, "notifications/page_confirmed.html", {"address": row.address})
        _, address = read_confirm_token(token)
    except ApplicationError as error:
        return _refused(request, error)
    return render(request, "notifications/page_confirm.html", {"address": address})


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe_view(request: HttpRequest, token: str) -> HttpResponse:
    """The unsubscribe link of every mail, and its List-Unsubscribe header's target."""
    try:
        if request.method == "POST":
            scope = unsubscribe(token=token)
            return render(request, "notifications/page_unsubscribed.html", {"what": SCOPE_WORDS[scope]})
        _, scope = read_unsubscribe_token(token)
    except ApplicationError as error:
        return _refused(request, error)
    return render(request, "notifications/page_unsubscribe.html", {"what": SCOPE_WORDS[scope]})
