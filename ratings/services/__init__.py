"""The only writers of ratings: rating a finished game (``rate``) and recomputing every rating (``recompute``)."""
