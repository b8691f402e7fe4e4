"""Palace Poker game options: stakes, betting structure, match length.

Source: palace-poker.txt, "Banner Cards" (ante), "Bet (or battle)" and "Raise" (limit and no-limit);
the variation options come from palace-poker.txt, "Variations", and from the places where
palace-poker-hindi.txt reads differently (see ``PokerOptions``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.engine.errors import EngineCode, InvalidOptions
from games.engine.option_fields import BOOL, CHOICE, INT, SEAT, OptionField

BETTING_STRUCTURES = ("limit", "no_limit")
SHOWDOWN_TIES = ("own_suit_count", "split")
NO_LIMIT_FIRST_RAISES = ("small_bet_without_soldiers", "big_bet")
SEED_REVEALS = ("match", "hand")
"""When a deal's shuffle seeds are revealed to everyone (``games.engine.seeding``): at the end of the match, when
no folded palace is secret any more, or as each hand ends (the table accepts that folded palaces show)."""
MIN_SEATS = 2
MAX_SEATS = 10
MAX_SOLDIERS = 5


@dataclass(frozen=True, slots=True)
class PokerOptions:
    """Validated options of one Palace Poker match. Amounts are chips.

    ``betting``: ``"limit"`` or ``"no_limit"``; ``small_bet`` / ``big_bet``: the stakes (5/10 in the
    text's example); ``ante``: paid by every player before the banner deal, default half the small
    bet rounded down (palace-poker.txt, "Banner Cards"); ``starting_stack``: chips per player;
    ``first_dealer``: a seat, or ``None`` to draw for the deal by high card (palace-poker.txt,
    "The Deal"); ``max_hands``: the match ends after that many hands (``None``: only when one
    player holds every chip); ``max_raises``: raises per battle (palace-poker.txt, "Raise": three).

    Variations (palace-poker.txt, "Variations"; all off by default):

    - ``no_pot_sharing`` ("No Pot Sharing Rule"): when everyone left shares one banner suit, a
      showdown decides the pot instead of an immediate split.
    - ``open_market`` ("Open Market Rule"): the action ``buy_discard`` takes the top card of the
      discard pile as a soldier for one big bet.
    - ``points`` ("Palace Poker without money"): no chips change hands (no antes, free buys and
      attacks); a bet is decided at once, the defender seeing the attacker's palace cards first,
      with no answer of his (no fold, call or raise); the hand's single winner scores 10 minus
      his soldiers, the winner of a hand-ending battle after his discard step; same-suit ends go
      to a showdown; an absolute tie scores nobody; the match ends when a score reaches
      ``target_points``.
    - ``kings_in_the_house`` ("Kings in the House Rule"): own-suit K, Q, J among the palace cards
      are semi-wild (``games.engine.wild``).

    Where palace-poker-hindi.txt reads differently (default: palace-poker.txt):

    - ``showdown_tie``: ``"own_suit_count"`` (palace-poker.txt, "Winning the Pot": a tie for top
      hand at a showdown goes to the most own-banner-suit cards, then is split) or ``"split"``
      (palace-poker-hindi.txt, its showdown paragraph: a tie splits the pot, no suit count).
    - ``no_limit_first_raise``: ``"small_bet_without_soldiers"`` (palace-poker.txt, "Raise": in
      no-limit at least the big bet, or a small bet for a defender without soldiers) or
      ``"big_bet"`` (palace-poker-hindi.txt, "Raise": in no-limit at least the big bet, no
      exception).
    - ``two_left_must_battle`` (off: palace-poker.txt, "Stay", any hand may end in a showdown
      after a run of quiet turns; on: palace-poker-hindi.txt, "जीतना", first paragraph, second
      sentence: two players left must battle): with two players of different banner suits left,
      a player on turn who can pay a bet may not ``stay`` or ``discard`` (see
      ``games.engine.poker.two_left``).

    ``reveal_seeds`` (not a rule of the texts): ``"match"`` (default) reveals every hand's shuffle seeds when
    the match ends; ``"hand"`` reveals each hand's as the next hand opens, which shows the folded palaces.
    """

    betting: str = "limit"
    small_bet: int = 5
    big_bet: int = 10
    ante: int = 2
    starting_stack: int = 1000
    first_dealer: int | None = None
    max_hands: int | None = None
    max_raises: int = 3
    no_pot_sharing: bool = False
    open_market: bool = False
    points: bool = False
    target_points: int = 100
    kings_in_the_house: bool = False
    showdown_tie: str = "own_suit_count"
    no_limit_first_raise: str = "small_bet_without_soldiers"
    two_left_must_battle: bool = False
    reveal_seeds: str = "match"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON of every option (each is a number, a boolean, text or null: no copy is needed, where
        ``dataclasses.asdict`` deep-copies each: 0.04 ms of CPU on every view against 0.004)."""
        return {name: getattr(self, name) for name in _NAMES}


_NAMES = tuple(f.name for f in fields(PokerOptions))
_FIELDS = set(_NAMES)


def _int(raw: Mapping[str, Any], key: str, default: int, *, low: int, high: int) -> int:
    # Left out means the default; null is no integer (the v1 schema says so, and a client sending it meant
    # something the server would silently replace).
    if key in raw and raw[key] is None:
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option {key!r} must be an integer from {low} to {high}")
    value = _optional_int(raw, key, default, low=low, high=high)
    return default if value is None else value


def _optional_int(raw: Mapping[str, Any], key: str, default: int | None, *, low: int, high: int) -> int | None:
    value = raw.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option {key!r} must be an integer from {low} to {high}")
    return value


def _bool(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option {key!r} must be true or false")
    return value


def _choice(raw: Mapping[str, Any], key: str, choices: tuple[str, ...]) -> str:
    value = raw.get(key, choices[0])
    if value not in choices:
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option {key!r} must be one of {list(choices)}")
    return str(value)


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> PokerOptions:
    """Validate raw JSON options for a table of ``seats`` players.

    Raises ``InvalidOptions`` with code ``unknown_option``, ``invalid_option``, ``invalid_seats`` or
    ``inconsistent_options`` (e.g. a big bet below the small bet, a starting stack below the ante).
    """
    if raw is not None and not isinstance(raw, Mapping):
        raise InvalidOptions(EngineCode.INVALID_OPTION, "options must be a JSON object")
    raw = dict(raw or {})
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions(EngineCode.INVALID_SEATS, f"Palace Poker takes {MIN_SEATS} to {MAX_SEATS} players")
    unknown = set(raw) - _FIELDS
    if unknown:
        raise InvalidOptions(EngineCode.UNKNOWN_OPTION, f"unknown Palace Poker options: {sorted(unknown)}")
    betting = raw.get("betting", "limit")
    if betting not in BETTING_STRUCTURES:
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option 'betting' must be one of {list(BETTING_STRUCTURES)}")
    small = _int(raw, "small_bet", 5, low=1, high=10**9)
    big = _int(raw, "big_bet", 2 * small, low=1, high=10**9)
    ante = _int(raw, "ante", small // 2, low=0, high=10**9)
    stack = _int(raw, "starting_stack", 200 * small, low=1, high=10**12)
    first_dealer = _optional_int(raw, "first_dealer", None, low=0, high=seats - 1)
    max_hands = _optional_int(raw, "max_hands", None, low=1, high=10**6)
    max_raises = _int(raw, "max_raises", 3, low=0, high=100)
    points = _bool(raw, "points")
    target_points = _optional_int(raw, "target_points", None, low=1, high=10**6)
    if target_points not in (None, 100) and not points:
        raise InvalidOptions(EngineCode.INCONSISTENT_OPTIONS, "'target_points' needs the 'points' variation")
    if points and raw.get("ante", 0) != 0:
        raise InvalidOptions(
            EngineCode.INCONSISTENT_OPTIONS, "the 'points' variation has no antes: leave 'ante' out or 0"
        )
    if points:
        ante = 0
    no_pot_sharing = _bool(raw, "no_pot_sharing")
    showdown_tie = _choice(raw, "showdown_tie", SHOWDOWN_TIES)
    no_limit_first_raise = _choice(raw, "no_limit_first_raise", NO_LIMIT_FIRST_RAISES)
    if no_limit_first_raise != NO_LIMIT_FIRST_RAISES[0] and betting != "no_limit":
        raise InvalidOptions(
            EngineCode.INCONSISTENT_OPTIONS, "'no_limit_first_raise' applies only to 'no_limit' betting"
        )
    if big < small:
        raise InvalidOptions(EngineCode.INCONSISTENT_OPTIONS, "the big bet cannot be smaller than the small bet")
    if stack <= ante:
        raise InvalidOptions(EngineCode.INCONSISTENT_OPTIONS, "the starting stack must be larger than the ante")
    return PokerOptions(
        betting=betting,
        small_bet=small,
        big_bet=big,
        ante=ante,
        starting_stack=stack,
        first_dealer=first_dealer,
        max_hands=max_hands,
        max_raises=max_raises,
        no_pot_sharing=no_pot_sharing,
        open_market=_bool(raw, "open_market"),
        points=points,
        target_points=100 if target_points is None else target_points,
        kings_in_the_house=_bool(raw, "kings_in_the_house"),
        showdown_tie=showdown_tie,
        no_limit_first_raise=no_limit_first_raise,
        two_left_must_battle=_bool(raw, "two_left_must_battle"),
        reveal_seeds=_choice(raw, "reveal_seeds", SEED_REVEALS),
    )


AMOUNT_MAX = 10**9
STACK_MAX = 10**12
HANDS_MAX = 10**6

OPTION_FIELDS: tuple[OptionField, ...] = (
    OptionField("betting", CHOICE, "Betting", "limit: bets and raises of fixed size", choices=BETTING_STRUCTURES),
    OptionField("small_bet", INT, "Small bet", "chips; default 5", low=1, high=AMOUNT_MAX),
    OptionField("big_bet", INT, "Big bet", "chips; default twice the small bet", low=1, high=AMOUNT_MAX),
    OptionField(
        "ante", INT, "Ante", "chips each player pays a hand; default half the small bet", low=0, high=AMOUNT_MAX
    ),
    OptionField(
        "starting_stack", INT, "Starting stack", "chips per player; default 200 small bets", low=1, high=STACK_MAX
    ),
    OptionField("first_dealer", SEAT, "First dealer", optional=True, null_means="drawn by high card"),
    OptionField(
        "max_hands", INT, "Hands", low=1, high=HANDS_MAX, optional=True, null_means="until one player holds every chip"
    ),
    OptionField("max_raises", INT, "Raises per battle", "default 3", low=0, high=100),
    OptionField("no_pot_sharing", BOOL, "No pot sharing", "one banner suit left: a showdown decides"),
    OptionField("open_market", BOOL, "Open market", "buy the discard pile's top card for a big bet"),
    OptionField("points", BOOL, "Without money", "points instead of chips"),
    OptionField("target_points", INT, "Target points", "with points only; default 100", low=1, high=HANDS_MAX),
    OptionField("kings_in_the_house", BOOL, "Kings in the house", "own-suit K, Q, J in the palace are semi-wild"),
    OptionField("showdown_tie", CHOICE, "Showdown tie", "how a tie for the top hand is settled", choices=SHOWDOWN_TIES),
    OptionField(
        "no_limit_first_raise",
        CHOICE,
        "No-limit first raise",
        "no-limit betting only",
        choices=NO_LIMIT_FIRST_RAISES,
    ),
    OptionField("two_left_must_battle", BOOL, "Two left must battle", "the last two players may not stay"),
    OptionField(
        "reveal_seeds",
        CHOICE,
        "Reveal shuffle seeds",
        "match: when it ends; hand: as each hand ends, showing folded palaces",
        choices=SEED_REVEALS,
    ),
)
"""Every option of ``PokerOptions``, as ``parse_options`` checks it (``games.engine.option_fields``)."""
