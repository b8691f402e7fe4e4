"""HTTP API of players: registration, staff tokens, the current user."""
