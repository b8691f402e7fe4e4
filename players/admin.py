"""Admin for players. Empty until players has models."""
