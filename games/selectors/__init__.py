"""Reads: game states, per-viewer views and logs, lists. Nothing here writes."""
