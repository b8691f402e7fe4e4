"""What both games' tables share: seat names, legal actions as controls, the log in words. Each game's own
table (``web/poker/table.py``, ``web/shedding/table.py``) is a ``TableKind``; ``web/registry.py`` finds it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

SEAT_FIELDS = ("seat", "target", "opponent", "loser", "defender", "attacker", "to", "dealer", "winner")
"""Fields of an engine event that name a seat: written as the seat's player's name."""


@dataclass(frozen=True, slots=True)
class Control:
    """One button of the action form: ``value`` is ``type`` or ``type@target`` (a seat); ``amount`` is the
    ``(low, high)`` range of a chosen amount, or ``None``; ``uses_cards``: the cards selected go with it."""

    value: str
    type: str
    label: str
    cost: int = 0
    uses_cards: bool = False
    amount: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class LogLine:
    """One thing that happened, in words, with the cards it shows (``None``: a card the viewer may not know)."""

    seq: int
    text: str
    cards: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class TableKind:
    """A game's table: its ``template`` (rendered with ``table_context``'s dict as ``t``), the words of its
    actions' buttons (``labels``, by action type, formatted with ``target``) and of its log (``phrases``, by
    event type, formatted with the event's fields, seats as names)."""

    template: str
    table_context: Callable[[dict[str, Any], dict[int, str]], dict[str, Any]]
    labels: Mapping[str, str]
    phrases: Mapping[str, str]
    hidden_controls: frozenset[str] = field(default_factory=frozenset)
    action_types: tuple[str, ...] = ()

    @property
    def entry_kinds(self) -> tuple[str, ...]:
        """Every ``kind`` a log entry of this game may have: the game stream's ``event:`` names, which a
        browser's ``EventSource`` must listen for one by one."""
        return (*SERVER_ENTRY_KINDS, "shuffle", "resign", *self.action_types)


SERVER_ENTRY_KINDS = ("seat_taken", "seat_left", "seat_to_bot", "game_cancelled")
"""Log entries the server writes beside the engine's actions (games/services)."""


def seat_names(seats: Iterable[Mapping[str, Any]]) -> dict[int, str]:
    """Seat number -> its player's name, ``"bot (basic)"`` or ``"seat N"`` while empty."""
    names = {}
    for row in seats:
        if row.get("player"):
            names[row["seat"]] = row["player"]["name"]
        elif row.get("bot"):
            names[row["seat"]] = f"bot {row['seat']} ({row['bot']})"
        else:
            names[row["seat"]] = f"seat {row['seat']}"
    return names


def controls(legal: Iterable[Mapping[str, Any]], kind: TableKind, names: Mapping[int, str]) -> list[Control]:
    """The viewer's legal actions as buttons, one per action and target, in the engine's order; actions in
    ``kind.hidden_controls`` are drawn by the game's template itself (a face-down card to click)."""
    out: dict[str, Control] = {}
    for action in legal:
        type_ = action["type"]
        if type_ in kind.hidden_controls:
            continue
        ranged = action.get("min_amount") is not None and action.get("max_amount") != action.get("min_amount")
        amount = (action["min_amount"], action["max_amount"]) if ranged else None
        template = kind.labels.get(type_, type_.replace("_", " ").capitalize())
        uses_cards = "cards" in action
        targets = action.get("targets") or [None]
        for target in targets:
            value = type_ if target is None else f"{type_}@{target['seat']}"
            cost = action.get("cost", 0) if target is None else target["cost"]
            label = template.format(target=names.get(target["seat"], "?") if target else "")
            out.setdefault(value, Control(value, type_, label, cost, uses_cards, amount))
    return list(out.values())


def selectable_cards(legal: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every card some legal action may name: those the viewer may click."""
    return {code for action in legal for code in action.get("cards", [])}


class _Words(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _event_line(seq: int, event: Mapping[str, Any], kind: TableKind, names: Mapping[int, str]) -> LogLine:
    words = _Words({key: value for key, value in event.items() if key != "cards"})
    for key in SEAT_FIELDS:
        if isinstance(event.get(key), int):
            words[key] = names.get(event[key], f"seat {event[key]}")
    for key in ("winners", "tied"):
        if isinstance(event.get(key), list):
            words[key] = " and ".join(names.get(seat, f"seat {seat}") for seat in event[key])
    phrase = kind.phrases.get(event["type"])
    if phrase is None:
        who = f"{words['seat']}: " if event.get("seat") is not None else ""
        phrase = who + event["type"].replace("_", " ")
    cards: list[str | None] = []
    # The v1 log's card groups are flat: {"<group>": ["As", null, ...]}.
    for group in (event.get("cards") or {}).values():
        cards.extend(group)
    return LogLine(seq=seq, text=phrase.format_map(words), cards=tuple(cards))


def log_lines(entries: Iterable[Mapping[str, Any]], kind: TableKind, names: Mapping[int, str]) -> list[LogLine]:
    """Log entries (already redacted for the viewer) in words: one line per thing that happened."""
    lines = []
    for entry in entries:
        if entry["kind"] == "seat_taken":
            lines.append(LogLine(entry["seq"], f"{names.get(entry['actor'], '?')} takes seat {entry['actor']}"))
            continue
        action = entry.get("action") or {}
        for event in entry.get("events", []):
            if event["type"] == "shuffle":
                # Chance's order is nobody's to see: its words carry no cards, not even backs.
                lines.append(LogLine(entry["seq"], "The cards are shuffled"))
                continue
            line = _event_line(entry["seq"], event, kind, names)
            if action.get("timeout"):
                line = LogLine(line.seq, line.text + " (time ran out)", line.cards)
            lines.append(line)
    return lines
