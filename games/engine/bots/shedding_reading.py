"""What the last turn before the searcher's says of the hidden part of that player's hand (Palace).

The search deals the cards its seat cannot see (``shedding_search.ShedSearchRules.determinize``); a
uniform deal ignores what the player who acted just before showed by acting. The view keeps no
history, but the top of the pile is that player's last play, and an empty pile on a fresh turn is his
pick-up. Read as the ``basic`` policy plays (``shedding_basic``: the lowest plain rank that plays, all
its cards; a two or a ten only when no plain rank plays; a pick-up only when nothing plays,
palace-shedding-b.txt "Other Misc. Rules", first bullet, under ``must_play_if_able``), the cards he held
before that turn and still holds exclude some ranks:

* he played ``n`` plain cards of rank ``r`` on a pile whose top needed rank ``p`` (any rank on an
  empty pile or a two: palace-shedding-a.txt ¶11.10, ¶20.2): none of the plain ranks ``p`` to ``r``
  (a lower one would have gone instead, and every ``r`` went); when the run of ``r`` on top is longer
  than one card some of it may be older, so only ``r`` is excluded;
* he played a two: no plain rank that plays on what lay below it, and no ten when three or more
  cards lay below it (``basic`` burns such a pile with a ten rather than spend a two);
* he picked the pile up: no two, no ten, nothing as high as the pile's top, which was no higher than
  the highest card he took (the view keeps the taken cards among his known ones, sorted).

Cards he drew after that play (at most as many as he played, and only while he holds three or fewer)
are unconstrained. His known cards (``hand_public``) must fit the reading too; when they do not, he is
not playing as ``basic`` does and nothing is read. Nothing is read when the searcher plays again after
his own burn or two, decides out of turn, or the player before him holds no hidden hand cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.bots.base import RandomSource
from games.engine.bots.search import shuffled
from games.engine.bots.shedding_basic import BURN_PILE, TEN, TWO
from games.engine.cards import Card
from games.engine.shedding.state import HAND_SIZE

ACE = 14
PLAIN = frozenset(rank for rank in range(3, ACE + 1) if rank != TEN)
"""The ranks ``basic`` plays before a special card (palace-shedding-a.txt ¶18-20: twos and tens are special)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """``seat``'s hidden hand cards, all but ``fresh`` of them, hold no rank in ``excluded``."""

    seat: int
    excluded: frozenset[int]
    fresh: int


def read_last_turn(view: Mapping[str, Any]) -> Reading | None:
    """The reading of the turn before the viewer's (see the module docstring), or ``None``.

    ``view``: a Palace view of the seat on turn (``games.engine.shedding.view``).
    """
    me, rows = view["viewer"], view["seats"]
    if view["turn"] != me or view["replay"] or not view["turns"]:
        return None
    before = _seat_before(rows, me, view["out_order"])
    if before is None:
        return None
    row = rows[before]
    known = [Card.parse(code) for code in row["hand"] if code is not None]
    hidden = row["hand_size"] - len(known)
    if hidden <= 0:
        return None
    pile = [Card.parse(code) for code in view["pile"]]
    if not pile:
        if not view["options"]["must_play_if_able"] or not known:
            return None
        high = max((card.rank for card in known if card.rank in PLAIN), default=ACE)
        return Reading(seat=before, excluded=frozenset({TWO, TEN, *(r for r in PLAIN if r >= high)}), fresh=0)
    excluded, drawn = _excluded_by_play(pile, view["options"]["two_effect"] == "play_again")
    fresh = min(drawn, row["hand_size"]) if row["hand_size"] <= HAND_SIZE else 0
    if not excluded or any(card.rank in excluded for card in known) or hidden <= fresh:
        return None
    return Reading(seat=before, excluded=excluded, fresh=fresh)


def _seat_before(rows: Sequence[Mapping[str, Any]], me: int, out_order: Sequence[int]) -> int | None:
    """The seat that played just before ``me``: the nearest one counter-clockwise still in the match;
    ``None`` when the last seat to go out sits between (he may have gone out on that turn)."""
    count = len(rows)
    for k in range(1, count):
        row = rows[(me - k) % count]
        if row["resigned"]:
            continue
        if not row["out"]:
            return int(row["seat"])
        if out_order and row["seat"] == out_order[-1]:
            return None
    return None


def _excluded_by_play(pile: Sequence[Card], again_after_two: bool) -> tuple[frozenset[int], int]:
    """The ranks excluded by the play on top of ``pile`` and how many cards he may have drawn since.

    A play that is the whole pile may follow his own burn in the same turn (the burnt cards left his
    hand too, and a replay with an empty hand draws first), and one on a two his own two when a two
    plays again (``again_after_two``: option ``two_effect``): any of his cards may be new then. A run of
    twos may hold a redraw (``basic`` plays one two): nothing is read from it."""
    top = pile[-1].rank
    run = 1
    while run < len(pile) and pile[-1 - run].rank == top:
        run += 1
    own_two = again_after_two and run < len(pile) and pile[-1 - run].rank == TWO
    fresh = HAND_SIZE if run == len(pile) or own_two else run
    if top == TWO:
        if run > 1:
            return frozenset(), fresh
        need = pile[-2].rank if len(pile) > 1 else TWO
        excluded = {rank for rank in PLAIN if need == TWO or rank >= need}
        if len(pile) - 1 >= BURN_PILE:
            excluded.add(TEN)
        return frozenset(excluded), fresh
    if run > 1 or top not in PLAIN:
        return frozenset({top}), fresh
    need = pile[-2].rank if len(pile) > 1 else TWO
    low = 3 if need == TWO else need
    return frozenset(rank for rank in PLAIN if low <= rank <= top), fresh


def deal_read_hand(reading: Reading, hidden: list[Card], count: int, rng: RandomSource) -> list[Card] | None:
    """``count`` cards for the read seat's hidden hand, taken out of ``hidden`` (a shuffled pool,
    reshuffled in place after the taking so that the rest stays uniformly ordered): ``count - fresh``
    of them outside ``excluded``, the others any; ``None`` (``hidden`` untouched) when the pool holds
    too few cards that fit."""
    need = count - reading.fresh
    fits = [i for i, card in enumerate(hidden) if card.rank not in reading.excluded]
    if need <= 0 or len(fits) < need:
        return None
    taken = set(fits[-need:])
    hand = [hidden[i] for i in sorted(taken)]
    rest = shuffled([card for i, card in enumerate(hidden) if i not in taken], rng)
    hand += [rest.pop() for _ in range(reading.fresh)]
    hidden[:] = rest
    return hand
