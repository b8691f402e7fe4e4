"""Input and output shapes of the games API. Inputs validate types; the rules are the engine's."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.option_schema import BotNameField
from games.api.schema import (
    LOGGED_ACTION_TYPES,
    RATED_HELP,
    GameEventsField,
    LegalActionsField,
    LoggedActionField,
    OptionsField,
    StateField,
    ViewerField,
)
from games.bot_levels import bot_levels_markdown
from games.engine.registry import GAMES
from palace_api.serializers import StrictSerializer

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


_validators: dict[type[serializers.Serializer], serializers.Serializer] = {}


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """What ``serializer_class(data=data)`` validates to (``validated_data``), checked by one instance of the input
    serializer per process, as ``render`` renders: making one deep-copies its declared fields, 0.26-0.38 ms of CPU
    for ``ActionInput``, the hot path's, against 0.04 ms for the check itself. Only for a serializer without
    ``context`` whose validation keeps nothing on the instance (DRF's fields and validators keep nothing).

    Raises DRF's ``ValidationError`` (400 ``invalid``) as ``is_valid(raise_exception=True)`` does, with the same
    ``errors``: a body the shared instance refuses is judged again by a fresh serializer, whose error is raised."""
    serializer = _validators.get(serializer_class)
    if serializer is None:
        serializer = _validators.setdefault(serializer_class, serializer_class())
    try:
        return dict(serializer.run_validation(data))
    except serializers.ValidationError:
        pass  # DRF's is_valid reshapes some errors (a null body's): its own path words the answer
    fresh = serializer_class(data=data)
    fresh.is_valid(raise_exception=True)
    return dict(fresh.validated_data)


class GameCreateInput(StrictSerializer):
    """What the server checks of a new game's body; the rules check the options (the schema's ``GameCreate``,
    in games/api/schema.py, documents them per game)."""

    kind = serializers.ChoiceField(choices=sorted(GAMES), help_text="`palace-poker` or `palace`.")
    seats = serializers.IntegerField(help_text="Number of seats, 2 to 10.")
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="The game's options; for any game also `turn_timeout`, `max_timeouts`, `on_absent`.",
    )
    prearranged_shuffles = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Staff only: the n-th shuffle of the match yields the n-th list as the stock, top card first.",
    )
    rated = serializers.BooleanField(required=False, default=False, help_text=RATED_HELP)


class SeatInput(StrictSerializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, help_text="The seat to take (0..n-1); the lowest free one if omitted."
    )
    bot = BotNameField(
        required=False,
        allow_null=True,
        help_text=(
            "Seat a bot of this level instead of yourself (one the game's kind has); the creator only. Levels:\n"
            + bot_levels_markdown()
        ),
    )
    seed = serializers.RegexField(
        r"^(?:[0-9a-f]{2})+$",
        required=False,
        allow_null=True,
        min_length=2,
        max_length=64,
        help_text=(
            "Your own shuffle seed, 1 to 32 bytes of lower-case hex, mixed into every shuffle of the match "
            "(README, 'Provably fair shuffles'); none: the server draws one. Not for a bot."
        ),
    )


class ActionInput(StrictSerializer):
    """What the server checks of an action's body; the rules check the rest (the schema's ``ActionInput``)."""

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


class GameSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=sorted(GAMES))
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "cancelled"])
    version = serializers.IntegerField(help_text="Number of events in the game's log.")
    seat_count = serializers.IntegerField()
    seats_taken = serializers.IntegerField()
    seats = SeatOutput(many=True)
    options = OptionsField(help_text="Every option of the game, defaults filled in (as its `kind` says).")
    turn_timeout = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField(help_text="Whether its end changes its players' ratings.")
    creator = PlayerRef()
    created = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True)


class GamePageOutput(serializers.Serializer):
    count = serializers.IntegerField(help_text="Games matching the filters.")
    next = serializers.URLField(allow_null=True, help_text="The next page's URL.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page's URL.")
    results = GameSummaryOutput(many=True)


class GameDetailOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=sorted(GAMES))
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "cancelled"])
    version = serializers.IntegerField(help_text="Number of events in the game's log.")
    seat_count = serializers.IntegerField()
    options = OptionsField(help_text="Every option of the game, defaults filled in (as its `kind` says).")
    turn_timeout = serializers.IntegerField(allow_null=True)
    max_timeouts = serializers.IntegerField(allow_null=True, help_text="Timeouts in a row before `on_absent`.")
    on_absent = serializers.ChoiceField(choices=["resign", "bot"], help_text="What `max_timeouts` does to a seat.")
    rated = serializers.BooleanField(help_text="Whether its end changes its players' ratings.")
    creator = PlayerRef()
    created = serializers.DateTimeField()
    viewer = ViewerField(help_text='Your seat number, or "spectator", or "staff".')
    seats = SeatOutput(many=True)
    state = StateField(
        allow_null=True,
        help_text="The game's state as you may know it (null before the start): `PokerState` or `ShedState`.",
    )
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="Seats whose decision it is.")
    legal_actions = LegalActionsField(help_text="Your decisions now, with what each costs.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the current decision times out.")
    rematch_of = serializers.IntegerField(allow_null=True, help_text="The game this one is the rematch of.")
    rematch = serializers.IntegerField(allow_null=True, help_text="This game's rematch, once every player accepted.")


class EventOutput(serializers.Serializer):
    """One log entry (``games.selectors.read_models.event_json``). Every entry has ``seq``, ``kind``, ``actor`` and
    ``created``; the rest depends on ``kind``:

    - an engine action (``shuffle`` or an action type of the game, ``resign`` included): ``action`` and
      ``events``;
    - ``seat_taken``: ``seat``, and ``player`` (a person sat) or ``bot`` (the creator seated a bot);
    - ``seat_left``: ``seat`` and ``player``, before the start;
    - ``seat_to_bot``: ``seat``, ``bot`` and ``timeouts``, after the seat's timeouts in a row (``on_absent: bot``);
    - ``game_cancelled``: ``by``, the creator who cancelled.
    """

    seq = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=["seat_taken", "seat_left", "seat_to_bot", "game_cancelled", *LOGGED_ACTION_TYPES],
        help_text="`seat_taken`, `seat_left`, `seat_to_bot`, `game_cancelled`, `shuffle` or an action type (`resign`).",
    )
    actor = serializers.IntegerField(
        allow_null=True, help_text="The seat that acted or was acted on; null for chance and a cancellation."
    )
    created = serializers.DateTimeField()
    seat = serializers.IntegerField(required=False, help_text="`seat_taken`, `seat_left`, `seat_to_bot`: the seat.")
    player = PlayerRef(required=False, help_text="`seat_taken` by a person, `seat_left`: who.")
    bot = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="`seat_taken` by a bot, `seat_to_bot`: the bot's policy (`basic`, `random`).",
    )
    timeouts = serializers.IntegerField(
        required=False, help_text="`seat_to_bot`: the timeouts in a row that handed the seat to the bot."
    )
    by = PlayerRef(required=False, help_text="`game_cancelled`: the creator who cancelled.")
    action = LoggedActionField(
        required=False, help_text="Engine entries: the action as logged (a shuffle shows only its size)."
    )
    events = GameEventsField(
        required=False,
        help_text='Engine entries: what happened, each event typed by its `type`; card groups as `"cards": '
        '{"<group>": ["As", null, ...]}`.',
    )


class ActionResultOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventOutput(many=True)
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="Seats whose decision it is now.")
    legal_actions = LegalActionsField(help_text="Your decisions now (empty if none), with their costs.")


class EventPageOutput(serializers.Serializer):
    version = serializers.IntegerField()
    results = EventOutput(many=True)
    next_after = serializers.IntegerField(allow_null=True, help_text="Pass as `after` for the next page.")


class TurnOutput(serializers.Serializer):
    game = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=sorted(GAMES))
    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
