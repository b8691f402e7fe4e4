"""Bots: policies that choose a seat's action from that seat's view alone (see ``base``).

``BOTS`` holds the Palace Poker bots by name; ``get_bot(kind, name)`` finds a bot for a game kind::

    bot = get_bot("palace-poker", "basic")  # or "search", "random"; kind "palace" has the same three
    body = bot.choose(PALACE_POKER.view(state, seat), secrets.SystemRandom())
    # body: {"type": "bet", "target": 1}, as a client would POST it
"""

from __future__ import annotations

from games.engine.bots.base import ActionJSON, Bot, RandomSource
from games.engine.bots.poker_basic import PokerBasicBot
from games.engine.bots.poker_search import PokerSearchRules
from games.engine.bots.random_bot import RandomBot
from games.engine.bots.search import SearchBot
from games.engine.bots.shedding_basic import ShedBasicBot
from games.engine.bots.shedding_search import ShedSearchRules
from games.engine.errors import EngineCode, EngineError

__all__ = ["BOTS", "ActionJSON", "Bot", "RandomSource", "bot_names", "get_bot"]

BOTS: dict[str, Bot] = {bot.name: bot for bot in (PokerBasicBot(), RandomBot(), SearchBot(PokerSearchRules()))}
"""The Palace Poker (kind ``"palace-poker"``) bots by name: ``"basic"``, ``"random"``, ``"search"`` (a
determinized Monte Carlo search of 250 ms a decision: ``games.engine.bots.search``)."""

_BY_KIND: dict[str, dict[str, Bot]] = {
    "palace-poker": BOTS,
    "palace": {bot.name: bot for bot in (ShedBasicBot(), RandomBot(), SearchBot(ShedSearchRules()))},
}


def get_bot(kind: str, name: str) -> Bot:
    """The bot called ``name`` for games of ``kind``; raises ``EngineError("unknown_bot")``."""
    bots = _BY_KIND.get(kind, {})
    try:
        return bots[name]
    except KeyError:
        raise EngineError(EngineCode.UNKNOWN_BOT, f"no bot {name!r} for {kind!r}; one of {sorted(bots)}") from None


def bot_names(kind: str) -> list[str]:
    """The names of the bots that play ``kind`` (none for an unknown kind)."""
    return sorted(_BY_KIND.get(kind, {}))
