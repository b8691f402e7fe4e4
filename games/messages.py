"""The names of the messages a player's programs are sent about his games, in one place: the live stream
``me/stream/`` (``games.selectors.live``), webhooks (``webhooks.selectors.notices``) and the mails' choice of
which webhook makes a mail needless (``notifications.selectors``) all name them from here.

``turn.due``: a decision became the player's (``games.selectors.due``); ``game.started`` / ``game.finished``: the
match began / ended; ``hand.finished``: a Palace Poker hand ended; ``player.resigned``: a seat resigned;
``seat.to_bot``: a seat was handed to the bot after its timeouts; ``webhook.ping``: a test a player asks for.
"""

from __future__ import annotations

TURN_DUE = "turn.due"
GAME_STARTED = "game.started"
GAME_FINISHED = "game.finished"
HAND_FINISHED = "hand.finished"
PLAYER_RESIGNED = "player.resigned"
SEAT_TO_BOT = "seat.to_bot"
PING = "webhook.ping"

STREAM_EVENTS = (TURN_DUE, GAME_STARTED, GAME_FINISHED)
"""What ``me/stream/`` sends."""

WEBHOOK_EVENTS = (TURN_DUE, GAME_STARTED, GAME_FINISHED, HAND_FINISHED, PLAYER_RESIGNED, SEAT_TO_BOT)
"""The event types a webhook may subscribe to (``webhook.ping`` is sent on request only)."""
