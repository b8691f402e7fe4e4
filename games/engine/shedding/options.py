"""Options of a Palace (shedding game) match: every point where the two rules texts disagree.

Citations: ``a¶N.k`` is palace-shedding-a.txt, line (paragraph) N, sentence k; ``b "Section"`` is a
section of palace-shedding-b.txt. Each option's default follows text a, except where noted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.engine.errors import EngineCode, InvalidOptions
from games.engine.option_fields import BOOL, CHOICE, INT, SEAT, OptionField

MIN_SEATS = 2
MAX_SEATS_ONE_DECK = 5
MAX_SEATS = 10
DEFAULT_MAX_TURNS = 1000

LOWEST_FACE_UP = "lowest_face_up"
LEFT_OF_DEALER = "left_of_dealer"
FIRST_PLAYER_RULES = (LOWEST_FACE_UP, LEFT_OF_DEALER)
SETUP_DEALS = ("face_up", "hand")
TWO_EFFECTS = ("next_player_any", "play_again")
FACE_UP_PLAYS = ("from_table", "into_hand")
FINISHES = ("last_player_loses", "first_out_wins")


@dataclass(frozen=True, slots=True)
class ShedOptions:
    """Validated options of one match.

    - ``decks``: 1 or 2 packs of 52 (a¶4.1 and a¶5.1: 2 to 5 players, one pack; b header "Players":
      more decks for more players). Default 1 up to five players, 2 from six; 6 to 10 players need 2.
    - ``first_dealer``: a seat, or ``None`` to draw for high card (a¶6.1-2).
    - ``first_player``: ``"lowest_face_up"`` (a¶10.2-4), ``"left_of_dealer"``, or a seat (b "Setup",
      last paragraph: the players choose who starts).
    - ``setup_deal``: ``"face_up"`` (a¶8.5: three cards are dealt face up, seen by all, before the
      exchange of a¶9.2) or ``"hand"`` (b "Setup": six cards in the hand, three chosen to lie face up).
    - ``must_play_if_able``: a player who can play may not pick up the pile (b "Other Misc. Rules",
      first bullet; a¶11.6 and a¶11.9 offer no pick-up by choice either). Off: a player on turn may
      always pick up a non-empty pile. Default on.
    - ``two_effect``: after a two, ``"next_player_any"`` (a¶20.2) or ``"play_again"`` (b "Card Value",
      second bullet).
    - ``redraw``: just-drawn cards of the rank just played may be added before the next player plays
      (a¶19.1). Default on (text a).
    - ``out_of_turn_four``: completing a four of a kind out of turn (b "Other Misc. Rules", third
      bullet and its example). Default off (text b only). The turn it cuts short ends with the draw
      back up to three (b "Gameplay"; see ``play._play_again``).
    - ``face_up_play``: ``"from_table"`` (a¶12.2-3: face-up cards played from the table once hand
      and stock are empty; after a pick-up the hand must be emptied again first, a¶12.4) or
      ``"into_hand"`` (b "Gameplay": the face-up cards are taken into the hand).
    - ``hide_failed_blind_card``: b "Gameplay", the house rule on a failed back-row card. Default off.
    - ``draw_before_replay``: b "Card Value", the NOTE on twos and tens. Default off.
    - ``finish``: ``"last_player_loses"`` (a¶22.1-2) or ``"first_out_wins"`` (b "Goal").
    - ``max_turns``: the stalemate rule (neither text has one): after this many play decisions the
      match ends and the players still in are ranked by cards left.
    """

    decks: int = 1
    first_dealer: int | None = None
    first_player: str | int = LOWEST_FACE_UP
    setup_deal: str = "face_up"
    must_play_if_able: bool = True
    two_effect: str = "next_player_any"
    redraw: bool = True
    out_of_turn_four: bool = False
    face_up_play: str = "from_table"
    hide_failed_blind_card: bool = False
    draw_before_replay: bool = False
    finish: str = "last_player_loses"
    max_turns: int = DEFAULT_MAX_TURNS

    def to_json(self) -> dict[str, Any]:
        """Plain JSON of every option."""
        return {name: getattr(self, name) for name in _NAMES}


_NAMES = tuple(f.name for f in fields(ShedOptions))
_FIELDS = set(_NAMES)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice(raw: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = raw.get(key, allowed[0])
    if value not in allowed:
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option {key!r} must be one of {list(allowed)}")
    return str(value)


def _flag(raw: Mapping[str, Any], key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option {key!r} must be true or false")
    return value


def _seat(raw: Mapping[str, Any], key: str, seats: int) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if not _is_int(value) or not 0 <= value < seats:
        raise InvalidOptions(EngineCode.INVALID_OPTION, f"option {key!r} must be a seat from 0 to {seats - 1}")
    return int(value)


def parse_options(raw: Mapping[str, Any] | None, seats: int) -> ShedOptions:
    """Validate raw JSON options for a table of ``seats`` players.

    Raises ``InvalidOptions`` with code ``unknown_option``, ``invalid_option``, ``invalid_seats`` or
    ``inconsistent_options`` (one deck for more than five players).
    """
    if raw is not None and not isinstance(raw, Mapping):
        raise InvalidOptions(EngineCode.INVALID_OPTION, "options must be a JSON object")
    raw = dict(raw or {})
    if not _is_int(seats) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions(EngineCode.INVALID_SEATS, f"Palace takes {MIN_SEATS} to {MAX_SEATS} players")
    unknown = set(raw) - _FIELDS
    if unknown:
        raise InvalidOptions(EngineCode.UNKNOWN_OPTION, f"unknown Palace options: {sorted(unknown)}")
    decks = raw.get("decks", 1 if seats <= MAX_SEATS_ONE_DECK else 2)
    if not _is_int(decks) or decks not in (1, 2):
        raise InvalidOptions(EngineCode.INVALID_OPTION, "option 'decks' must be 1 or 2")
    if decks == 1 and seats > MAX_SEATS_ONE_DECK:
        raise InvalidOptions(
            EngineCode.INCONSISTENT_OPTIONS, f"one deck serves at most {MAX_SEATS_ONE_DECK} players; use 'decks': 2"
        )
    first_player = raw.get("first_player", LOWEST_FACE_UP)
    if _is_int(first_player):
        first_player = _seat(raw, "first_player", seats)
    elif first_player not in FIRST_PLAYER_RULES:
        raise InvalidOptions(
            EngineCode.INVALID_OPTION, f"option 'first_player' must be one of {list(FIRST_PLAYER_RULES)} or a seat"
        )
    max_turns = raw.get("max_turns", DEFAULT_MAX_TURNS)
    if not _is_int(max_turns) or not 1 <= max_turns <= 1_000_000:
        raise InvalidOptions(EngineCode.INVALID_OPTION, "option 'max_turns' must be an integer from 1 to 1000000")
    return ShedOptions(
        decks=decks,
        first_dealer=_seat(raw, "first_dealer", seats),
        first_player=first_player,
        setup_deal=_choice(raw, "setup_deal", SETUP_DEALS),
        must_play_if_able=_flag(raw, "must_play_if_able", True),
        two_effect=_choice(raw, "two_effect", TWO_EFFECTS),
        redraw=_flag(raw, "redraw", True),
        out_of_turn_four=_flag(raw, "out_of_turn_four", False),
        face_up_play=_choice(raw, "face_up_play", FACE_UP_PLAYS),
        hide_failed_blind_card=_flag(raw, "hide_failed_blind_card", False),
        draw_before_replay=_flag(raw, "draw_before_replay", False),
        finish=_choice(raw, "finish", FINISHES),
        max_turns=max_turns,
    )


MAX_TURNS_MAX = 1_000_000

OPTION_FIELDS: tuple[OptionField, ...] = (
    OptionField("decks", INT, "Decks", "1 up to five players, 2 from six", low=1, high=2),
    OptionField("first_dealer", SEAT, "First dealer", optional=True, null_means="drawn by high card"),
    OptionField(
        "first_player", CHOICE, "First player", "a rule, or a seat", choices=FIRST_PLAYER_RULES, seat_allowed=True
    ),
    OptionField(
        "setup_deal", CHOICE, "Setup deal", "face-up cards dealt, or chosen from the hand", choices=SETUP_DEALS
    ),
    OptionField("must_play_if_able", BOOL, "Must play if able", "no picking up the pile by choice"),
    OptionField("two_effect", CHOICE, "After a two", choices=TWO_EFFECTS),
    OptionField("redraw", BOOL, "Redraw", "just-drawn cards of the rank just played may be added"),
    OptionField("out_of_turn_four", BOOL, "Out-of-turn four", "complete a four of a kind out of turn"),
    OptionField(
        "face_up_play", CHOICE, "Face-up cards", "played from the table or taken into the hand", choices=FACE_UP_PLAYS
    ),
    OptionField("hide_failed_blind_card", BOOL, "Hide a failed face-down card"),
    OptionField("draw_before_replay", BOOL, "Draw before replaying", "after a two or a ten"),
    OptionField("finish", CHOICE, "Finish", choices=FINISHES),
    OptionField("max_turns", INT, "Turn limit", "then players are ranked by cards left", low=1, high=MAX_TURNS_MAX),
)
"""Every option of ``ShedOptions``, as ``parse_options`` checks it (``games.engine.option_fields``)."""
