"""Input and output shapes of the games API. Inputs validate types; the rules are the engine's."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.engine.registry import GAMES

ACTION_FIELDS = {"type", "cards", "target", "amount", "expected_version"}

_renderers: dict[type[serializers.Serializer], serializers.Serializer] = {}


def render(serializer_class: type[serializers.Serializer], instance: Any) -> dict[str, Any]:
    """What ``serializer_class(instance).data`` is, from one instance of the output serializer per process.

    DRF deep-copies a serializer's declared fields, and its nested serializers', every time one is made:
    most of the cost of rendering a game's view. An output serializer keeps nothing of one call for the
    next once its fields are bound (``to_representation`` only reads them), so one instance serves all.
    """
    serializer = _renderers.get(serializer_class)
    if serializer is None:
        serializer = _renderers.setdefault(serializer_class, serializer_class())
    return serializer.to_representation(instance)


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so a typo is a 400 rather than silently ignored."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)


class GameCreateInput(StrictSerializer):
    kind = serializers.ChoiceField(choices=sorted(GAMES), help_text="The game: `palace-poker`.")
    seats = serializers.IntegerField(help_text="Number of seats, 2 to 10 for Palace Poker.")
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text=(
            "Game options. Palace Poker: `betting` (`limit`|`no_limit`), `small_bet`, `big_bet`, `ante`, "
            "`starting_stack` (chips), `first_dealer` (seat or null), `max_hands` (or null), `max_raises`; "
            "and for any game `turn_timeout` (seconds, 10 to 1209600, or null), `max_timeouts` (timeouts in a row "
            "of a seat, default 3, or null for never) and `on_absent` (`resign` or `bot`: what they do)."
        ),
    )
    prearranged_shuffles = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Staff only: the n-th shuffle of the match yields the n-th list as the stock, top card first.",
    )


class SeatInput(StrictSerializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, help_text="The seat to take (0..n-1); the lowest free one if omitted."
    )
    bot = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="Seat a bot of this policy instead of yourself (`basic` or `random`); the game's creator only.",
    )


class ActionInput(StrictSerializer):
    type = serializers.CharField(
        help_text=(
            "Palace Poker: `buy`, `buy_discard` (open_market), `discard`, `bet`, `stay`, `fold`, `call`, `raise`. "
            "Palace: `choose_face_up`, `play`, `pick_up`, `play_face_down`."
        )
    )
    cards = serializers.ListField(
        child=serializers.CharField(), required=False, default=list, help_text='Card codes, e.g. `["As", "Td"]`.'
    )
    target = serializers.IntegerField(required=False, allow_null=True, default=None, help_text="A seat (bet).")
    amount = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="Chips: the bet, or the raise beyond the call."
    )
    expected_version = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        help_text="The game version the decision was made at; 409 if the game has moved on.",
    )


class PlayerRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerRef(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    stack = serializers.IntegerField(allow_null=True, required=False, help_text="Chips behind, once started.")


class LegalActionOutput(serializers.Serializer):
    type = serializers.CharField()
    cost = serializers.IntegerField(help_text="Chips it takes (at `min_amount` where an amount is chosen).")
    targets = serializers.ListField(child=serializers.DictField(), required=False)
    min_amount = serializers.IntegerField(required=False)
    max_amount = serializers.IntegerField(required=False)
    cards = serializers.ListField(child=serializers.CharField(), required=False)
    min_cards = serializers.IntegerField(required=False)
    max_cards = serializers.IntegerField(required=False)


class GameSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "cancelled"])
    version = serializers.IntegerField(help_text="Number of events in the game's log.")
    seat_count = serializers.IntegerField()
    seats_taken = serializers.IntegerField()
    seats = SeatOutput(many=True)
    options = serializers.DictField()
    turn_timeout = serializers.IntegerField(allow_null=True)
    creator = PlayerRef()
    created = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True)


class GameDetailOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "cancelled"])
    version = serializers.IntegerField(help_text="Number of events in the game's log.")
    seat_count = serializers.IntegerField()
    options = serializers.DictField()
    turn_timeout = serializers.IntegerField(allow_null=True)
    max_timeouts = serializers.IntegerField(allow_null=True, help_text="Timeouts in a row before `on_absent`.")
    on_absent = serializers.ChoiceField(choices=["resign", "bot"], help_text="What `max_timeouts` does to a seat.")
    creator = PlayerRef()
    created = serializers.DateTimeField()
    viewer = serializers.JSONField(help_text='Your seat number, or "spectator", or "staff".')
    seats = SeatOutput(many=True)
    state = serializers.JSONField(
        allow_null=True,
        help_text=(
            "The game's state as you may know it (null before the start). Palace Poker: `pot`, `dealer`, `hand`, "
            "`phase`, `step`, `battle`, `stock_size`, `discard_size`, `seats` (each with `stack`, `banner`, "
            "`soldiers`, `palace`: codes, or null per card you may not know)."
        ),
    )
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="Seats whose decision it is.")
    legal_actions = LegalActionOutput(many=True, help_text="Your decisions now, with what each costs.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the current decision times out.")


class EventOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField(help_text="`seat_taken`, `shuffle` or an action type.")
    actor = serializers.IntegerField(allow_null=True, help_text="The seat that acted; null for chance.")
    created = serializers.DateTimeField()
    action = serializers.DictField(required=False, help_text="The action as logged (a shuffle's cards are hidden).")
    events = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="What happened; each `cards` group lists codes, or null per card you may not see.",
    )


class ActionResultOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventOutput(many=True)
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="Seats whose decision it is now.")
    legal_actions = LegalActionOutput(many=True, help_text="Your decisions now (empty if none), with their costs.")


class EventPageOutput(serializers.Serializer):
    version = serializers.IntegerField()
    results = EventOutput(many=True)
    next_after = serializers.IntegerField(allow_null=True, help_text="Pass as `after` for the next page.")


class TurnOutput(serializers.Serializer):
    game = serializers.IntegerField()
    kind = serializers.CharField()
    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
