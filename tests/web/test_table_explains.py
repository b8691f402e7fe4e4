"""The table explains itself (issue 28): the end of a hand and of the match stay on the table with what to do
next, "My games" says who won, every game has a rules page linked from the lobby, the form and the table, every
button says what it does, and the new-table form shows its defaults, folds its variants and seats bots."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model

from games.selectors.read_models import game_detail, game_get
from games.services.lifecycle import game_resign
from games.services.turns import bot_move
from tests.web.conftest import csrf

MAX_BOT_MOVES = 400


def _post(client, url, data=None):
    return client.post(url, {**(data or {}), "csrfmiddlewaretoken": csrf(client)})


def _new_table(client, kind, data):
    response = _post(client, f"/new/{kind}/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return int(response["Location"].strip("/").split("/")[-1])


def _hand(game_id):
    game = game_get(game_id)
    user = game.creator
    return game_detail(game, user)["state"]["hand"]


def test_the_rules_pages_exist_and_are_linked_from_the_lobby_the_form_and_the_table(web_client):
    alice = web_client("alice")
    lobby = alice.get("/").content.decode()
    for kind, words in (("palace-poker", "battle"), ("palace", "pile")):
        assert f'href="/rules/{kind}/"' in lobby
        assert f'href="/rules/{kind}/"' in alice.get(f"/new/{kind}/").content.decode()
        page = alice.get(f"/rules/{kind}/")
        assert page.status_code == 200 and words in page.content.decode()
        game_id = _new_table(alice, kind, {"seats": 2, "sit": "on"})
        assert f'href="/rules/{kind}/"' in alice.get(f"/games/{game_id}/").content.decode()
        if kind == "palace-poker":
            assert "banner card set aside" in alice.get(f"/games/{game_id}/").content.decode()
    assert alice.get("/rules/chess/").status_code == 404


def test_the_rules_are_open_to_someone_who_has_not_signed_up(client):
    welcome = client.get("/").content.decode()
    assert 'href="/rules/palace-poker/"' in welcome and 'href="/rules/palace/"' in welcome
    assert client.get("/rules/palace/").status_code == 200


def test_the_form_shows_its_defaults_folds_the_variants_and_seats_bots(web_client):
    """Defaults are the inputs' values; an option left at the default shown follows the others (the big bet,
    twice the small bet); a bot named in the form sits at once and the match starts."""
    alice = web_client("alice")
    form = alice.get("/new/palace-poker/").content.decode()
    assert re.search(r'name="option_small_bet"[^>]*value="5"', form)
    assert re.search(r'name="option_max_raises"[^>]*value="3"', form)
    common, variants = form.split('id="variants"')
    assert 'name="option_betting"' in common and 'name="option_open_market"' in variants
    assert "no pot sharing" in variants.lower() and "default: off" in variants
    game_id = _new_table(
        alice,
        "palace-poker",
        {"seats": 2, "sit": "on", "bots": 1, "bot": "search", "option_small_bet": 20, "option_big_bet": 10},
    )
    game = game_get(game_id)
    assert game.status == "active" and [seat.bot for seat in game.seats.all()] == ["", "search"]
    assert game.options["small_bet"] == 20 and game.options["big_bet"] == 40
    too_many = _post(alice, "/new/palace/", {"seats": 2, "sit": "on", "bots": 2, "bot": "basic"})
    assert too_many.status_code == 400 and "Only 1 seat left for bots" in too_many.content.decode()


def test_the_waiting_page_has_a_link_to_copy_and_dangerous_buttons_look_dangerous(web_client):
    alice = web_client("alice")
    game_id = _new_table(alice, "palace", {"seats": 3, "sit": "on"})
    page = alice.get(f"/games/{game_id}/").content.decode()
    assert re.search(rf'id="share-link" readonly value="http://testserver/games/{game_id}/"', page)
    assert 'id="copy-link"' in page and "web/copy.js" in page
    assert re.search(r'id="cancel" class="danger"', page) and re.search(r'id="leave" class="danger"', page)


def test_every_button_says_what_it_does(web_client):
    alice, bob = web_client("alice"), web_client("bob")
    game_id = _new_table(alice, "palace-poker", {"seats": 2, "sit": "on"})
    _post(bob, f"/games/{game_id}/join/")
    acting = alice if game_get(game_id).seats.all()[0].to_act else bob
    page = acting.get(f"/games/{game_id}/").content.decode()
    buttons = re.findall(r'<button type="submit" name="act"[^>]*>', page)
    assert buttons and all('title="' in button and "aria-describedby" in button for button in buttons)
    assert re.search(r'data-action="stay"[^>]*title="Do nothing this turn', page)
    assert re.search(r'data-action="buy"[^>]*title="Pay 5 chips for the stock', page)
    assert re.search(r'<small class="help" id="help-\d+">Attack bob for 5 chips', page) or "Attack alice" in page


def test_the_end_of_a_hand_stays_on_the_table_until_the_next_decision(web_client):
    """A spectator's table shows the hand that just ended (who won the pot, with what) open, above the next hand,
    until someone decides in the next hand; then it is folded, one click away."""
    alice = web_client("alice")
    game_id = _new_table(alice, "palace-poker", {"seats": 2, "bots": 2, "bot": "basic", "option_max_hands": 3})
    for _ in range(MAX_BOT_MOVES):
        if _hand(game_id) == 2:
            break
        bot_move(game_id=game_id, version=game_get(game_id).version)
    else:
        raise AssertionError("hand 1 did not end")
    page = alice.get(f"/games/{game_id}/").content.decode()
    end = re.search(r'<details id="hand-end" data-hand="1" open>(.*?)</details>', page, re.S)
    assert end, page
    assert 'id="next-hand"' in end.group(1)
    assert re.search(r"Hand 1 is over: bot \d \(basic\) wins", end.group(1))
    assert "showdown" in end.group(1).lower() or "Last battle" in end.group(1)
    # "Next hand" folds it away for this player only.
    seen = _post(alice, f"/games/{game_id}/next-hand/", {"hand": "1"})
    assert seen.status_code == 200 and 'id="hand-end" data-hand="1">' in seen.content.decode()
    assert _post(alice, f"/games/{game_id}/next-hand/", {"hand": "x"}).status_code == 400
    assert 'data-hand="1" open' in web_client("bob").get(f"/games/{game_id}/").content.decode()
    # The first decision of hand 2 (a shuffle is chance's, not a decision): hand 1 folds away, or, if that
    # decision ended hand 2 at once (a fold), hand 2 is the one shown.
    assert bot_move(game_id=game_id, version=game_get(game_id).version)
    page = alice.get(f"/games/{game_id}/").content.decode()
    assert 'id="hand-end" data-hand="1">' in page or 'id="hand-end" data-hand="2" open>' in page


def test_the_end_of_the_match_shows_the_results_and_what_to_do_next(web_client):
    """Bob resigns: both tables show the places and chips, "New table like this" (the form filled in as that
    table was) and "Back to the lobby"; "My games" says who won."""
    alice, bob = web_client("alice"), web_client("bob")
    game_id = _new_table(alice, "palace-poker", {"seats": 2, "sit": "on", "option_small_bet": 7})
    _post(bob, f"/games/{game_id}/join/")
    game_resign(user=get_user_model().objects.get(username="bob"), game_id=game_id)
    for client in (alice, bob):
        page = client.get(f"/games/{game_id}/").content.decode()
        results = re.search(r'<section class="results" id="results".*?</section>', page, re.S).group(0)
        rows = re.findall(r"<tr data-seat=\"(\d)\"[^>]*><td>(\w+)</td><td>(\w+)", results)
        assert rows == [("0", "1st", "alice"), ("1", "2nd", "bob")]
        assert f'href="/new/palace-poker/?like={game_id}" id="new-like"' in results
        assert 'href="/" id="to-lobby"' in results
    like = alice.get(f"/new/palace-poker/?like={game_id}").content.decode()
    assert re.search(r'name="option_small_bet"[^>]*value="7"', like)
    assert "you won" in alice.get("/mine/").content.decode()
    mine = bob.get("/mine/").content.decode()
    assert "you won" not in mine and re.search(r"2nd of 2, \d+ chips", mine)


def test_places_put_the_winners_first_then_the_most_chips_and_share_a_tie():
    """palace-poker.txt, "Winning the Pot": the match's winners (most chips among those still in) come first; the
    others follow by chips (or points) left, equal ones sharing a place."""
    from web.poker.ending import outcome, results

    event = {"winners": [2], "stacks": [0, 0, 900, 100], "hands": 9}
    rows = results(event, {0: "ann", 1: "ben", 2: "cy", 3: "di"})["rows"]
    assert [(row["place"], row["name"], row["score"]) for row in rows] == [
        ("1st", "cy", "900 chips"),
        ("2nd", "di", "100 chips"),
        ("3rd", "ann", "0 chips"),
        ("3rd", "ben", "0 chips"),
    ]
    assert outcome(event, 2) == (True, "1st of 4, 900 chips")
    assert outcome(event, 1) == (False, "3rd of 4, 0 chips")
    assert outcome(event, None) == (False, "")
    points = {"winners": [0], "stacks": [1000, 1000], "scores": [104, 80], "hands": 14}
    assert outcome(points, 1) == (False, "2nd of 2, 80 points")


def test_the_shedding_places_are_the_finishing_order():
    from web.shedding.ending import outcome, results

    event = {"order": [1, 0, 2], "reason": "last_player", "cards_left": {"0": 0, "1": 0, "2": 7}, "turns": 80}
    table = results(event, {0: "ann", 1: "ben", 2: "cy"})
    assert [(row["place"], row["name"], row["score"]) for row in table["rows"]] == [
        ("1st", "ben", "no cards left"),
        ("2nd", "ann", "no cards left"),
        ("3rd", "cy", "7 cards left"),
    ]
    assert table["why"] == "one player was left holding cards"
    assert outcome(event, 1) == (True, "1st of 3, no cards left")
