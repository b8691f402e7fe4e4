"""The engine's one error type.

Every illegal action, bad option or malformed input raises ``EngineError`` (or a subclass) with a
machine-readable ``code`` (``not_your_turn``, ``insufficient_chips``, ``same_banner_suit`` ...) and a
human ``message``. The API maps it to ``{"code", "detail"}``.
"""

from __future__ import annotations


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
