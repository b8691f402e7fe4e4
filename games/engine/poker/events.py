"""Every event Palace Poker emits, as data (``games.engine.event_fields``): what its seat, data fields and card
groups are. The API's schema types each log event from this list; tests/games/api/test_event_schema.py holds it to
what random games emit. Chips are integers; a seat is 0 to 9."""

from __future__ import annotations

from games.engine.event_fields import (
    BOOL,
    CHOICE,
    DEALER_DRAW_EVENTS,
    EITHER,
    INT,
    INTS,
    MAYBE_SEATED,
    NO_SEAT,
    PER_SEAT,
    PRIVATE,
    PUBLIC,
    SEAT,
    SEATS,
    TEXT,
    EventField,
    EventSpec,
    GroupField,
    shuffle_event,
    timeout_event,
)
from games.engine.poker.game import ACTION_TYPES, CHANCE_PURPOSES
from games.engine.steps import RESIGN

AWARD_REASONS = ("last_player", "same_banner_suit", "showdown", "battle_tie")
"""Why a pot goes where it goes (``ending.award``): one player left, one banner suit left, a showdown, a tied
battle of the last two."""

_ALWAYS_NULL = "Always null: it concerns the table."
_SCORES = EventField("scores", INTS, "Under `points`: each seat's score, in seat order.", optional=True)

EVENTS: tuple[EventSpec, ...] = (
    shuffle_event(CHANCE_PURPOSES),
    timeout_event((*ACTION_TYPES, RESIGN)),
    *DEALER_DRAW_EVENTS,
    # The deal (deal.py).
    EventSpec(
        "hand_started",
        "A hand starts: antes, then the banner deal.",
        seat=NO_SEAT,
        seat_doc=_ALWAYS_NULL,
        fields=(
            EventField("hand", INT, "The hand's number, from 1."),
            EventField("dealer", SEAT, "The dealer."),
            EventField("seats", SEATS, "The seats in the hand, in deal order (from the dealer's left)."),
        ),
    ),
    EventSpec("ante", "The seat antes.", fields=(EventField("amount", INT, "Chips (the whole stack if short)."),)),
    EventSpec(
        "banner_rejected",
        "A card dealt for a banner is set aside face up: its suit is taken in the seat's group of four.",
        seat_doc="The seat it was dealt to.",
        groups=(GroupField("card", PUBLIC, "The card set aside."),),
    ),
    EventSpec(
        "stock_exhausted",
        "The stock ran out in the banner deal: the cards set aside are shuffled and the deal goes on at this seat.",
        seat_doc="The seat the deal stopped at.",
        fields=(EventField("set_aside", INT, "Cards set aside, to be shuffled."),),
    ),
    EventSpec(
        "banner_dealt",
        "The seat's banner card, face up.",
        groups=(GroupField("banner", PUBLIC, "The banner."),),
    ),
    EventSpec(
        "palace_dealt",
        "The seat's three palace cards, face down.",
        groups=(GroupField("palace", PRIVATE, "The palace cards: its owner's alone."),),
    ),
    # A turn (play.py).
    EventSpec("buy", "The seat buys a soldier.", fields=(EventField("cost", INT, "Chips (0 without money)."),)),
    EventSpec(
        "buy_discard",
        "Open market: the seat buys the top card of the discard pile as a soldier.",
        fields=(EventField("cost", INT, "Chips (0 without money)."),),
        groups=(GroupField("card", PUBLIC, "The card bought, now a face-up soldier."),),
    ),
    EventSpec(
        "stock_rebuilt",
        "The shuffled discard pile is the new stock.",
        seat=NO_SEAT,
        seat_doc=_ALWAYS_NULL,
        fields=(EventField("size", INT, "Cards in the stock."),),
    ),
    EventSpec(
        "soldier_drawn",
        "The buyer takes the top card of the stock, face up.",
        seat_doc="The buyer.",
        groups=(GroupField("card", PUBLIC, "The new soldier."),),
    ),
    EventSpec(
        "discard",
        "The seat discards soldiers face down (a discard step may discard none).",
        groups=(GroupField("cards", PUBLIC, "The soldiers discarded."),),
    ),
    EventSpec("stay", "The seat stays: a turn that puts no chips in."),
    EventSpec(
        "fold",
        "The seat leaves the hand on its turn, or on resigning: its cards go face down to the discard pile.",
    ),
    EventSpec(
        "bet",
        "The seat attacks another: a battle starts.",
        seat_doc="The attacker.",
        fields=(
            EventField("target", SEAT, "The defender."),
            EventField("amount", INT, "Chips bet (0 without money)."),
        ),
    ),
    # A battle (battle.py).
    EventSpec(
        "battle_fold",
        "A side of the battle folds (the responder, or a side that resigns); the other wins the battle.",
        fields=(EventField("opponent", SEAT, "The other side, the winner."),),
    ),
    EventSpec(
        "call",
        "The responder calls.",
        fields=(
            EventField("cost", INT, "Chips paid."),
            EventField("all_in", BOOL, "The stack was short of the call: all of it went in."),
        ),
    ),
    EventSpec(
        "raise",
        "The responder calls and raises; the other side answers.",
        fields=(
            EventField("cost", INT, "Chips paid: the call and the raise."),
            EventField("amount", INT, "The raise beyond the call, in chips."),
        ),
    ),
    EventSpec(
        "palace_shown",
        "A palace is shown: in a called battle to the other side alone (`to`), at a showdown to everyone.",
        seat_doc="The palace's owner.",
        fields=(
            EventField("to", SEAT, "In a battle: the seat shown the palace.", optional=True),
            EventField("hand", TEXT, "At a showdown: the best hand's name, e.g. `a flush`.", optional=True),
            EventField(
                "own_suit_cards", INT, "At a showdown: cards of the owner's banner suit in that hand.", optional=True
            ),
        ),
        groups=(
            GroupField(
                "palace",
                EITHER,
                "The palace cards: to everyone at a showdown; in a battle to the owner and `to`, with the hand's "
                "name in `hand_names`.",
                named=True,
            ),
            GroupField(
                "hand",
                EITHER,
                "The (up to) five cards of the best hand the palace makes with the owner's face-up cards: to everyone "
                "at a showdown; in a battle (without the other side's banner suit) to the owner and `to`. (Battles "
                "logged before 2026-11-26 lack it.)",
                since="2026-11-26",
            ),
        ),
    ),
    EventSpec(
        "battle_won",
        "A called battle is decided by the hands.",
        seat_doc="The winner.",
        fields=(
            EventField("loser", SEAT, "The side that lost."),
            EventField("by", CHOICE, "How.", choices=("showdown",)),
        ),
    ),
    EventSpec(
        "captured",
        "The winner of a battle takes the loser's banner and soldiers; the loser leaves the hand.",
        seat_doc="The winner.",
        fields=(
            EventField("loser", SEAT, "The side that lost."),
            EventField("by", CHOICE, "How the battle was won.", choices=("fold", "showdown")),
        ),
        groups=(GroupField("cards", PUBLIC, "The loser's banner and soldiers, now the winner's soldiers."),),
    ),
    EventSpec(
        "battle_tied",
        "A called battle is a complete tie.",
        seat_doc="The attacker.",
        fields=(
            EventField("defender", SEAT, "The defender."),
            EventField(
                "outcome",
                CHOICE,
                "`split`: the last two split the pot; `both_out`: both leave the hand.",
                choices=("split", "both_out"),
            ),
        ),
    ),
    EventSpec(
        "chips_returned",
        "Chips go back from the pot to the seat.",
        fields=(
            EventField("amount", INT, "Chips."),
            EventField("reason", CHOICE, "Why: a raise nobody called.", choices=("uncalled_raise",)),
        ),
    ),
    # The end of a hand and of the match (ending.py, resign.py).
    EventSpec(
        "points_scored",
        "Under `points`: a hand's winner scores.",
        seat=MAYBE_SEATED,
        seat_doc="The scorer; null on an absolute tie (nobody scores).",
        fields=(
            EventField("points", INT, "Points scored: 10 less the soldiers kept, 0 on a tie."),
            EventField("reason", CHOICE, "How the hand was won.", choices=(*AWARD_REASONS, "absolute_tie")),
            EventField("tied", SEATS, "On an absolute tie: the tied seats.", optional=True),
            EventField("scores", INTS, "Each seat's score, in seat order."),
        ),
    ),
    EventSpec(
        "pot_awarded",
        "The pot goes to the hand's winners.",
        seat=NO_SEAT,
        seat_doc=_ALWAYS_NULL,
        fields=(
            EventField("pot", INT, "Chips in the pot."),
            EventField("reason", CHOICE, "How the hand was won.", choices=AWARD_REASONS),
            EventField("amounts", PER_SEAT, "Chips to each winner, by seat."),
        ),
    ),
    EventSpec(
        "hand_ended",
        "The hand is over; its cards are gathered.",
        seat=NO_SEAT,
        seat_doc=_ALWAYS_NULL,
        fields=(
            EventField("hand", INT, "The hand's number."),
            EventField("stacks", INTS, "Chips behind, in seat order."),
            _SCORES,
        ),
    ),
    EventSpec(
        "player_left",
        "A seat out of chips leaves the match.",
        fields=(EventField("reason", CHOICE, "Why.", choices=("no_chips",)),),
    ),
    EventSpec(
        "match_ended",
        "The match is over.",
        seat=NO_SEAT,
        seat_doc=_ALWAYS_NULL,
        fields=(
            EventField("winners", SEATS, "The winners: most chips (or points) among the seats still in."),
            EventField("stacks", INTS, "Chips behind, in seat order."),
            EventField("hands", INT, "Hands played."),
            _SCORES,
        ),
    ),
    EventSpec(
        "resigned",
        "The seat leaves the match for good.",
        fields=(EventField("stack", INT, "Chips behind, out of play from now on."),),
    ),
)
"""Every event type Palace Poker emits, one ``EventSpec`` each."""
