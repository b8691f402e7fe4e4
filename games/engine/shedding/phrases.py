"""Palace's words (the shedding game): one phrase per event type of its catalogue (``games.engine.shedding.events``).

``phrase(event, names)`` turns one event, as a viewer receives it (``Event.view_json``), into a
``games.engine.phrasing.Line``: who, what and how many, with the cards the viewer may know. Cards he may not
know (the face-down rows, another's hand, a sealed choice, a draw) are counted, never listed. The admin's
history, the web log, the replay and the mails all phrase this game's events here (found through
``games.engine.registry``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.phrasing import (
    DEALER_DRAW_PHRASES,
    Cards,
    Line,
    Names,
    Phrase,
    count_words,
    known,
    line,
    ordinal,
    phrase_with,
    shuffle_phrase,
    size,
    timeout_phrase,
)

Event = Mapping[str, Any]

PURPOSES = {"first_dealer": "the draw for the first deal", "deal": "the deal"}
"""Why chance shuffles (``game.CHANCE_PURPOSES``), in words."""
DEFAULTS = {
    "choose_face_up": "keeps the dealt face-up cards by default",
    "play": "plays their lowest playable card by default",
    "pick_up": "picks up the pile by default",
    "play_face_down": "turns up a face-down card by default",
    "resign": "has missed too many turns and leaves the match",
}
"""What a seat whose time ran out does (``legal.default_action``; an absent seat resigns), by action type."""
FIRST_PLAYER = {
    "lowest_face_up": "with the lowest face-up card",
    "left_of_dealer": "on the dealer's left",
    "chosen_seat": "as the table was set up",
}
"""Why a seat plays first (``options.FIRST_PLAYER_RULES`` and a seat the options name)."""
SOURCES = {"hand": "from the hand", "face_up": "from the face-up cards"}
BURNS = {"ten": "with a ten", "four_of_a_kind": "with four of a kind"}
ENDS = {
    "last_player": "with one player left holding cards",
    "first_out": "as the first player goes out",
    "stalemate": "at the turn limit",
    "resigned": "as everyone else resigned",
}
"""Why the match ended (``events.END_REASONS``)."""


def _who(event: Event, names: Names) -> str:
    return names(event["seat"])


def _cards_or_count(event: Event, group: str, where: str) -> tuple[Cards | str, str]:
    """The group's cards and ``where``, or their number when the viewer may not know them."""
    cards = known(event, group)
    if cards is None:
        return count_words(size(event, group), "card"), where
    return cards, where


# The deal and the setup (deal.py).


def _deal_started(event: Event, names: Names) -> Line:
    return line(
        f"{_who(event, names)} deals to {names.several(event['seats'])}: three cards face down, three face up "
        "and three to the hand each"
    )


def _dealt(event: Event, names: Names) -> Line:
    down = _cards_or_count(event, "face_down", " face down, ")
    up = _cards_or_count(event, "face_up", " face up and ")
    hand = _cards_or_count(event, "hand", " to the hand")
    return line(_who(event, names), " is dealt ", *down, *up, *hand)


def _stock_placed(event: Event, names: Names) -> Line:
    return line(f"The other {count_words(event['size'], 'card')} are the stock")


def _face_up_chosen(event: Event, names: Names) -> Line:
    cards = known(event, "cards")
    if cards is None:
        return line(f"{_who(event, names)} chooses three face-up cards, hidden until everyone has chosen")
    return line(_who(event, names), " chooses ", cards, " to lie face up, hidden until everyone has chosen")


def _face_up_set(event: Event, names: Names) -> Line:
    to_hand = known(event, "to_hand")
    return line(
        _who(event, names),
        " turns ",
        known(event, "face_up"),
        " face up",
        " and takes " if to_hand else None,
        to_hand,
        " into the hand" if to_hand else None,
    )


def _first_player(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} plays first, {FIRST_PLAYER[event['rule']]}")


# Play (play.py, turns.py).


def _play(event: Event, names: Names) -> Line:
    who, cards = _who(event, names), known(event, "cards")
    if event["source"] == "face_down":
        return line(who, f" turns up the {ordinal(event['position'] + 1)} face-down card, ", cards, ", and plays it")
    how = {"redraw": ", just drawn, out of turn", "four": " out of turn, completing four of a kind"}
    return line(who, " plays ", cards, f" {SOURCES[event['source']]}{how.get(event['kind'], '')}")


def _burn(event: Event, names: Names) -> Line:
    return line(_who(event, names), f" burns the pile {BURNS[event['reason']]}: ", known(event, "cards"))


def _draw(event: Event, names: Names) -> Line:
    cards = known(event, "cards")
    left = f" ({event['stock']} left in the stock)"
    if cards is None:
        return line(f"{_who(event, names)} draws {count_words(event['count'], 'card')}{left}")
    return line(_who(event, names), " draws ", cards, left)


def _pick_up(event: Event, names: Names) -> Line:
    cards = known(event, "cards")
    if cards is None:
        return line(f"{_who(event, names)} picks up the pile, which is empty")
    return line(_who(event, names), " picks up the pile: ", cards)


def _face_down_failed(event: Event, names: Names) -> Line:
    which = f" turns up the {ordinal(event['position'] + 1)} face-down card"
    card = known(event, "card")
    if card is None:
        return line(_who(event, names), which, ", which does not play: it goes to the hand unseen")
    return line(_who(event, names), which, ", ", card, ", which does not play: it goes to the hand")


def _face_up_taken(event: Event, names: Names) -> Line:
    return line(_who(event, names), " takes the face-up cards ", known(event, "cards"), " into the hand")


# The end (ending.py, resign.py).


def _player_out(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} has no cards left and is out, in {ordinal(event['place'])} place")


def _match_ended(event: Event, names: Names) -> Line:
    left = {int(seat): count for seat, count in event["cards_left"].items()}
    places = ", ".join(
        f"{place}. {names(seat)}" + (f" with {count_words(left[seat], 'card')} left" if left.get(seat) else "")
        for place, seat in enumerate(event["order"], start=1)
    )
    return line(f"The game ends {ENDS[event['reason']]} after {count_words(event['turns'], 'turn')}: {places}")


def _resigned(event: Event, names: Names) -> Line:
    held = count_words(event["cards_left"], "card")
    return line(f"{_who(event, names)} resigns with {held} left and leaves the match")


PHRASES: dict[str, Phrase] = {
    "shuffle": shuffle_phrase(PURPOSES),
    "timeout": timeout_phrase(DEFAULTS),
    **DEALER_DRAW_PHRASES,
    "deal_started": _deal_started,
    "dealt": _dealt,
    "stock_placed": _stock_placed,
    "face_up_chosen": _face_up_chosen,
    "face_up_set": _face_up_set,
    "first_player": _first_player,
    "play": _play,
    "burn": _burn,
    "draw": _draw,
    "pick_up": _pick_up,
    "face_down_failed": _face_down_failed,
    "face_up_taken": _face_up_taken,
    "player_out": _player_out,
    "match_ended": _match_ended,
    "resigned": _resigned,
}
"""One phrase per event type of ``games.engine.shedding.events.EVENTS``."""


def phrase(event: Event, names: Names) -> Line:
    """The shedding game's ``event`` (``Event.view_json`` for some viewer) in words; ``names``: who sits where.
    Raises ``KeyError`` for an event type not in the catalogue."""
    return phrase_with(PHRASES, event, names)
