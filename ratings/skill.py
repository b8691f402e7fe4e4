"""The rating model: openskill's Weng-Lin Bayesian approximation with the Plackett-Luce model, which takes a
finishing order of any number of players (ties allowed). Pure Python, no Django.

Its defaults: a new identity starts at ``mu`` 25 with ``sigma`` 25/3; ``beta`` 25/6; ``tau`` 25/300 (added
to ``sigma`` before each game, so a rating never freezes). The number people see, ``display``, is the
conservative estimate ``mu - 3 sigma`` on a familiar scale: 1000 for a newcomer, 40 points a unit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
PROVISIONAL_SIGMA = 6.5
"""An identity is provisional while its ``sigma`` is at or above this: about 9 games heads-up, 15 at five seats
(from 25/3 ≈ 8.33); provisional identities are left out of leaderboards and marked ``?``."""
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40

Skill = tuple[float, float]
"""``(mu, sigma)``."""


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate ``mu - 3 sigma``: what leaderboards sort by."""
    return mu - 3 * sigma


def display(mu: float, sigma: float) -> int:
    """The rating people see: ``DISPLAY_BASE + DISPLAY_SCALE * ordinal``, rounded (a newcomer: 1000)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(mu, sigma))


def provisional(sigma: float) -> bool:
    """Whether a rating with this ``sigma`` is still provisional (``PROVISIONAL_SIGMA``)."""
    return sigma >= PROVISIONAL_SIGMA


def rate(priors: Mapping[Hashable, Skill], seats: Sequence[tuple[Hashable, int]]) -> dict[Hashable, Skill]:
    """The new skills after one game. ``priors``: each identity's skill before it; ``seats``: per seat, its
    identity and finishing place (1 first, equal places tie). Each seat is a one-player team of the Plackett-Luce
    model. An identity seated more than once (a bot level) is rated as that many players from the same prior and
    takes the mean of their new ``mu`` and ``sigma``. Returns identity -> ``(mu, sigma)``. Deterministic: the
    same priors and places give the same floats."""
    teams = [[MODEL.rating(mu=priors[who][0], sigma=priors[who][1])] for who, _ in seats]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in seats])
    after: dict[Hashable, list[Skill]] = defaultdict(list)
    for (who, _), team in zip(seats, rated, strict=True):
        after[who].append((team[0].mu, team[0].sigma))
    return {
        who: (sum(mu for mu, _ in skills) / len(skills), sum(sigma for _, sigma in skills) / len(skills))
        for who, skills in after.items()
    }


def with_departures(places: Sequence[int], departed: Mapping[int, int]) -> tuple[int, ...]:
    """The finishing places a rating counts: ``places`` (the rules', per seat), with every seat that left the
    match (``departed``: seat -> the log ``seq`` it resigned or was handed to the bot at, README "Ratings") moved
    below every seat that stayed, the last to leave above the first. Ties among the others are kept."""
    keys = [(0, departed[seat]) if seat in departed else (1, -place) for seat, place in enumerate(places)]
    return tuple(1 + sum(other > key for other in keys) for key in keys)
