"""Who sits at a seat has one name everywhere (``games.selectors.words.seat_name``): a bot's seat is ``bot 1
(basic)`` on the table, its log and replay, the lobby's rows, "My games", and in the admin's game list, game
page, event log and hand history alike (issue 28: the admin said ``bot basic (seat 1)`` where the site said
``bot 1 (basic)``).

Given alice at seat 0 and a ``basic`` bot at seat 1 of a Palace Poker table the bot deals, when each page that
names the seats is read, then each names the bot ``bot 1 (basic)`` and alice ``alice``, and none names the bot
another way.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.selectors.words import seat_name
from games.services.games import game_create, seat_take

BOT = seat_name(1, bot="basic")
OTHER_NAMINGS = re.compile(r"bot basic|basic bot \(|basic \(seat|bot \(basic\)|seat 1 \(basic\)")
"""Ways a bot's seat was named before, or could be: any of them on a page is a second naming."""


@pytest.fixture
def table(make_player, make_staff):
    alice, _ = make_player("alice")
    game = game_create(creator=alice, kind="palace-poker", seats=2, options={"first_dealer": 1, "max_hands": 1})
    seat_take(game_id=game.pk, player=alice, seat=0)
    seat_take(game_id=game.pk, player=alice, seat=1, bot="basic")
    staff, _ = make_staff()
    return game, alice, staff


def read(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return " ".join(response.content.decode().split())


@pytest.mark.django_db
def test_a_bots_seat_has_one_name_on_every_page_and_in_the_admin(table) -> None:
    game, alice, staff = table
    assert BOT == "bot 1 (basic)"
    player, admin = Client(), Client()
    player.force_login(alice)
    admin.force_login(staff)
    pages = {
        "table": read(player, f"/games/{game.pk}/"),
        "log": read(player, f"/games/{game.pk}/log/"),
        "replay": read(player, f"/games/{game.pk}/replay/2/"),
        "my games": read(player, "/mine/"),
        "admin list": read(admin, "/admin/games/game/"),
        "admin game": read(admin, f"/admin/games/game/{game.pk}/change/"),
        "admin event log": read(admin, f"/admin/games/event/?game__id__exact={game.pk}"),
        "admin hand": read(admin, f"/admin/games/game/{game.pk}/hands/1/"),
    }
    for where, page in pages.items():
        assert BOT in page, f"{where} does not name the bot {BOT!r}"
        assert not OTHER_NAMINGS.search(page), f"{where} names the bot another way: {OTHER_NAMINGS.search(page)}"
    assert "Hand 1 begins, dealt by bot 1 (basic)" in pages["log"]
    assert "alice" in pages["admin hand"] and "alice" in pages["table"]
