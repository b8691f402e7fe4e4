"""The rating model and the places it counts (README "Ratings"): pure functions, no database."""

from __future__ import annotations

from ratings.skill import MU, PROVISIONAL_SIGMA, SIGMA, display, provisional, rate, with_departures


def test_a_newcomer_shows_1000_and_is_provisional_until_sigma_falls_below_the_bound() -> None:
    assert display(MU, SIGMA) == 1000
    assert provisional(SIGMA)
    assert provisional(PROVISIONAL_SIGMA)
    assert not provisional(PROVISIONAL_SIGMA - 0.01)


def test_the_winner_gains_the_loser_loses_and_ties_move_alike() -> None:
    after = rate({"a": (MU, SIGMA), "b": (MU, SIGMA), "c": (MU, SIGMA)}, [("a", 1), ("b", 2), ("c", 2)])
    assert after["a"][0] > MU > after["b"][0]
    assert after["b"] == after["c"]
    assert all(sigma < SIGMA for _, sigma in after.values())


def test_the_same_floats_from_the_same_priors_and_places() -> None:
    priors = {"a": (27.1, 6.2), "b": (22.4, 7.9)}
    assert rate(priors, [("a", 2), ("b", 1)]) == rate(dict(priors), [("a", 2), ("b", 1)])


def test_a_bot_level_seated_twice_takes_the_mean_of_its_two_seats() -> None:
    alone = rate({"bot": (MU, SIGMA), "x": (MU, SIGMA)}, [("bot", 1), ("x", 2), ("bot", 3)])
    seats = rate({"b1": (MU, SIGMA), "x": (MU, SIGMA), "b3": (MU, SIGMA)}, [("b1", 1), ("x", 2), ("b3", 3)])
    assert alone["bot"] == ((seats["b1"][0] + seats["b3"][0]) / 2, (seats["b1"][1] + seats["b3"][1]) / 2)
    assert alone["x"] == seats["x"]


def test_leaving_counts_below_everyone_who_stayed_the_last_to_leave_above_the_first() -> None:
    # Seat 0 won, seat 3 resigned at entry 40, seat 1 was handed to the bot at entry 70 and the bot won it 2nd.
    assert with_departures((1, 2, 3, 4), {3: 40, 1: 70}) == (1, 3, 2, 4)
    assert with_departures((1, 1, 3), {}) == (1, 1, 3)
