"""Players: accounts, hashed API tokens, bots as players."""
