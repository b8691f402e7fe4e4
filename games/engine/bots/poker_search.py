"""What the search bot (``games.engine.bots.search``) knows of Palace Poker.

From a seat's view (``games.engine.poker.view``) it rebuilds a full ``PokerState`` of the hand in play:
stacks, pot, chips put in, banners, soldiers, the battle, the scores as they are; the seat's own palace
cards and any it has been shown (palace-poker.txt, "Call", "Stay") where they are; the rest of the 52
(less every banner and soldier) dealt at random to the other palace cards, the stock and the face-down
discard pile, each at the size the view shows.

What the view does not carry is approximated: the run of quiet turns (who stayed since chips last went
in) starts afresh, so a rollout may give a player one more turn before a showdown than the real hand
would; the soldiers discarded earlier in the hand (face up when they went, but the view shows only the
pile's size) count as unseen; a battle's uncalled raise is taken as what the responder owes; in a
discard step after a won battle the turn is taken to be the winner's.

Candidates: on a turn ``stay``, ``buy``, the ``basic`` bot's discard (if it has one), a bet against
each target (the minimum; in no-limit also the pot), and ``fold`` where staying is not offered or,
under ``points`` heads-up, where the other holds soldiers (he then scores 10 less them); in a battle
``fold``, ``call`` and ``raise`` (the minimum; in no-limit also the pot); in a discard step the
``basic`` bot's choice, the fewest that the rules allow (the lowest ranks), and every soldier.

The horizon is the end of the hand. The reward, heads-up where the match's end is in sight (``points``,
or money with ``max_hands``): the chance to win the match from the scores or stacks the hand leaves
(``poker_match``). Otherwise: chips won in the hand, 0.5 + chips / (20 big bets); under ``points``
(palace-poker.txt, "Palace Poker without money") 0.5 + (own points - the best other's points) / 20 for
the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.bots.base import ActionJSON, Bot, RandomSource, acting_seat, legal_by_type
from games.engine.bots.poker_basic import PokerBasicBot
from games.engine.bots.poker_inference import accepts, read_opponent
from games.engine.bots.poker_match import HAND_POINTS, chips_match_value, points_match_value
from games.engine.bots.search import rollout, shuffled
from games.engine.cards import FULL_DECK, Card
from games.engine.errors import EngineCode, EngineError
from games.engine.poker import PALACE_POKER
from games.engine.poker.options import PokerOptions
from games.engine.poker.state import BATTLE, DISCARD, FINISHED, PLAY, Battle, PokerState
from games.engine.protocol import Game

ROLLOUT_EPSILON = 0.02
"""Rollout decisions taken at random instead of by ``basic`` (a random answer to a battle folds a third
of the time, so fewer than in Palace)."""
MONEY_SCALE_BIG_BETS = 20
POINTS_SCALE = 20
ANCHOR_Z = 1.0
"""The ``basic`` bot's action (candidate 0) stands unless another's paired gain over it is this many
standard errors above 0 (``search.Tally.beats_anchor``): the differences between candidates are small
against the noise of a few dozen rollouts each."""
MIN_SWING = 0.01
"""The least swing of a hand that a match reward is scaled by (a match all but decided either way)."""
MAX_DRAWS = 12
"""Deals tried per determinization before the reading of the opponent is given up."""


class PokerSearchRules:
    """``Searchable`` for Palace Poker (see the module docstring)."""

    game: Game = PALACE_POKER

    def __init__(
        self, *, epsilon: float = ROLLOUT_EPSILON, anchor_z: float | None = ANCHOR_Z, match_aware: bool = True
    ) -> None:
        self.policy: Bot = PokerBasicBot()
        self.epsilon = epsilon
        self.anchor_z = anchor_z
        self.match_aware = match_aware

    def candidates(self, view: Mapping[str, Any], rng: RandomSource) -> list[ActionJSON]:
        acting_seat(view)
        legal = legal_by_type(view)
        basic = self.policy.choose(view, rng)
        if view["step"] == DISCARD:
            return _discard_step(legal["discard"], basic)
        out: list[ActionJSON] = [{"type": kind} for kind in ("stay", "buy", "call") if kind in legal]
        if "discard" in legal and basic["type"] == "discard":
            out.append(basic)
        for kind in ("bet", "raise"):
            if kind in legal:
                out += _sized(kind, legal[kind], view["pot"])
        if "fold" in legal and ("stay" not in legal or view["battle"] is not None or _fold_scores_less(view)):
            out.append({"type": "fold"})
        return _distinct([basic, *out])

    def determinize(self, view: Mapping[str, Any], rng: RandomSource) -> PokerState:
        """A ``PokerState`` of the hand in play consistent with ``view`` (see the module docstring),
        drawn by rejection: a deal is kept as ``poker_inference.accepts`` says (what the opponent's
        decisions say of his cards), at most ``MAX_DRAWS`` deals (then the last)."""
        me = acting_seat(view)
        reading = read_opponent(view, me)
        for _ in range(MAX_DRAWS - 1):
            state = self._deal(view, me, rng)
            if accepts(reading, state, me, rng):
                return state
        return self._deal(view, me, rng)

    def _deal(self, view: Mapping[str, Any], me: int, rng: RandomSource) -> PokerState:
        """One uniform deal of the cards hidden from ``me``."""
        rows = view["seats"]
        n = len(rows)
        seen = {Card.parse(code) for row in rows for code in (*row["palace"], *row["soldiers"]) if code}
        seen |= {Card.parse(row["banner"]) for row in rows if row["banner"]}
        seen |= {Card.parse(code) for code in view["set_aside"]}
        hidden = shuffled([card for card in FULL_DECK if card not in seen], rng)
        palace = []
        for row in rows:
            palace.append(tuple(Card.parse(code) if code else hidden.pop() for code in row["palace"]))
        if len(hidden) != view["stock_size"] + view["discard_size"]:
            raise EngineError(EngineCode.INCONSISTENT_VIEW, "the view's hidden cards do not add up to the deck")
        discards = tuple(hidden[: view["discard_size"]])
        battle = view["battle"]
        step = view["step"]
        return PokerState(
            options=PokerOptions(**view["options"]),
            seats=n,
            stacks=tuple(row["stack"] for row in rows),
            in_match=tuple(row["in_match"] for row in rows),
            phase=PLAY,
            shuffles=view["hand"] * 2,
            hand_number=view["hand"],
            dealer=view["dealer"],
            in_hand=tuple(row["in_hand"] for row in rows),
            banners=tuple(Card.parse(row["banner"]) if row["banner"] else None for row in rows),
            palace=tuple(palace),
            soldiers=tuple(tuple(Card.parse(code) for code in row["soldiers"]) for row in rows),
            stock=tuple(hidden[view["discard_size"] :]),
            discards=discards,
            pot=view["pot"],
            put_in=tuple(row["put_in"] for row in rows),
            turn=battle["attacker"] if battle else me,
            step=step,
            actor=me if step == DISCARD else None,
            battle=_battle(battle) if step == BATTLE and battle else None,
            known=tuple(frozenset({me}) if row["seat"] != me and any(row["palace"]) else frozenset() for row in rows),
            shown=(False,) * n,
            scores=tuple(view.get("scores") or (0,) * n),
            resigned=tuple(row["seat"] for row in rows if row["resigned"]),
        )

    def planner(self, view: Mapping[str, Any], count: int) -> None:
        """None: Palace Poker's rollouts play the searching seat by the policy (``Searchable.planner``)."""
        return None

    def at_horizon(self, root: PokerState, state: PokerState) -> bool:
        return state.phase != PLAY

    def playout(self, root: PokerState, state: PokerState, rng: RandomSource, seat: int | None = None) -> PokerState:
        """``search.rollout``: every seat, the searcher's too, by the rollout policy."""
        return rollout(self, root, state, rng)

    def reward(self, root: PokerState, state: PokerState, seat: int) -> float:
        """See the module docstring."""
        if self.match_aware and sum(root.in_match) == 2:
            value = _match_reward(root, state, seat)
            if value is not None:
                return value
        if root.options.points:
            gains = [after - before for before, after in zip(root.scores, state.scores, strict=True)]
            best_other = max(gain for other, gain in enumerate(gains) if other != seat)
            return 0.5 + (gains[seat] - best_other) / POINTS_SCALE
        won = state.stacks[seat] - root.stacks[seat]
        return 0.5 + won / (MONEY_SCALE_BIG_BETS * root.options.big_bet)


def _match_reward(root: PokerState, state: PokerState, seat: int) -> float | None:
    """Heads-up, the chance that ``seat`` wins the match from ``state`` (the hand over), by
    ``poker_match``, on the scale of the hand's own reward: 0.5 + (that chance less the one at the root's
    midpoint) / the swing of a hand at the root (a hand won or lost under ``points``, 10 big bets either
    way with money), so that the search's elimination (``search.DROP_C``) keeps its meaning, within [0, 1]
    (the scale a review reports); ``None`` for a match to the last chip that goes on."""
    options, hands = root.options, root.options.max_hands
    if not options.points and hands is None:
        return None
    left = 0 if hands is None else hands - root.hand_number
    other = next(other for other in range(root.seats) if other != seat and root.in_match[other])
    if options.points:
        mine, theirs, target = root.scores[seat], root.scores[other], options.target_points
        won = points_match_value(mine + HAND_POINTS, theirs, target)
        lost = points_match_value(mine, theirs + HAND_POINTS, target)
    else:
        lead = root.stacks[seat] - root.stacks[other]
        swing = MONEY_SCALE_BIG_BETS // 2 * options.big_bet
        won = chips_match_value(lead + swing, left, options.small_bet)
        lost = chips_match_value(lead - swing, left, options.small_bet)
    if state.phase == FINISHED:
        value = (1.0 / len(state.winners)) if seat in state.winners else 0.0
    elif options.points:
        value = points_match_value(state.scores[seat], state.scores[other], options.target_points)
    else:
        lead = state.stacks[seat] - state.stacks[other]
        value = chips_match_value(lead, left, options.small_bet)
    return min(1.0, max(0.0, 0.5 + (value - (won + lost) / 2) / max(won - lost, MIN_SWING)))


def _fold_scores_less(view: Mapping[str, Any]) -> bool:
    """Under ``points``, heads-up, whether folding on one's turn hands the other fewer than a battle's
    10 points: he scores at once, 10 less the soldiers he holds, with no discard step before
    (``ending.check_hand_over``; palace-poker.txt, "Palace Poker without money")."""
    others = [row for row in view["seats"] if row["in_hand"] and row["seat"] not in view["to_act"]]
    return bool(view["options"].get("points")) and len(others) == 1 and bool(others[0]["soldiers"])


def _battle(raw: Mapping[str, Any]) -> Battle:
    return Battle(
        attacker=raw["attacker"],
        defender=raw["defender"],
        bet=raw["bet"],
        responder=raw["responder"],
        owed=raw["owed"],
        uncalled=raw["owed"] if raw["raises"] else 0,
        raises=raw["raises"],
        put_in=tuple(raw["put_in"]),
    )


def _discard_step(entry: Mapping[str, Any], basic: ActionJSON) -> list[ActionJSON]:
    """The discard step's candidates: ``basic``'s, the fewest the rules allow (lowest first), every soldier."""
    soldiers = [Card.parse(code) for code in entry["cards"]]
    fewest = [card.code for card in sorted(soldiers, key=lambda card: card.rank)[: entry["min_cards"]]]
    choices = [basic.get("cards", []), fewest, [card.code for card in soldiers]]
    return _distinct([{"type": "discard", "cards": cards} if cards else {"type": "discard"} for cards in choices])


def _sized(kind: str, entry: Mapping[str, Any], pot: int) -> list[ActionJSON]:
    """A bet or raise per target: the minimum, and in no-limit also the pot (within the bounds)."""
    low, high = entry.get("min_amount"), entry.get("max_amount")
    amounts: list[int | None] = [None]
    if low is not None and high is not None and low != high:
        amounts = [low, max(low, min(high, pot))]
    targets: list[int | None] = [target["seat"] for target in entry.get("targets", [])] or [None]
    out: list[ActionJSON] = []
    for target in targets:
        for amount in amounts:
            action: ActionJSON = {"type": kind}
            if target is not None:
                action["target"] = target
            if amount is not None:
                action["amount"] = amount
            out.append(action)
    return out


def _distinct(actions: list[ActionJSON]) -> list[ActionJSON]:
    out: list[ActionJSON] = []
    for action in actions:
        if action not in out:
            out.append(action)
    return out
