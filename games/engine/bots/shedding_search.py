"""What the search bot (``games.engine.bots.search``) knows of Palace, the shedding game.

From a seat's view (``games.engine.shedding.view``) it rebuilds a full ``ShedState``: the seat's hand,
every face-up card, the pile and the burned cards as they are; the cards known to be in another hand
(picked up from the pile, or face-up cards taken up: ``hand_public``) where they are; the rest of the
pack (``pack(decks)`` less all of that) dealt at random to what nobody at the table sees: the other
hands' unknown cards, every face-down card (the seat's own too: palace-shedding-a.txt ¶13.2) and the
stock, each zone at the size the view shows.

The hidden hand of the player who acted just before the seat is dealt as his last turn reads
(``shedding_reading``: the top of the pile or his pick-up, read as ``basic`` plays). The rest of
what the view does not carry is not modelled: older turns, and another seat's pending out-of-turn
redraw (the view hides it: ``view.visible_to_act``). In the rollout the seat's own hand is public to
nobody (its ``hand_public`` is left empty). Once the stock is empty the rollouts keep a share of random
moves (``ENDGAME_EPSILON``). The other seats play the rollouts as ``basic`` (the model of them); the
searching seat too, but for two rules measured stronger heads-up, with two players left (``own_action``,
``OWN_POLICY``). Once the stock is empty, however many players are left, the searching seat's later moves
are planned instead, down a tree per candidate (``shedding_tree.TreePlanner``, ``PLAN``).

Candidates on turn: each playable rank with all its cards, and with one card when there are more; the
pick-up and the blind flip when legal. Out of turn: each offered play with all its cards. In the
setup the ``basic`` bot's choice of face-up cards (one candidate: no search).

The reward: 1 for first out, 0 for last; in between mostly nothing (``FIRST_WEIGHT``) and a little
linear in the place (palace-shedding-a.txt ¶22 ranks by the order of going out; the arena's targets
count first places). A rollout ends when the next player goes out (``FIRST_OUT_HORIZON``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.bots.base import ActionJSON, Bot, RandomSource
from games.engine.bots.random_bot import RandomBot
from games.engine.bots.search import MAX_ROLLOUT_STEPS, shuffled, to_action
from games.engine.bots.shedding_basic import BURN_PILE, TEN, TWO, ShedBasicBot
from games.engine.bots.shedding_reading import deal_read_hand, read_last_turn
from games.engine.bots.shedding_tree import TreePlanner
from games.engine.cards import Card
from games.engine.errors import EngineCode, EngineError
from games.engine.protocol import Action, Game, LegalAction
from games.engine.shedding import PALACE
from games.engine.shedding.ending import end_match
from games.engine.shedding.legal import legal_actions, seats_to_act
from games.engine.shedding.options import ShedOptions
from games.engine.shedding.ranks import FOUR_OF_A_KIND, sort_cards
from games.engine.shedding.state import PLAY, ShedState, pack

ROLLOUT_EPSILON = 0.1
"""Rollout decisions taken at random instead of by ``basic``: ``basic`` is deterministic, so without some
randomness every rollout from one deal would be the same game. Measured against ``basic`` at 60 rollouts a
decision (benchmarks/README.md, "Arena"): 0.1 won 73.8% of 210 games, 0 won 72.5% of 273 (no difference)."""

ENDGAME_EPSILON = 0.1
"""The share of random rollout moves once the stock is empty. Without them (0, until 2026-11-26) a rollout models
the other seats as ``basic`` exactly, which fits ``basic`` and no one else. In the arena at 250 ms a decision
(benchmarks/README.md, "Palace: random endgame moves in the search's rollouts"), 0.1 against 0: heads-up against
``basic`` 83.8% of 495 games (80.3-86.8%) against 81.5% of 1,000; against ``flat`` 54.4% of 136 against 41.3% of
109 (the same seeds)."""

FIRST_WEIGHT = 0.7
"""The share of the reward that going out first earns (the rest is linear in the place): the arena counts
first places, and with a linear reward alone the search at four seats improved its mean place (2.36
against ``basic``'s 2.55) far more than its first places (24.2%: benchmarks/README.md, "Arena")."""

FIRST_OUT_HORIZON = True
"""Rollouts stop when the next player goes out (the first out of the rollout), the others still in
ranked by the cards they hold (the engine's own ranking of an unfinished match: ``ending.end_match``).
Heads-up that is the match's end anyway; at four seats it halves a rollout's CPU time (1.58 -> 0.83 ms,
benchmarks/README.md, "Arena"): the places after the first weigh ``1 - FIRST_WEIGHT`` of the reward,
and cards left is how the engine ranks a stalemate."""

OWN_POLICY = True
"""Whether, with two players left in the match, the searching seat's own rollout decisions are ``own_action``'s
(the other seat's stay ``basic``'s, the model of it). Measured heads-up, ``own_action``'s rules against
``basic``'s, everything else ``basic``: 53.5% and 52.5% of 4,000 games alone, 54.6% together; with it ``search``
beat ``basic`` in 81.5% of 1,000 games (77.9% without). At four seats the rules gain nothing (one such seat
among three ``basic`` went out first in 25.4% of 3,000 games), so they wait for the last two
(benchmarks/README.md, "Palace: the setup, the four-seat reward and the search's own rollouts")."""
PLAN = "endgame"
"""Where the sweeps' rollouts plan the searcher's later moves (``shedding_tree.TreePlanner``), however many players
are left: ``"endgame"`` (the stock empty), ``"always"`` or ``"never"``. Measured (benchmarks/README.md, "Palace:
planning the endgame" and "Palace: the endgame plan at four seats"): heads-up at 50 ms a decision ``"endgame"``
beat ``"never"`` in 57.2% of 285 games (51.4-62.8%); at four seats against three ``basic`` at 250 ms, on the same
1,000 deals, planned once the stock is empty it went out first in 31.2% against 27.1% planned heads-up only (paired:
141 games won by the plan alone, 100 by the other alone); ``"always"`` did worse in a screen (32.8% of 400 against
40.2% on the same deals)."""
HIGH_PLAIN = 12
"""``own_action``: a lowest plain play of this rank (a queen) or higher on a small pile gives way to a two."""
SMALL_PILE = 2

_RANDOM = RandomBot()


class ShedSearchRules:
    """``Searchable`` for Palace (see the module docstring)."""

    game: Game = PALACE

    def __init__(
        self,
        *,
        epsilon: float = ROLLOUT_EPSILON,
        first_out_horizon: bool = FIRST_OUT_HORIZON,
        reading: bool = True,
        endgame_epsilon: float = ENDGAME_EPSILON,
        own_policy: bool = OWN_POLICY,
        plan: str = PLAN,
    ) -> None:
        self.plan = plan
        self.policy: Bot = ShedBasicBot()
        self.own_policy = own_policy
        self.epsilon = epsilon
        self.endgame_epsilon = endgame_epsilon
        self.reading = reading
        self.anchor_z: float | None = None
        self.first_out_horizon = first_out_horizon

    def candidates(self, view: Mapping[str, Any], rng: RandomSource) -> list[ActionJSON]:
        legal = view.get("legal_actions") or []
        if not legal or not isinstance(view.get("viewer"), int):
            raise EngineError(
                EngineCode.NO_DECISION, "this view has no decision to make: pass the view of a seat to act"
            )
        if legal[0]["type"] == "choose_face_up":
            return [self.policy.choose(view, rng)]
        on_turn = view["turn"] == view["viewer"]
        out: list[ActionJSON] = []
        for entry in legal:
            if entry["type"] != "play":
                out.append({"type": entry["type"]})
                continue
            out.append({"type": "play", "cards": list(entry["cards"])})
            if on_turn and entry["max_cards"] > 1:
                out.append({"type": "play", "cards": entry["cards"][: entry["min_cards"]]})
        return out

    def determinize(self, view: Mapping[str, Any], rng: RandomSource) -> ShedState:
        """A ``ShedState`` in the play phase consistent with ``view`` (see the module docstring)."""
        me: int = view["viewer"]
        options = ShedOptions(**view["options"])
        rows = view["seats"]
        known = Counter(Card.parse(code) for code in (*view["pile"], *view["burned"]))
        public: list[list[Card]] = []
        for row in rows:
            hand = [Card.parse(code) for code in row["hand"] if code is not None]
            public.append([] if row["seat"] == me else hand)
            known.update(hand)
            known.update(Card.parse(code) for code in row["face_up"])
        hidden = shuffled(list((Counter(pack(options.decks)) - known).elements()), rng)
        unknown = [0 if row["seat"] == me else row["hand_size"] - len(public[row["seat"]]) for row in rows]
        read = self._read_hand(view, hidden, unknown, rng)
        hands, face_down = [], []
        for row in rows:
            seat = row["seat"]
            mine = [Card.parse(code) for code in row["hand"]] if seat == me else public[seat]
            dealt = read[1] if read is not None and read[0] == seat else [hidden.pop() for _ in range(unknown[seat])]
            hands.append(tuple(sort_cards([*mine, *dealt])))
            down: list[Card | None] = [None] * 3
            for entry in row["face_down"]:
                down[entry["position"]] = hidden.pop()
            face_down.append(tuple(down))
        if len(hidden) != view["stock_size"]:
            raise EngineError(EngineCode.INCONSISTENT_VIEW, "the view's hidden cards do not add up to the pack")
        redraw = _redraw_entry(view, options)
        return ShedState(
            options=options,
            seats=len(rows),
            phase=PLAY,
            dealer=view["dealer"],
            stock=tuple(hidden),
            pile=tuple(Card.parse(code) for code in view["pile"]),
            burned=tuple(Card.parse(code) for code in view["burned"]),
            hands=tuple(hands),
            hand_public=tuple(tuple(cards) for cards in public),
            face_up=tuple(tuple(sort_cards(Card.parse(code) for code in row["face_up"])) for row in rows),
            face_down=tuple(face_down),
            choices=(None,) * len(rows),
            turn=view["turn"],
            replay=view["replay"],
            redraw_seat=None if redraw is None else me,
            redraw_cards=() if redraw is None else tuple(Card.parse(code) for code in redraw["cards"]),
            turns=view["turns"],
            out=tuple(view["out_order"]),
            resigned=tuple(row["seat"] for row in rows if row["resigned"]),
        )

    def _read_hand(
        self, view: Mapping[str, Any], hidden: list[Card], unknown: list[int], rng: RandomSource
    ) -> tuple[int, list[Card]] | None:
        """The hidden hand of the seat before the viewer dealt first, by ``shedding_reading`` (taken out
        of ``hidden``), or ``None``: reading off, nothing read, or too few cards fit."""
        reading = read_last_turn(view) if self.reading else None
        if reading is None:
            return None
        dealt = deal_read_hand(reading, hidden, unknown[reading.seat], rng)
        return None if dealt is None else (reading.seat, dealt)

    def planner(self, view: Mapping[str, Any], count: int) -> TreePlanner | None:
        """A ``shedding_tree.TreePlanner`` for the sweeps where ``plan`` says (``PLAN``), else ``None``."""
        if self.plan == "never" or (self.plan == "endgame" and view["stock_size"]):
            return None
        return TreePlanner(self, view["viewer"], count)

    def at_horizon(self, root: ShedState, state: ShedState) -> bool:
        return self.game.is_over(state)

    def playout(self, root: ShedState, state: ShedState, rng: RandomSource, seat: int | None = None) -> Any:
        """``search.rollout`` on ``PALACE.simulation`` (no view, no frozen state per step): each deciding
        seat's policy reads only what ``ShedBasicBot`` and ``RandomBot`` read of a view (its legal actions,
        the seat on turn, the pile); ``ShedBasicBot``'s decisions are taken by ``basic_action`` on the
        engine's own legal entries (the same decisions without a card's text and back: profiled, the
        parsing was the largest single cost of a rollout). Random moves: ``epsilon`` while the stock
        lasts, ``endgame_epsilon`` after. With ``own_policy`` and two players left, the searching
        ``seat``'s own decisions are ``own_action``'s. Returns the simulation's draft, which reads like a
        ``ShedState``."""
        return self.play_on(root, PALACE.simulation(state), rng, seat)

    def play_on(self, root: ShedState, sim: Any, rng: RandomSource, seat: int | None = None) -> Any:
        """``playout`` from a simulation already under way (``PALACE.simulation``), played on in place."""
        t = sim.t
        native = isinstance(self.policy, ShedBasicBot)
        out_before = len(root.out)
        own = seat if self.own_policy and native and len(root.active()) == 2 else None
        for _ in range(MAX_ROLLOUT_STEPS):
            if sim.is_over():
                break
            if self.first_out_horizon and len(t.out) > out_before:
                end_match(sim.ctx, "first_out")
                break
            to_act = seats_to_act(t)
            mover = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            sim.play(self.model_move(t, mover, rng, own))
        return t

    def model_move(self, t: Any, mover: int, rng: RandomSource, own: int | None = None) -> Action:
        """One rollout decision of ``mover`` on the draft ``t``: the policy's (``own_action``'s for ``own``, the
        searching seat with two players left), or with the phase's share of random moves a random legal one."""
        legal = legal_actions(t, mover)
        epsilon = self.epsilon if t.stock else self.endgame_epsilon
        randomly = bool(epsilon) and rng.random() < epsilon
        if not randomly and isinstance(self.policy, ShedBasicBot):
            decide = own_action if mover == own else basic_action
            return decide(legal, mover, t.turn, len(t.pile))
        entries = [entry.to_json() for entry in legal]
        view = {"viewer": mover, "to_act": [mover], "turn": t.turn, "pile": t.pile, "legal_actions": entries}
        bot = _RANDOM if randomly else self.policy
        return to_action(mover, bot.choose(view, rng))

    def reward(self, root: Any, state: Any, seat: int) -> float:
        """``FIRST_WEIGHT`` for going out first plus the rest by place, linear ((seats - place) /
        (seats - 1)); 0.5 for a rollout cut short. Heads-up that is 1 for a win, 0 for a loss."""
        if not state.order:
            return 0.5
        place = state.order.index(seat)
        return FIRST_WEIGHT * (place == 0) + (1 - FIRST_WEIGHT) * (state.seats - 1 - place) / (state.seats - 1)


def plain_rules() -> ShedSearchRules:
    """The model of plain flat Monte Carlo, the arena's ``flat`` baseline: uniform deals (no reading),
    ``basic`` with ``ROLLOUT_EPSILON`` random moves for every seat to the end, the stock empty or not (no plan)."""
    return ShedSearchRules(reading=False, endgame_epsilon=ROLLOUT_EPSILON, plan="never")


def _redraw_entry(view: Mapping[str, Any], options: ShedOptions) -> Mapping[str, Any] | None:
    """The viewer's out-of-turn redraw play, if the view offers one (``legal.optional_plays`` lists it
    before a four-of-a-kind play; a lone entry that completes a four is taken for the four)."""
    if view["turn"] == view["viewer"] or not options.redraw:
        return None
    entries = [entry for entry in view["legal_actions"] if entry["type"] == "play"]
    if len(entries) != 1:
        return entries[0] if entries else None
    top = view["pile_top"]
    four = options.out_of_turn_four and top is not None and entries[0]["min_cards"] == FOUR_OF_A_KIND - top["count"]
    return None if four else entries[0]


def basic_action(legal: Sequence[LegalAction], seat: int, turn: int, pile: int) -> Action:
    """``ShedBasicBot``'s decision in the play phase, from the engine's legal entries of ``seat``
    (``turn``: the seat on turn; ``pile``: the pile's size): the same action its ``choose`` takes on
    the view that lists them (``tests/games/engine/bots/test_search.py`` checks it)."""
    plays = [entry for entry in legal if entry.type == "play"]
    if seat != turn:
        return Action(type="play", seat=seat, cards=max(plays, key=lambda entry: entry.max_cards).cards)
    if any(entry.type == "play_face_down" for entry in legal):
        return Action(type="play_face_down", seat=seat)
    if not plays:
        return Action(type="pick_up", seat=seat)
    plain = [entry for entry in plays if entry.cards[0].rank not in (TWO, TEN)]
    if plain:
        return Action(type="play", seat=seat, cards=min(plain, key=lambda entry: entry.cards[0].rank).cards)
    by_rank = {entry.cards[0].rank: entry for entry in plays}
    if TEN in by_rank and (pile >= BURN_PILE or TWO not in by_rank):
        return Action(type="play", seat=seat, cards=by_rank[TEN].cards[:1])
    return Action(type="play", seat=seat, cards=by_rank[TWO].cards[:1])


def own_action(legal: Sequence[LegalAction], seat: int, turn: int, pile: int) -> Action:
    """The searching seat's own rollout decision: ``basic_action`` but for two rules, each measured stronger
    than ``basic``'s heads-up (``OWN_POLICY``): a lowest plain play of ``HIGH_PLAIN`` or higher on a pile of
    ``SMALL_PILE`` cards or fewer gives way to a two when one plays (after a two anything plays: palace-shedding-a.txt
    ¶20; the high card is kept for a higher pile); with no plain play a two goes before a ten, whatever the pile
    (the ten keeps, to burn a larger pile later: ¶18.2)."""
    if seat == turn and not any(entry.type == "play_face_down" for entry in legal):
        plays = {entry.cards[0].rank: entry for entry in legal if entry.type == "play"}
        plain = [rank for rank in plays if rank not in (TWO, TEN)]
        if TWO in plays and (not plain or (min(plain) >= HIGH_PLAIN and pile <= SMALL_PILE)):
            return Action(type="play", seat=seat, cards=plays[TWO].cards[:1])
    return basic_action(legal, seat, turn, pile)
