"""Sign-up and API tokens. Logging in and out are Django's own views (``web/urls.py``)."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from notifications.selectors import address_of
from notifications.services import email_remove, email_set, preferences_update
from palace_api.errors import ApplicationError
from players.selectors import tokens_of
from players.services import player_signup, token_create, token_revoke_by_key
from web.forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """A new player with a name and a password, logged in at once."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = player_signup(name=form.cleaned_data["name"], password=form.cleaned_data["password"])
        except ApplicationError as error:
            form.add_error(None, error.detail)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("web:lobby")
    return render(request, "web/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """The player's API tokens: make one (its text shown this once), revoke one."""
    new_token = None
    error = None
    if request.method == "POST":
        try:
            if "revoke" in request.POST:
                token_revoke_by_key(user=request.user, token_key=request.POST["revoke"])
            else:
                _, new_token = token_create(user=request.user)
        except ApplicationError as exc:
            error = exc.detail
    return render(
        request, "web/tokens.html", {"tokens": tokens_of(user=request.user), "new_token": new_token, "error": error}
    )


@login_required
@require_http_methods(["GET", "POST"])
def email(request: HttpRequest) -> HttpResponse:
    """The account's email address for notifications (README, "Email notifications"): set or change it (a
    confirmation link goes to it), choose which mails come, or remove it. Refusals are shown in words."""
    error = notice = None
    if request.method == "POST":
        try:
            if "remove" in request.POST:
                email_remove(user=request.user)
                notice = "Your address is removed: no more mails."
            elif "preferences" in request.POST:
                preferences_update(user=request.user, turn="turn" in request.POST, finished="finished" in request.POST)
                notice = "Saved."
            else:
                address = email_set(user=request.user, address=request.POST.get("address", ""))
                if address.confirmed_at is None:
                    notice = f"A confirmation link is on its way to {address.address}: open it to get mails there."
        except ApplicationError as exc:
            error = exc.detail
    return render(request, "web/email.html", {"address": address_of(request.user), "error": error, "notice": notice})
