"""What each event of a game carries, as data: the API's schema of the log is generated from it.

An event (``games.engine.protocol.Event``) is a ``type``, a ``seat``, public ``data`` fields and named card
groups. Each game's ``events`` module lists its ``EVENTS`` (an ``EventSpec`` per type it emits) beside the code
that emits them, the way its ``options`` module lists ``OPTION_FIELDS``; the events every game makes by the
shared steps (``shuffle``, ``timeout``) and the draw for the first deal are built here.
tests/games/api/test_event_schema.py plays random games of both kinds and checks every event, as each viewer gets it,
against the schema made from these lists, and that each game emits every type its list names and no other.
"""

from __future__ import annotations

from dataclasses import dataclass

# What a data field holds. Every integer an event carries (chips, counts, numbers, positions) is 0 or more.
INT = "int"
"""An integer, 0 or more."""
SEAT = "seat"
"""A seat number, 0 to 9."""
SEATS = "seats"
"""A list of seat numbers."""
INTS = "ints"
"""A list of integers, one per seat in seat order (chips, points)."""
PER_SEAT = "per_seat"
"""An object of integers keyed by seat number as a string: ``{"0": 12, "2": 11}``."""
BOOL = "bool"
TEXT = "text"
"""Free text, for people (a hand's name)."""
CHOICE = "choice"
"""One of ``choices``."""
FIELD_KINDS = (INT, SEAT, SEATS, INTS, PER_SEAT, BOOL, TEXT, CHOICE)

# Who may see a card group (``games.engine.protocol.CardGroup.visible_to``).
PUBLIC = "public"
"""Everyone: the codes, to every viewer."""
PRIVATE = "private"
"""Some seats: codes to them and staff, ``null`` per card to anyone else."""
EITHER = "either"
"""Public or private, as the options or the moment decide."""
STAFF_ONLY = "staff_only"
"""Nobody at the table, its owner included (a shuffle's order, face-down cards): listed to staff alone, only
counted (``unseen``) to anyone else."""
SHOWN = (PUBLIC, PRIVATE, EITHER, STAFF_ONLY)

# What an event's ``seat`` is.
SEATED = "seated"
"""Always a seat."""
NO_SEAT = "no_seat"
"""Always ``null``: the event concerns the table."""
MAYBE_SEATED = "maybe_seated"
"""A seat or ``null``, as ``seat_doc`` says."""
SEAT_KINDS = (SEATED, NO_SEAT, MAYBE_SEATED)


@dataclass(frozen=True, slots=True)
class EventField:
    """One data field of an event: ``name``, what it holds (``kind``, one of ``FIELD_KINDS``; ``choices`` for a
    ``CHOICE``), ``doc`` for people (with its unit), and ``optional``: only some events of the type carry it."""

    name: str
    kind: str
    doc: str
    choices: tuple[str, ...] = ()
    optional: bool = False


@dataclass(frozen=True, slots=True)
class GroupField:
    """One card group an event may carry: ``name`` (the key under ``cards``), who may see it (``shown``, one of
    ``SHOWN``), ``doc``; ``optional``: only some events of the type carry it; ``named``: it may carry a hand's
    name (``hand_names``); ``since``: the day (ISO date) the engine began to send it, events logged before
    lacking it, so that a stored log still matches the schema (``""``: always sent)."""

    name: str
    shown: str
    doc: str
    optional: bool = False
    named: bool = False
    since: str = ""

    @property
    def required(self) -> bool:
        """Whether every stored event of the type carries the group: neither optional nor added later."""
        return not self.optional and not self.since


@dataclass(frozen=True, slots=True)
class EventSpec:
    """One event type of a game: ``type``, ``doc``, what its ``seat`` is (``seat``, one of ``SEAT_KINDS``, and
    ``seat_doc``), its data ``fields`` and its card ``groups``."""

    type: str
    doc: str
    seat: str = SEATED
    seat_doc: str = "The seat it concerns."
    fields: tuple[EventField, ...] = ()
    groups: tuple[GroupField, ...] = ()


def shuffle_event(purposes: tuple[str, ...]) -> EventSpec:
    """Chance's shuffle (``games.engine.steps.apply_shuffle``), for a game whose shuffles serve ``purposes``."""
    return EventSpec(
        "shuffle",
        "Chance shuffled cards; the order is staff's alone.",
        seat=NO_SEAT,
        seat_doc="Always null: chance acts.",
        fields=(
            EventField("purpose", CHOICE, "Why: the deal or draw the shuffled cards are for.", choices=purposes),
            EventField("size", INT, "Cards shuffled."),
            EventField("number", INT, "The shuffle's number in the match, from 0."),
        ),
        groups=(GroupField("order", STAFF_ONLY, "The new order, top card first."),),
    )


def timeout_event(actions: tuple[str, ...]) -> EventSpec:
    """The server applied ``action`` for a seat whose deadline passed (``games.engine.steps.apply_frame``)."""
    return EventSpec(
        "timeout",
        "The seat's deadline passed: the server applies an action for it (the next events are that action's).",
        fields=(EventField("action", CHOICE, "The action type applied.", choices=actions),),
    )


DEALER_DRAW_EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "dealer_card",
        "A card dealt face up in the draw for the first deal.",
        seat_doc="The seat dealt the card.",
        groups=(GroupField("card", PUBLIC, "The card."),),
    ),
    EventSpec(
        "dealer_draw_restarted",
        "The pack ran out among seats tied for the high card: the draw starts again among them, after a shuffle.",
        seat=NO_SEAT,
        seat_doc="Always null.",
        fields=(EventField("contenders", SEATS, "The seats still drawing."),),
    ),
    EventSpec("dealer_chosen", "The draw for the first deal is decided.", seat_doc="The first dealer."),
)
"""The draw for the first deal, the same in both games (their ``deal.draw_for_dealer``)."""
