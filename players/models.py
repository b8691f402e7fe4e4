"""Player models. Empty for now: accounts, hashed tokens and bot players come with the HTTP API."""
