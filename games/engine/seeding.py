"""Commit-reveal shuffles in a game's steps: which shuffle opens a deal, checking a shuffle against its deal's
seeds, and revealing them (the derivation itself is ``games.engine.fairness``).

A match begun with seeds (its first shuffle carried them) keeps them: each deal's first shuffle carries fresh
seeds, committed by a ``seeds_committed`` event before anything of the deal is dealt, and every shuffle's order
must be the one they give. A match whose first shuffle carried none (stored before this scheme, or with
staff's prearranged decks) takes any order, as before. Seeds are revealed (``seeds_revealed``) to everyone
when the match ends, and with ``reveal_each_deal`` also when the next deal opens; staff read them at once in
the shuffle's action. When the first seeds came with their master seed (``games.engine.master_seed``), the state
keeps the master and the current deal's seeds alone, and a reveal derives the earlier deals' again.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from games.engine.cards import Card
from games.engine.errors import EngineCode, EngineError, IllegalAction
from games.engine.fairness import FairState, SeedDraw, check_draw, commitment, derive_order
from games.engine.master_seed import master_draw, master_seeds
from games.engine.protocol import Action, ChanceRequest

SEED_EVENT_TYPES = frozenset({"seeds_committed", "seeds_revealed"})
"""The events of this module: about the shuffles, not the play (the hand histories leave them to the log)."""


def fair_request(state: Any, *, purpose: str, cards: tuple[Card, ...], deal: int) -> ChanceRequest:
    """The shuffle ``state`` owes (``state.fair``, ``state.shuffles``) as a ``ChanceRequest``: ``seeds_due`` when
    it opens ``deal`` (a new match's first shuffle, or a committed match's first of a new deal), else the
    ``order`` the committed seeds give, if any."""
    fair: FairState | None = state.fair
    number = state.shuffles
    if fair is None or fair.draws[-1].deal != deal:
        due = number == 0 if fair is None else True
        return ChanceRequest(purpose=purpose, cards=cards, number=number, deal=deal, seeds_due=due)
    order = derive_order(cards, fair.draws[-1], number)
    return ChanceRequest(purpose=purpose, cards=cards, number=number, deal=deal, order=order)


def check_seeded(recorder: Any, request: ChanceRequest, action: Action, *, reveal_each_deal: bool) -> None:
    """Take the seeds a shuffle carries (commit them: ``seeds_committed``, after revealing the earlier deals'
    with ``reveal_each_deal``) and check its order against the seeds of its deal. The match's first seeds may come
    with the master seed they were derived from (``action.master``); then every deal's must be the ones it gives,
    deal after deal (``check_master``), and the state keeps the master and the current deal's seeds alone.

    Raises ``IllegalAction`` ``invalid_seeds`` (seeds on a shuffle that opens no deal; a master seed anywhere but
    on the match's first seeds) and ``invalid_shuffle`` (a committed match's shuffle without its deal's seeds, or
    in another order than they give), and ``EngineError("invalid_seeds")`` for seeds that do not fit the table,
    the deal or the master seed.
    """
    t = recorder.t
    fair: FairState | None = t.fair
    if action.master is not None and (action.seeds is None or fair is not None):
        raise IllegalAction(EngineCode.INVALID_SEEDS, "a master seed comes only with the match's first seeds")
    if action.seeds is not None:
        if not request.seeds_due:
            raise IllegalAction(EngineCode.INVALID_SEEDS, "seeds come only with the first shuffle of a deal")
        check_draw(action.seeds, seats=t.seats, deal=request.deal)
        if fair is not None and reveal_each_deal:
            reveal(recorder)
            fair = t.fair
        draw = action.seeds
        master = action.master if fair is None else fair.master
        if master is not None:
            check_master(master, draw, after=None if fair is None else fair.draws[-1])
            t.fair = (
                FairState((draw,), 0, master, draw.deal) if fair is None else dataclasses.replace(fair, draws=(draw,))
            )
        else:
            t.fair = FairState((*fair.draws, draw) if fair else (draw,), fair.revealed if fair else 0)
        recorder.emit(
            "seeds_committed",
            None,
            deal=draw.deal,
            scheme=draw.scheme,
            commitment=draw.commitment,
            players=list(draw.players),
            drawn=list(draw.drawn),
        )
    elif fair is not None and request.seeds_due:
        raise IllegalAction(EngineCode.INVALID_SHUFFLE, f"the first shuffle of deal {request.deal} carries its seeds")
    if t.fair is None:
        return
    current = t.fair.draws[-1]
    expected = derive_order(request.cards, current, request.number)
    if tuple(action.cards) != expected:
        position = next(i for i, (a, b) in enumerate(zip(action.cards, expected, strict=True)) if a != b)
        raise IllegalAction(
            EngineCode.INVALID_SHUFFLE,
            f"shuffle {request.number} does not follow the seeds of deal {current.deal}: card {position} is "
            f"{action.cards[position].code}, the seeds give {expected[position].code}",
        )


def check_master(master: str, draw: SeedDraw, *, after: SeedDraw | None) -> None:
    """Raise ``EngineError("invalid_seeds")`` unless ``draw`` is what the master seed ``master`` gives its deal
    (the server seed, the salt, the seeds of the seats in ``drawn``: ``games.engine.master_seed.master_draw``) and,
    ``after`` the previous deal's seeds, its deal is the next one (so the deals between the first and the current
    are known without keeping their seeds)."""
    if after is not None and draw.deal != after.deal + 1:
        raise EngineError(EngineCode.INVALID_SEEDS, f"deal {draw.deal} does not follow deal {after.deal}")
    players = [None if seat in draw.drawn else seed for seat, seed in enumerate(draw.players)]
    if master_draw(master, game=draw.game, deal=draw.deal, players=players) != draw:
        raise EngineError(EngineCode.INVALID_SEEDS, f"the seeds of deal {draw.deal} are not the master seed's")


def reveal(recorder: Any) -> None:
    """Reveal every committed seed not yet revealed: one ``seeds_revealed`` event per deal, in deal order (under
    a master seed, an earlier deal's server seed and salt derived again from it)."""
    fair: FairState | None = recorder.t.fair
    if fair is None or fair.revealed == fair.committed:
        return
    if fair.master is None:
        revealing = [(draw.deal, draw.server_seed, draw.salt) for draw in fair.draws[fair.revealed :]]
    else:
        current = fair.draws[-1]
        revealing = [
            (deal, *master_seeds(fair.master, game=current.game, deal=deal))
            for deal in range(fair.first_deal + fair.revealed, current.deal + 1)
        ]
    for deal, server_seed, salt in revealing:
        recorder.emit(
            "seeds_revealed",
            None,
            deal=deal,
            server_seed=server_seed,
            salt=salt,
            commitment=commitment(server_seed, salt),
        )
    recorder.t.fair = dataclasses.replace(fair, revealed=fair.committed)


def reveal_at_end(game: Any, recorder: Any) -> None:
    """At the end of the match nothing a seed shows is secret: reveal them all (``reveal``)."""
    fair: FairState | None = getattr(recorder.t, "fair", None)
    if fair is not None and fair.revealed < fair.committed and game.is_over(recorder.t):
        reveal(recorder)
