"""What both games' tables share: seat names, legal actions as controls. Each game's own table
(``web/poker/table.py``, ``web/shedding/table.py``) is a ``TableKind``; ``web/registry.py`` finds it. The log in
words comes from each game's own phrase table (``games.selectors.words.log_lines``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.selectors import words


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
    help: str = ""


@dataclass(frozen=True, slots=True)
class TableKind:
    """A game's table: its ``template`` (rendered with ``table_context``'s dict as ``t``), the words of its
    actions' buttons (``labels``, by action type, formatted with ``target``), each button's one-line
    explanation (``help``, formatted with ``target`` and ``cost``) and what resigning does (``resign_words``,
    after "You leave this match for good").

    Its rules page (``rules_template``) and the words of its log explained under the log (``glossary_template``);
    the options the new-table form shows first (``common_options``, the
    others folded); the end of a hand (``hand_end``: the game's history hand -> the dict
    ``hand_end_template`` draws as ``end``, or ``None`` for a game whose hand is the match) and of the match
    (``results``: its ``match_ended`` event and the seats' names -> ``{"rows": [...]}``; ``outcome``: the event
    and a seat -> whether it won and its result in words, for "My games")."""

    template: str
    table_context: Callable[[dict[str, Any], dict[int, str]], dict[str, Any]]
    labels: Mapping[str, str]
    resign_words: str = ""
    hidden_controls: frozenset[str] = field(default_factory=frozenset)
    action_types: tuple[str, ...] = ()
    help: Mapping[str, str] = field(default_factory=dict)
    rules_template: str = ""
    glossary_template: str = ""
    common_options: tuple[str, ...] = ()
    hand_end: Callable[[Any], dict[str, Any]] | None = None
    hand_end_template: str = ""
    results: Callable[[Mapping[str, Any], dict[int, str]], dict[str, Any]] | None = None
    outcome: Callable[[Mapping[str, Any], int | None], tuple[bool, str]] | None = None

    @property
    def entry_kinds(self) -> tuple[str, ...]:
        """Every ``kind`` a log entry of this game may have: the game stream's ``event:`` names, which a
        browser's ``EventSource`` must listen for one by one."""
        return (*SERVER_ENTRY_KINDS, "shuffle", "resign", *self.action_types)


SERVER_ENTRY_KINDS = ("seat_taken", "seat_left", "seat_to_bot", "game_cancelled")
"""Log entries the server writes beside the engine's actions (games/services)."""


def seat_names(seats: Iterable[Mapping[str, Any]]) -> dict[int, str]:
    """Seat number -> who sits there, the server's one naming (``games.selectors.words.seat_name``)."""
    return words.seat_names(seats)


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
            who = names.get(target["seat"], f"seat {target['seat']}") if target else ""
            label = template.format(target=who)
            help_ = kind.help.get(type_, "").format(target=who, cost=_chips(cost))
            out.setdefault(value, Control(value, type_, label, cost, uses_cards, amount, help_))
    return list(out.values())


def _chips(cost: int) -> str:
    return "nothing" if not cost else f"{cost} chip{'s' if cost != 1 else ''}"


def selectable_cards(legal: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every card some legal action may name: those the viewer may click."""
    return {code for action in legal for code in action.get("cards", [])}
