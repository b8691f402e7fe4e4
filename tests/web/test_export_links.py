"""The replay page links to the game's exports (README, "Provably fair shuffles and exports"): the JSON export
for every game, the PHH text for a kind PHH can write (Palace Poker, through its registry entry), not for the
shedding game."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.games.selectors.test_export import play


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "options", "phh"), [("palace-poker", {"max_hands": 1}, True), ("palace", {}, False)])
def test_the_replay_links_the_exports_and_phh_where_the_kind_has_it(kind, options, phh):
    game, human = play(kind, {**options, "max_turns": 60} if kind == "palace" else options, 2, f"links{kind}")
    client = Client()
    client.force_login(human)
    page = client.get(f"/games/{game.pk}/replay/1/").content.decode()
    assert f'href="/api/v1/games/{game.pk}/export/"' in page
    assert (f'href="/api/v1/games/{game.pk}/export/phh/"' in page) == phh
    assert ('id="export-phh"' in page) == phh
