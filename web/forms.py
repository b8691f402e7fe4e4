"""The pages' forms. A table's options form is generated from the engine's option definitions
(``games.selectors.options.option_fields``); the engine, through ``game_create``, still decides.

Every field a page posts is bounded here before a service sees it (README, "The browser table"): a checkbox or a
button read by its presence takes only the value the page gives it, a number only ASCII digits; a form that
refuses its data is answered with a 400 page.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import BadRequest
from django.core.validators import RegexValidator
from django.http import QueryDict
from knox.settings import CONSTANTS

from games.engine.option_fields import BOOL, CHOICE, INT, SEAT, OptionField
from games.inputs import validate_idempotency_key
from palace_api.errors import ErrorCode

SEATS_MAX = 10
BLANK = ""
SEQ_MAX = 2**31 - 1
"""The highest game version or log seq a page sends."""
_SEQ = re.compile(r"[0-9]{1,10}")
PRINTABLE_ASCII = RegexValidator(r"^[!-~]+$", "Printable ASCII only, without spaces.")


def parse_seq(value: str) -> int:
    """A version, seq or chip count as a page writes it: 1 to 10 ASCII digits, at most ``SEQ_MAX``. Raises
    ``ValueError`` for anything else (``int()`` alone takes "١٢", "+1", " 1" and 4,300 digits)."""
    if not _SEQ.fullmatch(value) or int(value) > SEQ_MAX:
        raise ValueError(f"not a number from 0 to {SEQ_MAX}: {value[:20]!r}")
    return int(value)


def seq_parameter(query: QueryDict, name: str, *, default: int) -> int:
    """The query parameter ``name`` as a version or seq (``parse_seq``), or ``default`` without one. Raises
    ``BadRequest`` (a 400 page) for a value that is not one, the empty one included."""
    if name not in query:
        return default
    try:
        return parse_seq(query[name])
    except ValueError as error:
        raise BadRequest(f"?{name}= {error}") from None


NEXT_MAX_LENGTH = 2000
"""The longest ``next`` (where the log-in page goes after): a path of this site, as ``login_required`` writes it."""
_LOCAL_PATH = re.compile(r"/(?![/\\])[!-~]*")


def is_local_path(value: str) -> bool:
    """Whether ``value`` is a path of this site as ``login_required`` writes one into ``next``: ``/`` then
    printable ASCII (the rest is percent-encoded), not ``//`` or ``/\\`` (another host), at most
    ``NEXT_MAX_LENGTH`` characters."""
    return len(value) <= NEXT_MAX_LENGTH and _LOCAL_PATH.fullmatch(value) is not None


class _Raw(forms.CheckboxInput):
    """A checkbox as posted: the value sent, or None when the box is not ticked (Django's widget turns any value
    into True, so a field could not tell the page's own ``on`` from anything else)."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        return data.get(name)


class Flag(forms.BooleanField):
    """A checkbox (``on``, the value a browser sends for a ticked box) or a submit button without a value
    (``value=""``) read by its presence: absent is False, present with that value True, any other value refused."""

    widget = _Raw

    def __init__(self, *, sent: str = "on", **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.sent = sent

    def to_python(self, value: Any) -> bool:
        if value is None:
            return False
        if value == self.sent:
            return True
        raise forms.ValidationError(f"Only {self.sent!r} is sent here.", code=ErrorCode.INVALID)


class SignupForm(forms.Form):
    """A name and a password, typed twice; ``players.services.player_signup`` checks both."""

    name = forms.CharField(max_length=32, label="Name", help_text="Letters, digits, '_', '-' or '.'")
    password = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password_again = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}), label="Password again"
    )

    def clean(self) -> dict[str, Any]:
        """The two passwords must match."""
        data = super().clean() or {}
        if data.get("password") != data.get("password_again"):
            raise forms.ValidationError("The two passwords differ.")
        return data


class _OptionalChoice(forms.ChoiceField):
    """A choice that may be left out (the engine's default then), but not sent empty: its list offers no blank."""

    def to_python(self, value: Any) -> str:
        if value == BLANK and not self.valid_value(BLANK):
            raise forms.ValidationError("Choose one of the options.", code="invalid_choice")
        return super().to_python(value)


class _OptionalInt(forms.IntegerField):
    """A number that may be left out (the default then), but not sent empty: its input shows the default."""

    def to_python(self, value: Any) -> int | None:
        if value == BLANK:
            raise forms.ValidationError("Enter a number (the default was filled in).", code="required")
        return super().to_python(value)


def _seat_choices(blank: str) -> list[tuple[str, str]]:
    return [(BLANK, blank), *((str(n), f"seat {n}") for n in range(SEATS_MAX))]


def _in_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")


def option_help(option: OptionField, default: Any) -> str:
    """The engine's description of ``option`` with its default filled in, unless the description says it
    (``"chips; default twice the small bet"``) or the option's blank means something else."""
    help_text = option.help
    if option.optional and option.null_means:
        help_text = f"{help_text}; blank: {option.null_means}".lstrip("; ")
    if "default" not in help_text and default is not None and not option.optional:
        help_text = f"{help_text}; default: {_in_words(default)}".lstrip("; ")
    return help_text


def _form_field(option: OptionField, default: Any) -> forms.Field:
    help_text = option_help(option, default)
    if option.kind == BOOL:
        return Flag(label=option.label, help_text=help_text, initial=default)
    if option.kind == INT:
        field = forms.IntegerField if option.optional else _OptionalInt
        return field(
            required=False,
            label=option.label,
            help_text=help_text or "blank: the default",
            min_value=option.low,
            max_value=option.high,
            initial=default,
        )
    if option.kind == SEAT:
        return forms.TypedChoiceField(
            required=False,
            label=option.label,
            help_text=help_text,
            choices=_seat_choices(option.null_means or "the default"),
            coerce=int,
            empty_value=None,
            initial=default,
        )
    if option.kind == CHOICE:
        choices = [(value, value.replace("_", " ")) for value in option.choices]
        if option.seat_allowed:
            choices += _seat_choices("")[1:]
        return _OptionalChoice(
            required=False, label=option.label, help_text=help_text, choices=choices, initial=default
        )
    raise ValueError(f"unknown option kind {option.kind!r}")


class TableForm(forms.Form):
    """A new table: seats, the time per decision, whether the creator sits, bots for other seats, and every
    option of its game (``option_fields``), each input showing its default (``defaults``, the engine's for two
    seats) or the value of the table it is made like (``initial``).

    An option sent at the default its input showed is left to the engine: defaults that follow other options (the
    big bet twice the small bet) or the seats (two decks from six players) follow them."""

    seats = forms.IntegerField(min_value=2, max_value=SEATS_MAX, initial=2, label="Seats")
    turn_timeout = forms.IntegerField(
        required=False,
        min_value=10,
        max_value=14 * 24 * 3600,
        label="Seconds per decision",
        help_text="blank: no time limit",
    )
    sit = Flag(label="Take a seat myself")
    bots = _OptionalInt(
        required=False,
        min_value=0,
        max_value=SEATS_MAX,
        initial=0,
        label="Bots to seat now",
        help_text="the other seats wait for people; default: 0",
    )
    bot = _OptionalChoice(label="Bot", required=False)
    rated = Flag(label="Rated", help_text="Its end changes the players' ratings; players and bots only")

    def __init__(
        self,
        *args: Any,
        option_fields: tuple[OptionField, ...],
        defaults: dict[str, Any],
        bots: list[str] | None = None,
        common: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.option_fields = option_fields
        self.defaults = defaults
        self.common = common
        bots = bots or []
        self.fields["bot"].choices = [(name, name) for name in bots]
        self.fields["bot"].initial = "basic" if "basic" in bots else next(iter(bots), None)
        self.fields["bot"].help_text = "basic plays at once; search thinks longer and plays better"
        for option in option_fields:
            self.fields[f"option_{option.name}"] = _form_field(option, defaults.get(option.name))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        room = (data.get("seats") or 0) - (1 if data.get("sit") else 0)
        if data.get("bots") and "seats" in data and data["bots"] > room:
            raise forms.ValidationError(f"Only {room} seat{'s' if room != 1 else ''} left for bots.")
        return data

    def bot_seats(self) -> list[str]:
        """The bots to seat at once, one name per seat."""
        count, name = self.cleaned_data.get("bots") or 0, self.cleaned_data.get("bot")
        return [name] * count if name else []

    def options(self) -> dict[str, Any]:
        """The options chosen, as the API takes them: blank ones, and those left at the default their input
        showed, left out (the engine's default), a seat chosen for a rule-or-seat option as its number,
        ``turn_timeout`` with them."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for option in self.option_fields:
            value = data.get(f"option_{option.name}")
            if option.kind == BOOL:
                # Always sent: some flags are on by default, and an unticked box must turn them off.
                out[option.name] = bool(value)
                continue
            if value is None or value == BLANK:
                continue
            if option.kind == CHOICE and option.seat_allowed and str(value).isdigit():
                value = int(value)
            if value == self.defaults.get(option.name):
                continue
            out[option.name] = value
        if data.get("turn_timeout") is not None:
            out["turn_timeout"] = data["turn_timeout"]
        return out

    def option_groups(self) -> list[forms.BoundField]:
        """The bound fields of the options, in the engine's order."""
        return [self[f"option_{option.name}"] for option in self.option_fields]

    def common_options(self) -> list[forms.BoundField]:
        """The options most tables change (the game's ``common_options``), shown first."""
        return [field for field in self.option_groups() if field.name.removeprefix("option_") in self.common]

    def variant_options(self) -> list[forms.BoundField]:
        """The variants and the rarer options, folded under the common ones."""
        return [field for field in self.option_groups() if field.name.removeprefix("option_") not in self.common]

    def variant_errors(self) -> bool:
        """Whether a folded option was refused: the fold then opens."""
        return any(field.errors for field in self.variant_options())


class ActForm(forms.Form):
    """One decision from a table's form: ``act`` (the button pressed: ``<type>`` or ``<type>@<target>``),
    ``version`` (the game's version the page showed), ``idempotency_key`` (the page's own, so a form sent twice
    acts once; optional), ``amount-<type>`` (chips: each control has its own field, all are bounded and the
    pressed one's is used) and ``cards`` (the ticked codes, read by the rules). The rules judge the decision;
    this form only its shape. ``cleaned_data["body"]`` is the action as ``action_submit_idempotent`` takes it.
    """

    act = forms.RegexField(r"^[a-z_]{1,32}(?:@[0-9]{1,4})?$", max_length=37)
    version = forms.CharField(max_length=10, strip=False)
    # Left out, the action is sent without a key; sent, even empty, it must be a key (games.inputs).
    idempotency_key = forms.CharField(required=False, strip=False)

    def clean_idempotency_key(self) -> str | None:
        if "idempotency_key" not in self.data:
            return None
        validate_idempotency_key(self.data["idempotency_key"])
        return self.data["idempotency_key"]

    def clean_version(self) -> int:
        try:
            return parse_seq(self.cleaned_data["version"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        amounts: dict[str, int] = {}
        for name in self.data:
            if name.startswith("amount-") and self.data[name].strip():
                try:
                    amounts[name] = parse_seq(self.data[name].strip())
                except ValueError as error:
                    raise forms.ValidationError(f"{name}: {error}") from None
        if "act" in data:
            type_, _, target = data["act"].partition("@")
            data["body"] = {"type": type_, "cards": self.data.getlist("cards")}
            if target:
                data["body"]["target"] = int(target)
            if f"amount-{type_}" in amounts:
                data["body"]["amount"] = amounts[f"amount-{type_}"]
            if "version" in data:
                data["body"]["expected_version"] = data["version"]
        return data


class HandSeenForm(forms.Form):
    """The "Next hand" button under a hand's result: ``hand``, the number of the hand the player has seen."""

    hand = forms.CharField(max_length=10, strip=False)

    def clean_hand(self) -> int:
        try:
            return parse_seq(self.cleaned_data["hand"])
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


class BotForm(forms.Form):
    """The bot a table's creator seats: one of the game's bots (``bot_names``)."""

    bot = forms.ChoiceField()

    def __init__(self, *args: Any, bots: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["bot"].choices = [(name, name) for name in bots]


class TokenForm(forms.Form):
    """The tokens page: ``revoke`` (the button on a token's row, valued with its lookup prefix) or ``create``."""

    revoke = forms.CharField(
        required=False, max_length=CONSTANTS.TOKEN_KEY_LENGTH, strip=False, validators=[PRINTABLE_ASCII]
    )
    create = Flag(sent="")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "revoke" in self.data and not data.get("revoke") and "revoke" not in self.errors:
            raise forms.ValidationError("Which token? The revoke button names it.")
        if "revoke" not in self.data and not data.get("create"):
            raise forms.ValidationError("Nothing was asked.")
        return data


class EmailPreferencesForm(forms.Form):
    """The kinds of mail a player wants: two checkboxes and the Save button."""

    preferences = Flag(sent="")
    turn = Flag()
    finished = Flag()


class EmailRemoveForm(forms.Form):
    """The Remove button of the email page."""

    remove = Flag(sent="")
