"""The typed v1 contract of the games API: shapes that exist for the OpenAPI schema alone.

The engine renders a game's state, options, legal actions and log as plain JSON (``games.engine``'s ``view``,
``LegalAction.to_json``, ``Event.view_json``); the views pass it through untouched. These serializers are never
run: they describe that JSON, one component per game where the games differ, so a generated client gets typed
models (``PokerState``, ``ShedState``...) instead of free dicts. ``state`` and ``options`` are a ``oneOf`` with
the ``kind`` discriminator; action types are enums per game. ``tests/games/api/test_contract.py`` plays whole matches
of both games through a client generated from this schema, and Schemathesis checks every answer against it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.api.option_schema import MAX_SEATS, option_fields
from games.engine.poker.game import ACTION_TYPES as POKER_ACTION_TYPES
from games.engine.shedding.game import ACTION_TYPES as SHED_ACTION_TYPES
from games.services.games import TURN_TIMEOUT_MAX, TURN_TIMEOUT_MIN

RATED_HELP = (
    "Rated (`true`) or casual (`false`, the default): a rated game's end changes its players' ratings; its seats "
    "take only players and bots (`403 unrated_account`), its shuffles are never prearranged "
    "(`400 rated_not_prearranged`)."
)

POKER = "palace-poker"
SHED = "palace"
CARD = {"type": "string", "description": "A card code, rank and suit: `As`, `Td`, `9c`.", "example": "As"}
MAYBE_CARD = {**CARD, "nullable": True, "description": "A card code, or null for a card you may not know."}


def _card_list(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), **kwargs)


@extend_schema_field({"type": "array", "items": MAYBE_CARD})
class MaybeCardsField(serializers.JSONField):
    """Card codes, ``null`` for each card the viewer may not know."""


def _kind_field(kind: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[kind], help_text="The game; the discriminator of this oneOf.")


def _turn_timeout() -> serializers.IntegerField:
    return serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=TURN_TIMEOUT_MIN,
        max_value=TURN_TIMEOUT_MAX,
        help_text="Seconds a human has for a decision (10 s to 14 days); null or left out: no deadline.",
    )


PokerOptions = type("PokerOptions", (serializers.Serializer,), option_fields(POKER, given=False))
ShedOptions = type("ShedOptions", (serializers.Serializer,), option_fields(SHED, given=False))
PokerOptionsInput = type(
    "PokerOptionsInput",
    (serializers.Serializer,),
    {**option_fields(POKER, given=True), "turn_timeout": _turn_timeout()},
)
ShedOptionsInput = type(
    "ShedOptionsInput", (serializers.Serializer,), {**option_fields(SHED, given=True), "turn_timeout": _turn_timeout()}
)


def _create_input(name: str, kind: str, options: type[serializers.Serializer], seats: str) -> type:
    return type(
        name,
        (serializers.Serializer,),
        {
            "kind": _kind_field(kind),
            "seats": serializers.IntegerField(min_value=2, max_value=10, help_text=seats),
            "options": options(required=False),
            "prearranged_shuffles": serializers.ListField(
                child=_card_list(),
                required=False,
                help_text="Staff only: the n-th shuffle of the match yields the n-th list as the stock, top first.",
            ),
            "rated": serializers.BooleanField(required=False, default=False, help_text=RATED_HELP),
        },
    )


PokerGameCreate = _create_input("PokerGameCreate", POKER, PokerOptionsInput, "2 to 10 players.")
ShedGameCreate = _create_input("ShedGameCreate", SHED, ShedOptionsInput, "2 to 10 players (6 or more: two decks).")

GAME_CREATE = PolymorphicProxySerializer(
    component_name="GameCreate",
    serializers={POKER: PokerGameCreate, SHED: ShedGameCreate},
    resource_type_field_name="kind",
)


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="GameOptions",
        serializers={POKER: PokerOptions, SHED: ShedOptions},
        resource_type_field_name=None,
    )
)
class OptionsField(serializers.JSONField):
    """A game's options, every one filled in: ``PokerOptions`` or ``ShedOptions`` as the game's ``kind`` says."""


# --- actions: what a client sends, what it may send ---


def _action_input(name: str, types: tuple[str, ...], doc: str, *, amount: bool) -> type:
    """A decision as a client sends it; ``amount`` only where the game bets."""
    fields: dict[str, serializers.Field] = {
        "type": serializers.ChoiceField(choices=list(types), help_text=doc),
        "cards": _card_list(required=False, help_text='Card codes, e.g. `["As", "Td"]`.'),
        "target": serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEATS - 1),
    }
    if amount:
        fields["amount"] = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    fields["expected_version"] = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="The game version the decision was made at; 409 if the game has moved on.",
    )
    return type(name, (serializers.Serializer,), fields)


PokerActionInput = _action_input(
    "PokerActionInput",
    POKER_ACTION_TYPES,
    "`discard` takes `cards`; `bet` takes `target` (a seat) and `amount` (chips); `raise` takes `amount` "
    "(the raise beyond the call); `buy_discard` needs the open_market option.",
    amount=True,
)
ShedActionInput = _action_input(
    "ShedActionInput",
    SHED_ACTION_TYPES,
    "`choose_face_up` and `play` take `cards`; `play_face_down` takes `target` (0-2), optionally.",
    amount=False,
)
ACTION_INPUT = PolymorphicProxySerializer(
    component_name="ActionInput", serializers=[PokerActionInput, ShedActionInput], resource_type_field_name=None
)


class TargetOutput(serializers.Serializer):
    """A seat a bet may name, with what the bet costs against it."""

    seat = serializers.IntegerField()
    cost = serializers.IntegerField(help_text="Chips the action costs against this seat.")


def _legal_action(name: str, types: tuple[str, ...], *, bets: bool) -> type:
    """A decision the viewer may make (``games.engine.protocol.LegalAction.to_json``); ``bets``: with the
    targets and amounts of a game that bets."""
    fields: dict[str, serializers.Field] = {
        "type": serializers.ChoiceField(choices=list(types)),
        "cost": serializers.IntegerField(help_text="Chips it takes (at `min_amount` where an amount is chosen)."),
    }
    if bets:
        fields["targets"] = TargetOutput(many=True, required=False)
        fields["min_amount"] = serializers.IntegerField(required=False)
        fields["max_amount"] = serializers.IntegerField(required=False)
    fields["cards"] = _card_list(required=False, help_text="The cards it may name.")
    fields["min_cards"] = serializers.IntegerField(required=False)
    fields["max_cards"] = serializers.IntegerField(required=False)
    return type(name, (serializers.Serializer,), fields)


PokerLegalAction = _legal_action("PokerLegalAction", POKER_ACTION_TYPES, bets=True)
ShedLegalAction = _legal_action("ShedLegalAction", SHED_ACTION_TYPES, bets=False)


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="LegalAction",
        serializers=[PokerLegalAction, ShedLegalAction],
        resource_type_field_name=None,
        many=True,
    )
)
class LegalActionsField(serializers.JSONField):
    """The viewer's decisions now: a list of ``PokerLegalAction`` or of ``ShedLegalAction``."""


# --- the state, per game ---


class PokerBattle(serializers.Serializer):
    """The battle under way (palace-poker.txt, "Bet (or battle)"): who attacks, who defends, the bet, who answers."""

    attacker = serializers.IntegerField()
    defender = serializers.IntegerField()
    bet = serializers.IntegerField()
    responder = serializers.IntegerField()
    owed = serializers.IntegerField()
    raises = serializers.IntegerField()
    put_in = serializers.ListField(child=serializers.IntegerField(), help_text="Chips each side put in, per seat.")


class PokerSeatState(serializers.Serializer):
    """One seat of a Palace Poker table as the viewer may know it."""

    seat = serializers.IntegerField()
    stack = serializers.IntegerField(help_text="Chips behind.")
    in_match = serializers.BooleanField()
    resigned = serializers.BooleanField(help_text="Whether the seat has resigned (or was resigned at its timeouts).")
    in_hand = serializers.BooleanField()
    put_in = serializers.IntegerField(help_text="Chips put into this hand's pot.")
    banner = serializers.CharField(allow_null=True, help_text="The banner card's code.")
    soldiers = _card_list(help_text="Face-up soldiers.")
    palace = MaybeCardsField(help_text="Palace cards: codes, or null per card you may not know.")
    dealer_cards = _card_list(required=False, help_text="Cards drawn for the first deal.")


class PokerState(serializers.Serializer):
    """A Palace Poker game as the viewer may know it (games/engine/poker/view.py)."""

    kind = _kind_field(POKER)
    phase = serializers.ChoiceField(choices=["choose_dealer", "banner_deal", "palace_deal", "play", "finished"])
    hand = serializers.IntegerField(help_text="The hand's number, from 1 (0 before the first).")
    dealer = serializers.IntegerField(allow_null=True)
    pot = serializers.IntegerField(help_text="Chips in the pot.")
    to_act = serializers.ListField(child=serializers.IntegerField())
    step = serializers.ChoiceField(choices=["turn", "discard", "battle", "draw"], allow_null=True)
    awaiting_shuffle = serializers.CharField(allow_null=True, help_text="The purpose of the shuffle due, if any.")
    battle = PokerBattle(allow_null=True)
    stock_size = serializers.IntegerField()
    discard_size = serializers.IntegerField()
    set_aside = _card_list()
    seats = PokerSeatState(many=True)
    legal_actions = PokerLegalAction(many=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    options = PokerOptions()
    scores = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="Under points.")
    discards = _card_list(required=False, help_text="Staff only: the discard pile.")


class FaceDownCard(serializers.Serializer):
    """A face-down card still on the table: its position, and the card for staff alone."""

    position = serializers.IntegerField(help_text="0-2: the `target` of `play_face_down`.")
    card = serializers.CharField(allow_null=True, help_text="Null but for staff.")


class ShedSeatState(serializers.Serializer):
    """One seat of a Palace (shedding) table as the viewer may know it."""

    seat = serializers.IntegerField()
    hand = MaybeCardsField(help_text="The hand: codes, or null per card you may not know.")
    hand_size = serializers.IntegerField()
    face_up = MaybeCardsField()
    face_down = FaceDownCard(many=True)
    cards_left = serializers.IntegerField()
    out = serializers.BooleanField()
    resigned = serializers.BooleanField(help_text="Whether the seat has resigned (or was resigned at its timeouts).")
    place = serializers.IntegerField(allow_null=True)
    chosen = serializers.BooleanField(required=False, help_text="In the setup: whether the seat has chosen.")
    choice = _card_list(required=False, allow_null=True, help_text="In the setup: your own choice.")
    dealer_cards = _card_list(required=False)


class PileTop(serializers.Serializer):
    """The rank on top of the pile and how many of it lie on top in a row."""

    rank = serializers.IntegerField(help_text="2..14 (ace high).")
    count = serializers.IntegerField(help_text="Cards of that rank on top in a row.")


class ShedResult(serializers.Serializer):
    """How a finished match ended: the seats in finishing order, and why it ended."""

    order = serializers.ListField(child=serializers.IntegerField(), help_text="Seats, first place first.")
    reason = serializers.CharField()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "description": "Your seat."},
            {"type": "string", "enum": ["spectator", "staff"]},
        ]
    }
)
class ViewerField(serializers.JSONField):
    """Your seat number, ``"spectator"`` or ``"staff"``."""


class ShedState(serializers.Serializer):
    """A Palace (shedding) game as the viewer may know it (games/engine/shedding/view.py)."""

    kind = _kind_field(SHED)
    viewer = ViewerField()
    phase = serializers.ChoiceField(choices=["choose_dealer", "deal", "setup", "play", "finished"])
    dealer = serializers.IntegerField(allow_null=True)
    turn = serializers.IntegerField(allow_null=True)
    replay = serializers.BooleanField()
    to_act = serializers.ListField(child=serializers.IntegerField())
    awaiting_shuffle = serializers.CharField(allow_null=True)
    turns = serializers.IntegerField()
    max_turns = serializers.IntegerField()
    stock_size = serializers.IntegerField()
    pile = _card_list(help_text="The pile, top card last.")
    pile_top = PileTop(allow_null=True)
    burned = _card_list()
    seats = ShedSeatState(many=True)
    legal_actions = ShedLegalAction(many=True)
    out_order = serializers.ListField(child=serializers.IntegerField())
    result = ShedResult(allow_null=True)
    options = ShedOptions()


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="GameState",
        serializers={POKER: PokerState, SHED: ShedState},
        resource_type_field_name="kind",
    )
)
class StateField(serializers.JSONField):
    """The engine's view of the game for the caller: ``PokerState`` or ``ShedState`` by ``kind``."""


# --- the log ---


LOGGED_ACTION_TYPES = sorted({*POKER_ACTION_TYPES, *SHED_ACTION_TYPES, "shuffle", "resign"})
"""What a log entry's ``kind`` and ``action.type`` may be, beside ``seat_taken``: an action type of either game,
or chance's ``shuffle``."""


class ShuffleSeeds(serializers.Serializer):
    """The seeds of a deal (``games.engine.fairness.SeedDraw``), in hex."""

    scheme = serializers.ChoiceField(choices=["palace-shuffle-1"])
    game = serializers.CharField()
    deal = serializers.IntegerField(min_value=0)
    server_seed = serializers.CharField()
    salt = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    drawn = serializers.ListField(child=serializers.IntegerField(min_value=0))


class LoggedAction(serializers.Serializer):
    """A log entry's action as the viewer may see it (``games.engine.protocol.action_for_viewer``)."""

    type = serializers.ChoiceField(choices=LOGGED_ACTION_TYPES, help_text="An action type, or `shuffle` (chance).")
    seat = serializers.IntegerField(required=False)
    cards = MaybeCardsField(required=False, help_text="The cards it named: null per card you may not see.")
    size = serializers.IntegerField(required=False, help_text="A shuffle's size, to all but staff.")
    target = serializers.IntegerField(required=False)
    amount = serializers.IntegerField(required=False)
    timeout = serializers.BooleanField(required=False, help_text="Applied by the server at a deadline.")
    seeds = ShuffleSeeds(required=False, help_text="The first shuffle of a deal: the deal's seeds, to staff alone.")
    master = serializers.CharField(
        required=False,
        help_text="The match's first shuffle with seeds: the master seed (hex) every deal's seeds come from, to staff "
        "alone (to everyone in an export once the whole log is revealed).",
    )


@extend_schema_field(LoggedAction)
class LoggedActionField(serializers.JSONField):
    """A log entry's ``action``, passed through as the selector made it (``LoggedAction``)."""


GAME_EVENT = "GameEvent"
"""The component of one engine event: a ``oneOf`` of a component per event type, discriminated by ``type``
(made from each game's event catalogue by ``games.api.event_schema``, added by its postprocessing hook)."""


@extend_schema_field({"type": "array", "items": {"$ref": f"#/components/schemas/{GAME_EVENT}"}})
class GameEventsField(serializers.JSONField):
    """A log entry's ``events``, passed through with every field of each (``GameEvent``: a component per type)."""
