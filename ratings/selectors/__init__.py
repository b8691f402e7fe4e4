"""Reads of ratings: a finished game's result as ratings count it (``results``) and the boards (``boards``)."""
