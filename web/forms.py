"""The pages' forms. A table's options form is generated from the engine's option definitions
(``games.selectors.options.option_fields``); the engine, through ``game_create``, still decides."""

from __future__ import annotations

from typing import Any

from django import forms

from games.engine.option_fields import BOOL, CHOICE, INT, SEAT, OptionField

SEATS_MAX = 10
BLANK = ""


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


def _seat_choices(blank: str) -> list[tuple[str, str]]:
    return [(BLANK, blank), *((str(n), f"seat {n}") for n in range(SEATS_MAX))]


def _form_field(option: OptionField, default: Any) -> forms.Field:
    help_text = option.help
    if option.kind == BOOL:
        return forms.BooleanField(required=False, label=option.label, help_text=help_text, initial=default)
    if option.kind == INT:
        if option.optional:
            help_text = f"{help_text}; blank: {option.null_means}".lstrip("; ")
        return forms.IntegerField(
            required=False,
            label=option.label,
            help_text=help_text or "blank: the default",
            min_value=option.low,
            max_value=option.high,
        )
    if option.kind == SEAT:
        return forms.TypedChoiceField(
            required=False,
            label=option.label,
            help_text=help_text,
            choices=_seat_choices(option.null_means or "the default"),
            coerce=int,
            empty_value=None,
        )
    if option.kind == CHOICE:
        choices = [(value, value.replace("_", " ")) for value in option.choices]
        if option.seat_allowed:
            choices += _seat_choices("")[1:]
        return forms.ChoiceField(
            required=False, label=option.label, help_text=help_text, choices=choices, initial=default
        )
    raise ValueError(f"unknown option kind {option.kind!r}")


class TableForm(forms.Form):
    """A new table: seats, the time per decision, and every option of its game (``option_fields``)."""

    seats = forms.IntegerField(min_value=2, max_value=SEATS_MAX, initial=2, label="Seats")
    turn_timeout = forms.IntegerField(
        required=False,
        min_value=10,
        max_value=14 * 24 * 3600,
        label="Seconds per decision",
        help_text="blank: no time limit",
    )

    def __init__(
        self, *args: Any, option_fields: tuple[OptionField, ...], defaults: dict[str, Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.option_fields = option_fields
        for option in option_fields:
            self.fields[f"option_{option.name}"] = _form_field(option, defaults.get(option.name))

    def options(self) -> dict[str, Any]:
        """The options chosen, as the API takes them: blank ones left out (the engine's default), a seat
        chosen for a rule-or-seat option as its number, ``turn_timeout`` with them."""
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
            out[option.name] = value
        if data.get("turn_timeout") is not None:
            out["turn_timeout"] = data["turn_timeout"]
        return out

    def option_groups(self) -> list[forms.BoundField]:
        """The bound fields of the options, in the engine's order."""
        return [self[f"option_{option.name}"] for option in self.option_fields]
