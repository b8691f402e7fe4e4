"""Every event the shedding game Palace emits, as data (``games.engine.event_fields``): what its seat, data fields
and card groups are. The API's schema types each log event from this list; tests/games/api/test_event_schema.py holds
it to what random games emit. A seat is 0 to 9."""

from __future__ import annotations

from games.engine.event_fields import (
    BOOL,
    CHOICE,
    DEALER_DRAW_EVENTS,
    EITHER,
    INT,
    NO_SEAT,
    PER_SEAT,
    PRIVATE,
    PUBLIC,
    SEATS,
    SEED_EVENTS,
    STAFF_ONLY,
    EventField,
    EventSpec,
    GroupField,
    shuffle_event,
    timeout_event,
)
from games.engine.shedding.game import ACTION_TYPES, CHANCE_PURPOSES
from games.engine.shedding.legal import FACE_DOWN, FACE_UP, FOUR_PLAY, HAND, REDRAW_PLAY, TURN_PLAY
from games.engine.shedding.options import FIRST_PLAYER_RULES
from games.engine.steps import RESIGN

END_REASONS = ("last_player", "first_out", "stalemate", "resigned")
"""Why a match ends (``ending.end_match``): one player left holding cards, the first player out wins, the turn
cap, one player left in the match after resignations."""

_ALWAYS_NULL = "Always null: it concerns the table."

EVENTS: tuple[EventSpec, ...] = (
    shuffle_event(CHANCE_PURPOSES),
    timeout_event((*ACTION_TYPES, RESIGN)),
    *SEED_EVENTS,
    *DEALER_DRAW_EVENTS,
    # The deal and the setup (deal.py).
    EventSpec(
        "deal_started",
        "The deal starts.",
        seat_doc="The dealer.",
        fields=(EventField("seats", SEATS, "The seats in deal order: from the dealer's left, the dealer last."),),
    ),
    EventSpec(
        "dealt",
        "The seat's nine cards: three face down, three face up, three to the hand.",
        groups=(
            GroupField("face_down", STAFF_ONLY, "The face-down cards: nobody sees them, their owner included."),
            GroupField("face_up", EITHER, "The face-up cards: to everyone, or (`setup_deal: hand`) to the owner."),
            GroupField("hand", PRIVATE, "The hand: its owner's alone."),
        ),
    ),
    EventSpec(
        "stock_placed",
        "The rest of the pack is the stock.",
        seat=NO_SEAT,
        seat_doc=_ALWAYS_NULL,
        fields=(EventField("size", INT, "Cards in the stock."),),
    ),
    EventSpec(
        "face_up_chosen",
        "The seat chooses its three face-up cards, sealed until every seat has chosen.",
        groups=(GroupField("cards", PRIVATE, "The three chosen: the chooser's alone."),),
    ),
    EventSpec(
        "face_up_set",
        "Every seat has chosen: the seat's choice is turned face up.",
        groups=(
            GroupField("face_up", PUBLIC, "The face-up cards."),
            GroupField(
                "to_hand",
                PUBLIC,
                "Dealt face-up cards the seat took into its hand (`setup_deal: face_up`), known to all.",
                optional=True,
            ),
        ),
    ),
    EventSpec(
        "first_player",
        "Play begins.",
        seat_doc="The seat that plays first.",
        fields=(
            EventField(
                "rule",
                CHOICE,
                "Why this seat: the `first_player` option, or `chosen_seat` for a seat it names.",
                choices=(*FIRST_PLAYER_RULES, "chosen_seat"),
            ),
        ),
    ),
    # Play (play.py, turns.py).
    EventSpec(
        "play",
        "The seat plays cards of one rank onto the pile.",
        fields=(
            EventField("source", CHOICE, "Where the cards came from.", choices=(HAND, FACE_UP, FACE_DOWN)),
            EventField(
                "kind",
                CHOICE,
                "`turn`: on turn; `redraw`: cards just drawn, added out of turn; `four`: completing four of a kind "
                "out of turn.",
                choices=(TURN_PLAY, REDRAW_PLAY, FOUR_PLAY),
            ),
            EventField("out_of_turn", BOOL, "Whether it was played out of turn."),
            EventField("position", INT, "From `face_down`: the position flipped, 0-2.", optional=True),
        ),
        groups=(GroupField("cards", PUBLIC, "The cards played."),),
    ),
    EventSpec(
        "burn",
        "The pile is burned (out of the game): a ten, or four of one rank on top.",
        seat_doc="The seat whose play burned it; it plays again.",
        fields=(EventField("reason", CHOICE, "Why.", choices=("ten", "four_of_a_kind")),),
        groups=(GroupField("cards", PUBLIC, "The pile burned."),),
    ),
    EventSpec(
        "draw",
        "The seat draws from the stock, back up to three cards.",
        fields=(
            EventField("count", INT, "Cards drawn."),
            EventField("stock", INT, "Cards left in the stock."),
        ),
        groups=(GroupField("cards", PRIVATE, "The cards drawn: the drawer's alone."),),
    ),
    EventSpec(
        "pick_up",
        "The seat takes the pile into its hand.",
        groups=(GroupField("cards", PUBLIC, "The pile, known to all."),),
    ),
    EventSpec(
        "face_down_failed",
        "A face-down card flipped does not play on the pile: it goes into the hand with the pile.",
        fields=(
            EventField("position", INT, "The position flipped, 0-2."),
            EventField("hidden", BOOL, "Whether the card stays its owner's alone (`hide_failed_blind_card`)."),
        ),
        groups=(GroupField("card", EITHER, "The card: to everyone, or to its owner alone when `hidden`."),),
    ),
    EventSpec(
        "face_up_taken",
        "`face_up_play: into_hand`: with hand and stock empty, the seat takes its face-up cards into its hand.",
        groups=(GroupField("cards", PUBLIC, "The face-up cards, known to all."),),
    ),
    # The end (ending.py, resign.py).
    EventSpec(
        "player_out",
        "The seat holds no card any more: it is out.",
        fields=(EventField("place", INT, "Its finishing place, from 1."),),
    ),
    EventSpec(
        "match_ended",
        "The match is over.",
        seat=NO_SEAT,
        seat_doc=_ALWAYS_NULL,
        fields=(
            EventField("order", SEATS, "Every seat, first place first."),
            EventField("reason", CHOICE, "Why it ended.", choices=END_REASONS),
            EventField("cards_left", PER_SEAT, "Cards each seat still held, by seat."),
            EventField("turns", INT, "Play decisions made."),
        ),
    ),
    EventSpec(
        "resigned",
        "The seat leaves the match for good; its cards stay where they lie, out of play.",
        fields=(EventField("cards_left", INT, "Cards it still holds."),),
    ),
)
"""Every event type the shedding game emits, one ``EventSpec`` each."""
