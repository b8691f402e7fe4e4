"""Sign-up, logging in, API tokens and the email address. Logging out is Django's own view (``web/urls.py``).

A form these pages refuse (a field out of bounds, or the service's refusal) comes back in words with a 400."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from notifications.selectors import address_of
from notifications.services import email_remove, email_set, preferences_update
from palace_api.errors import ApplicationError
from players.selectors import tokens_of
from players.services import player_signup, token_create, token_revoke_by_key
from web.forms import EmailPreferencesForm, EmailRemoveForm, SignupForm, TokenForm, is_local_path


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
    return render(request, "web/signup.html", {"form": form}, status=400 if form.errors else 200)


class LoginView(auth_views.LoginView):
    """Django's log-in page, with a refused log-in answered 400. Its ``next`` (where to go after, in the query
    as ``login_required`` writes it, or in the form, empty there for the lobby) must be a path of this site:
    else a 400 page, where Django would quietly go to the lobby."""

    template_name = "web/login.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if "next" in request.GET and not is_local_path(request.GET["next"]):
            raise BadRequest("?next= is not a path of this site")
        if request.method == "POST" and request.POST.get("next") and not is_local_path(request.POST["next"]):
            raise BadRequest("next is not a path of this site")
        return super().dispatch(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """The player's API tokens: make one (its text shown this once), revoke one (``TokenForm``)."""
    new_token = None
    error = None
    if request.method == "POST":
        form = TokenForm(request.POST)
        try:
            if not form.is_valid():
                error = "That form was not filled in right: reload the page and try again."
            elif form.cleaned_data["revoke"]:
                token_revoke_by_key(user=request.user, token_key=form.cleaned_data["revoke"])
            else:
                _, new_token = token_create(user=request.user)
        except ApplicationError as exc:
            error = exc.detail
    context = {"tokens": tokens_of(user=request.user), "new_token": new_token, "error": error}
    return render(request, "web/tokens.html", context, status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def email(request: HttpRequest) -> HttpResponse:
    """The account's email address for notifications (README, "Email notifications"): set or change it (a
    confirmation link goes to it), choose which mails come, or remove it. Refusals are shown in words, with a 400;
    the service judges the address."""
    error = notice = None
    if request.method == "POST":
        try:
            notice = _email_post(request)
        except ApplicationError as exc:
            error = exc.detail
        except BadRequest:
            error = "That form was not filled in right: reload the page and try again."
    context = {"address": address_of(request.user), "error": error, "notice": notice}
    return render(request, "web/email.html", context, status=400 if error else 200)


def _email_post(request: HttpRequest) -> str | None:
    """Do what the email page's POST asks (the button pressed tells which form it is); the notice to show.
    Raises ``BadRequest`` for a form out of bounds, and the services' ``ApplicationError``."""
    if "remove" in request.POST:
        if not EmailRemoveForm(request.POST).is_valid():
            raise BadRequest("remove")
        email_remove(user=request.user)
        return "Your address is removed: no more mails."
    if "preferences" in request.POST:
        form = EmailPreferencesForm(request.POST)
        if not form.is_valid():
            raise BadRequest("preferences")
        preferences_update(user=request.user, turn=form.cleaned_data["turn"], finished=form.cleaned_data["finished"])
        return "Saved."
    address = email_set(user=request.user, address=request.POST.get("address", ""))
    if address.confirmed_at is None:
        return f"A confirmation link is on its way to {address.address}: open it to get mails there."
    return None
