"""Test helpers: Palace Poker tables played over the HTTP API by several clients."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

from games.engine.cards import FULL_DECK, card_codes, parse_cards


def deck_starting_with(top: str, without: str = "") -> list[str]:
    """Card codes: ``top`` first, then the rest of the deck (less ``without``) in canonical order."""
    head = parse_cards(top)
    excluded = set(parse_cards(without)) | set(head)
    return card_codes(head) + [card.code for card in sorted(FULL_DECK) if card not in excluded]


@dataclass
class Table:
    """A game and one authenticated client per seat."""

    game_id: int
    clients: list[APIClient]
    version: int = 0
    responses: list[Any] = field(default_factory=list)

    def url(self, suffix: str = "") -> str:
        return f"/api/v1/games/{self.game_id}/{suffix}"

    def view(self, seat: int) -> dict[str, Any]:
        response = self.clients[seat].get(self.url())
        assert response.status_code == 200, response.content
        self.version = response.json()["version"]
        return response.json()

    def act(self, seat: int, type_: str, *, expect: int = 201, **fields: Any) -> Any:
        body = {"type": type_, "expected_version": self.version, **fields}
        response = self.clients[seat].post(self.url("actions/"), body, format="json")
        assert response.status_code == expect, response.content
        if expect == 201:
            self.version = response.json()["version"]
        self.responses.append(response)
        return response


def create_table(creator: APIClient, players: list[APIClient], *, options: dict, **extra: Any) -> Table:
    """Create a Palace Poker game and seat every client in order; the match starts by itself."""
    response = creator.post(
        "/api/v1/games/", {"kind": "palace-poker", "seats": len(players), "options": options, **extra}, format="json"
    )
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    for seat, client in enumerate(players):
        taken = client.post(f"/api/v1/games/{game_id}/seats/", {"seat": seat}, format="json")
        assert taken.status_code == 201, taken.content
    table = Table(game_id=game_id, clients=players)
    table.view(0)
    return table
