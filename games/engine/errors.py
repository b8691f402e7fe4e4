"""The engine's one error type.

Every illegal action, bad option or malformed input raises ``EngineError`` (or a subclass) with a
machine-readable ``code`` (``not_your_turn``, ``insufficient_chips``, ``same_banner_suit`` ...) and a
human ``message``. The API maps it to ``{"code", "detail"}``.
"""

from __future__ import annotations

from enum import StrEnum


class EngineCode(StrEnum):
    """Every ``code`` the engine raises: one place for the rules' refusals, which the API answers as they are
    (``{"code", "detail"}``, 400) and documents from this list."""

    ACTION_NOT_ALLOWED = "action_not_allowed"
    AWAITING_SHUFFLE = "awaiting_shuffle"
    CHOOSE_THREE = "choose_three"
    DOES_NOT_BEAT = "does_not_beat"
    DUPLICATE_CARDS = "duplicate_cards"
    EMPTY_PILE = "empty_pile"
    FACE_DOWN_NOT_YET = "face_down_not_yet"
    GAME_OVER = "game_over"
    INCONSISTENT_OPTIONS = "inconsistent_options"
    INCONSISTENT_VIEW = "inconsistent_view"
    INSUFFICIENT_CHIPS = "insufficient_chips"
    INVALID_ACTION = "invalid_action"
    INVALID_AMOUNT = "invalid_amount"
    INVALID_CARD = "invalid_card"
    INVALID_HAND_RANK = "invalid_hand_rank"
    INVALID_OPTION = "invalid_option"
    INVALID_OUT_OF_TURN_PLAY = "invalid_out_of_turn_play"
    INVALID_SEAT = "invalid_seat"
    INVALID_SEATS = "invalid_seats"
    INVALID_SEEDS = "invalid_seeds"
    INVALID_SHUFFLE = "invalid_shuffle"
    INVALID_SUIT = "invalid_suit"
    INVALID_TARGET = "invalid_target"
    INVALID_VIEWER = "invalid_viewer"
    MIXED_RANKS = "mixed_ranks"
    MUST_BATTLE = "must_battle"
    MUST_PLAY = "must_play"
    NO_CARDS = "no_cards"
    NO_DECISION = "no_decision"
    NO_SHUFFLE_DUE = "no_shuffle_due"
    NOT_IN_MATCH = "not_in_match"
    NOT_ON_TURN = "not_on_turn"
    NOT_YOUR_CARDS = "not_your_cards"
    NOT_YOUR_SOLDIER = "not_your_soldier"
    NOT_YOUR_TURN = "not_your_turn"
    NOTHING_TO_BUY = "nothing_to_buy"
    PLAY_FACE_DOWN = "play_face_down"
    RAISE_CAP = "raise_cap"
    SAME_BANNER_SUIT = "same_banner_suit"
    TOO_MANY_CARDS = "too_many_cards"
    TOO_MANY_SOLDIERS = "too_many_soldiers"
    UNEXPECTED_CARDS = "unexpected_cards"
    UNEXPECTED_FIELD = "unexpected_field"
    UNKNOWN_ACTION = "unknown_action"
    UNKNOWN_BOT = "unknown_bot"
    UNKNOWN_KIND = "unknown_kind"
    UNKNOWN_OPTION = "unknown_option"


OPTION_CODES: frozenset[EngineCode] = frozenset(
    {
        EngineCode.INVALID_OPTION,
        EngineCode.INCONSISTENT_OPTIONS,
        EngineCode.UNKNOWN_OPTION,
        EngineCode.UNKNOWN_KIND,
        EngineCode.INVALID_SEATS,
        EngineCode.UNKNOWN_BOT,
    }
)
"""The codes of a refused game set-up (options, seats, kind, bot), as opposed to a refused decision."""

ACTION_CODES: tuple[EngineCode, ...] = (
    EngineCode.INVALID_ACTION,
    EngineCode.INVALID_CARD,
    EngineCode.DUPLICATE_CARDS,
    EngineCode.TOO_MANY_CARDS,
    EngineCode.UNKNOWN_ACTION,
    EngineCode.UNEXPECTED_FIELD,
    EngineCode.UNEXPECTED_CARDS,
    EngineCode.NOT_YOUR_TURN,
    EngineCode.GAME_OVER,
    EngineCode.AWAITING_SHUFFLE,
    EngineCode.NO_SHUFFLE_DUE,
    EngineCode.ACTION_NOT_ALLOWED,
    EngineCode.INSUFFICIENT_CHIPS,
    EngineCode.INVALID_AMOUNT,
    EngineCode.INVALID_TARGET,
    EngineCode.RAISE_CAP,
    EngineCode.NOTHING_TO_BUY,
    EngineCode.NOT_YOUR_SOLDIER,
    EngineCode.TOO_MANY_SOLDIERS,
    EngineCode.SAME_BANNER_SUIT,
    EngineCode.CHOOSE_THREE,
    EngineCode.DOES_NOT_BEAT,
    EngineCode.EMPTY_PILE,
    EngineCode.FACE_DOWN_NOT_YET,
    EngineCode.MIXED_RANKS,
    EngineCode.MUST_PLAY,
    EngineCode.NO_CARDS,
    EngineCode.NOT_ON_TURN,
    EngineCode.NOT_YOUR_CARDS,
    EngineCode.PLAY_FACE_DOWN,
    EngineCode.INVALID_OUT_OF_TURN_PLAY,
    EngineCode.MUST_BATTLE,
)
"""The codes of a decision the engine refuses (what the API documents for an action's 400), in that order."""

INTERNAL_CODES: frozenset[EngineCode] = frozenset(EngineCode) - OPTION_CODES - frozenset(ACTION_CODES)
"""The other codes: refusals of an operation of their own (``not_in_match`` when resigning, ``invalid_seat``), and
those met only by a caller inside the server (a bot, the evaluator, a shuffle) or a corrupt log or state."""


class EngineError(Exception):
    """An action, option or input the rules do not allow.

    ``code``: stable snake_case identifier for clients; ``message``: human explanation.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalAction(EngineError):
    """The action is not legal in this state (wrong turn, wrong phase, unaffordable, ...)."""


class InvalidOptions(EngineError):
    """The game options are unknown, malformed or inconsistent."""
