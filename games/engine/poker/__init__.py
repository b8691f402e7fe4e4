"""Palace Poker: the rules of palace-poker.txt as a pure game module."""

from games.engine.poker.game import PALACE_POKER, PalacePoker

__all__ = ["PALACE_POKER", "PalacePoker"]
