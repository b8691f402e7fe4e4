"""Palace Poker's words: one phrase per event type of its catalogue (``games.engine.poker.events``).

``phrase(event, names)`` turns one event, as a viewer receives it (``Event.view_json``), into a
``games.engine.phrasing.Line``: who, what and how much, with the cards the viewer may know. A palace he may not
see is counted, never listed; a hand is its name and its (up to) five cards, as the engine's evaluator chose
them; a shown palace (at a showdown, or in a battle to the other side) lists each palace card once (those the
hand uses among its five, the rest after). The admin's hand histories, the web log, the replay
and the mails all phrase Palace Poker's events here (found through ``games.engine.registry``).
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
    Piece,
    chips,
    count_words,
    hand_name,
    known,
    line,
    phrase_with,
    shuffle_phrase,
    size,
    timeout_phrase,
    without,
)

Event = Mapping[str, Any]

PURPOSES = {
    "first_dealer": "the draw for the first deal",
    "banner_deal": "the banner deal",
    "banner_redeal": "the rest of the banner deal",
    "palace_deal": "the palace deal",
    "stock_rebuild": "a new stock",
}
"""Why chance shuffles (``game.CHANCE_PURPOSES``), in words."""
DEFAULTS = {
    "buy": "buys a soldier by default",
    "buy_discard": "buys the discard pile's top card by default",
    "discard": "discards by default",
    "bet": "bets by default, as the last two must battle",
    "stay": "stays by default",
    "fold": "folds by default",
    "call": "calls by default",
    "raise": "raises by default",
    "resign": "has missed too many turns and leaves the match",
}
"""What a seat whose time ran out does (``legal.default_action``; an absent seat resigns), by action type."""
AWARDS = {
    "last_player": "as the last player in the hand",
    "same_banner_suit": "as everyone left shares one banner suit",
    "showdown": "with the best hand at the showdown",
    "battle_tie": "after the last two tied their battle",
    "absolute_tie": "in an absolute tie",
}
"""How a hand was won (``events.AWARD_REASONS``), as the end of a sentence."""


def _who(event: Event, names: Names) -> str:
    return names(event["seat"])


def _standing(values: list[int], names: Names, unit: str) -> str:
    """``alice 12, bob 30 chips``: one value per seat, in seat order."""
    return ", ".join(f"{names(seat)} {value}" for seat, value in enumerate(values)) + f" {unit}"


# The deal (deal.py).


def _hand_started(event: Event, names: Names) -> Line:
    return line(f"Hand {event['hand']} begins, dealt by {names(event['dealer'])}")


def _ante(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} antes {chips(event['amount'])}")


def _banner_rejected(event: Event, names: Names) -> Line:
    card = known(event, "card")
    return line(_who(event, names), " is dealt ", card, " for a banner, a suit already taken: it is set aside")


def _stock_exhausted(event: Event, names: Names) -> Line:
    return line(
        f"The stock ran out in the banner deal: the {event['set_aside']} cards set aside are shuffled, and the "
        f"deal goes on with {_who(event, names)}"
    )


def _banner_dealt(event: Event, names: Names) -> Line:
    return line(names.possessive(event["seat"]), " banner is ", known(event, "banner"))


def _palace_dealt(event: Event, names: Names) -> Line:
    palace = known(event, "palace")
    if palace is None:
        return line(f"{_who(event, names)} is dealt {count_words(size(event, 'palace'), 'palace card')}, face down")
    return line(_who(event, names), " is dealt the palace cards ", palace)


# A turn (play.py).


def _buy(event: Event, names: Names) -> Line:
    cost = f" for {chips(event['cost'])}" if event["cost"] else ""
    return line(f"{_who(event, names)} buys a soldier{cost}")


def _buy_discard(event: Event, names: Names) -> Line:
    cost = f" for {chips(event['cost'])}" if event["cost"] else ""
    return line(_who(event, names), " buys ", known(event, "card"), f" from the discard pile{cost}")


def _stock_rebuilt(event: Event, names: Names) -> Line:
    return line(f"The discard pile, shuffled, is the new stock of {event['size']} cards")


def _soldier_drawn(event: Event, names: Names) -> Line:
    return line(_who(event, names), " draws the soldier ", known(event, "card"))


def _discard(event: Event, names: Names) -> Line:
    cards = known(event, "cards")
    if cards is None:
        return line(f"{_who(event, names)} discards nothing and keeps every soldier")
    return line(_who(event, names), " discards ", cards)


def _stay(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} stays")


def _fold(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} folds and leaves the hand")


def _bet(event: Event, names: Names) -> Line:
    amount = f" {chips(event['amount'])}" if event["amount"] else ""
    return line(f"{_who(event, names)} bets{amount} against {names(event['target'])}")


# A battle (battle.py).


def _battle_fold(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} folds the battle: {names(event['opponent'])} wins it")


def _call(event: Event, names: Names) -> Line:
    cost = f" for {chips(event['cost'])}" if event["cost"] else ""
    return line(f"{_who(event, names)} calls{cost}{', all in' if event['all_in'] else ''}")


def _raise(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} raises by {chips(event['amount'])}, putting in {chips(event['cost'])}")


def _palace_shown(event: Event, names: Names) -> Line:
    """In a battle: to the other side alone; at a showdown: to all. Either way the hand is named with its
    (up to) five cards, as the engine chose them, then the palace cards it does not use."""
    who, palace, hand = _who(event, names), known(event, "palace"), known(event, "hand")
    if "to" in event:
        to = names(event["to"])
        if palace is None:
            return line(f"{who} shows {to} the palace cards, which the others do not see")
        name = hand_name(event, "palace") or "their hand"
        if hand is None:
            # Logged before battle hands carried their five cards.
            return line(who, f" shows {to} the palace cards ", palace, f": {name}")
        return line(f"{who} shows {to} the palace: {name}, ", *_hand_then_rest(hand, palace))
    own = event["own_suit_cards"]
    suit = f" ({count_words(own, 'card')} of the banner suit)" if own else ""
    return line(f"{who} shows the palace: {event['hand']}, ", *_hand_then_rest(hand, palace, after=suit))


def _hand_then_rest(hand: Cards | None, palace: Cards | None, *, after: str = "") -> tuple[Piece | None, ...]:
    """A hand's cards, then the palace cards it leaves out, each card once."""
    rest = None if palace is None or hand is None else without(palace, hand)
    if not rest or not rest.codes:
        return (hand, after)
    return (hand, after, "; also in the palace: ", rest)


def _battle_won(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} wins the battle against {names(event['loser'])} with the better hand")


def _captured(event: Event, names: Names) -> Line:
    loser, cards = event["loser"], known(event, "cards")
    out = f"; {names(loser)} is out of the hand"
    if cards is not None and len(cards.codes) == 1:
        # A loser without soldiers gives up his banner alone.
        return line(_who(event, names), f" takes {names.possessive(loser)} banner, ", cards, f", as a soldier{out}")
    return line(
        _who(event, names), f" takes {names.possessive(loser)} banner and soldiers, ", cards, f", as soldiers{out}"
    )


def _battle_tied(event: Event, names: Names) -> Line:
    both = f"{_who(event, names)} and {names(event['defender'])}"
    if event["outcome"] == "split":
        return line(f"{both} tie the battle and split the pot")
    return line(f"{both} tie the battle and both leave the hand")


def _chips_returned(event: Event, names: Names) -> Line:
    return line(f"{chips(event['amount'])} of an uncalled raise go back to {_who(event, names)}")


# The end of a hand and of the match (ending.py, resign.py).


def _points_scored(event: Event, names: Names) -> Line:
    scores = _standing(event["scores"], names, "points")
    if event["seat"] is None:
        return line(f"Nobody scores: {names.several(event['tied'])} tie; the scores stay {scores}")
    points = count_words(event["points"], "point")
    return line(f"{_who(event, names)} scores {points} {AWARDS[event['reason']]}; the scores are {scores}")


def _pot_awarded(event: Event, names: Names) -> Line:
    amounts = {int(seat): value for seat, value in event["amounts"].items()}
    reason, pot = AWARDS[event["reason"]], event["pot"]
    if len(amounts) == 1:
        (winner,) = amounts
        what = f"the pot of {chips(pot)}" if pot else "the hand"
        return line(f"{names(winner)} wins {what} {reason}")
    if not pot:
        return line(f"{names.several(amounts)} share the hand {reason}")
    shares = ", ".join(f"{chips(value)} to {names(seat)}" for seat, value in amounts.items())
    return line(f"The pot of {chips(pot)} is split {reason}: {shares}")


def _hand_ended(event: Event, names: Names) -> Line:
    scores = f"; scores: {_standing(event['scores'], names, 'points')}" if "scores" in event else ""
    return line(f"Hand {event['hand']} ends; stacks: {_standing(event['stacks'], names, 'chips')}{scores}")


def _player_left(event: Event, names: Names) -> Line:
    return line(f"{_who(event, names)} has no chips left and leaves the match")


def _match_ended(event: Event, names: Names) -> Line:
    winners = event["winners"]
    measure, unit = (event["scores"], "points") if "scores" in event else (event["stacks"], "chips")
    top = max((measure[seat] for seat in winners), default=0)
    verb = "wins" if len(winners) == 1 else "win"
    each = "" if len(winners) == 1 else " each"
    hands = count_words(event["hands"], "hand")
    standing = _standing(measure, names, unit)
    return line(
        f"The match ends after {hands}: {names.several(winners)} {verb} with {top} {unit}{each}; final "
        f"{'scores' if unit == 'points' else 'stacks'}: {standing}"
    )


def _resigned(event: Event, names: Names) -> Line:
    stack = event["stack"]
    rest = f", {chips(stack)} out of play" if stack else ""
    return line(f"{_who(event, names)} resigns and leaves the match{rest}")


PHRASES: dict[str, Phrase] = {
    "shuffle": shuffle_phrase(PURPOSES),
    "timeout": timeout_phrase(DEFAULTS),
    **DEALER_DRAW_PHRASES,
    "hand_started": _hand_started,
    "ante": _ante,
    "banner_rejected": _banner_rejected,
    "stock_exhausted": _stock_exhausted,
    "banner_dealt": _banner_dealt,
    "palace_dealt": _palace_dealt,
    "buy": _buy,
    "buy_discard": _buy_discard,
    "stock_rebuilt": _stock_rebuilt,
    "soldier_drawn": _soldier_drawn,
    "discard": _discard,
    "stay": _stay,
    "fold": _fold,
    "bet": _bet,
    "battle_fold": _battle_fold,
    "call": _call,
    "raise": _raise,
    "palace_shown": _palace_shown,
    "battle_won": _battle_won,
    "captured": _captured,
    "battle_tied": _battle_tied,
    "chips_returned": _chips_returned,
    "points_scored": _points_scored,
    "pot_awarded": _pot_awarded,
    "hand_ended": _hand_ended,
    "player_left": _player_left,
    "match_ended": _match_ended,
    "resigned": _resigned,
}
"""One phrase per event type of ``games.engine.poker.events.EVENTS``."""


def phrase(event: Event, names: Names) -> Line:
    """Palace Poker's ``event`` (``Event.view_json`` for some viewer) in words; ``names``: who sits where.
    Raises ``KeyError`` for an event type not in the catalogue."""
    return phrase_with(PHRASES, event, names)
