"""Admin for games. The read-only event log and hand-history pages come with the event log models."""
