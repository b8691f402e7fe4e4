"""Reads of the webhooks app: endpoints and attempts, and the events a game's log owes its players."""
