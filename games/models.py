"""Game storage. Empty for now: the event log models (Game, Seat, Event unique on game+seq, Snapshot) come with
the next issue. The rules themselves live in games/engine/, which must not import this module."""
