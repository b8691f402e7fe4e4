"""Staff review of hand histories (games.selectors.hand_history) and the read-only admin (games.admin).

The example game is palace-poker.txt's ("Raise" example and "Example Game Continued"), played over HTTP with the
deck and steps of tests/games/api/test_games_example.py: Dave wins a pot of 142.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client

from games.models import Event, Game, Seat
from games.selectors.hand_history import hand_histories, hand_history
from games.services import action_submit, game_create, seat_take
from tests.games.api.table import create_table, deck_starting_with
from tests.games.api.test_games_example import AARON, BANNERS, BRAD, CHRISTINE, DAVE, ELENA, FRANK, STEPS
from tests.games.engine.poker.test_example_game import BANNER_DECK, PALACE_DECK

NAMES = ("aaron", "brad", "christine", "dave", "elena", "frank")


@pytest.fixture
def staff(make_staff):
    user, token = make_staff()
    return user, token


@pytest.fixture
def example_game(staff, make_player, auth_client) -> Game:
    """The example game played to its end: one hand, dealt by Frank."""
    _, staff_token = staff
    clients = [auth_client(make_player(name)[1]) for name in NAMES]
    options = {"betting": "limit", "small_bet": 5, "big_bet": 10, "ante": 2, "first_dealer": FRANK, "max_hands": 1}
    shuffles = [deck_starting_with(BANNER_DECK), deck_starting_with(PALACE_DECK, without=BANNERS)]
    table = create_table(auth_client(staff_token), clients, options=options, prearranged_shuffles=shuffles)
    for seat, type_, fields, _ in [*STEPS, (FRANK, "call", {}, 10)]:
        table.view(seat)
        table.act(seat, type_, **fields)
    return Game.objects.get(pk=table.game_id)


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff[0])
    return client


def chip_steps(hand):
    return [(step.seat.number, step.type, step.chips) for step in hand.steps if step.chips]


# --- the read model ---


def test_example_hand_deal_dealer_antes_banners_and_palaces(example_game):
    """palace-poker.txt, "Banner Cards" and "Palace Cards": every card of the deal, rejected banners included."""
    (hand,) = hand_histories(example_game)
    assert hand.number == 1 and hand.finished
    assert str(hand.dealer) == "frank" and hand.dealer.number == FRANK
    seats = {row.seat.number: row for row in hand.seats}
    assert [row.seat.name for row in hand.seats] == list(NAMES)
    assert {row.ante for row in hand.seats} == {2}
    assert [seats[seat].banner for seat in range(6)] == BANNERS.split()
    assert seats[BRAD].rejected == ["Jc"] and seats[DAVE].rejected == ["2c", "5h", "Tc", "Ks"]
    assert seats[FRANK].palace == ("Qd", "Qc", "8s")
    assert seats[BRAD].palace == ("Ah", "Ad", "9c")
    assert seats[DAVE].palace == ("Js", "Jh", "5s")


def test_example_hand_every_action_with_its_cost(example_game):
    """palace-poker.txt, "Raise": Brad bets 5, Frank raises for 10, Brad re-raises for 15, Frank for 20, Brad
    calls 10; then "Example Game Continued", every buy, bet and call in order at what it cost."""
    hand = hand_history(example_game, 1)
    assert chip_steps(hand) == [
        (AARON, "buy", 5),
        (BRAD, "bet", 5),
        (FRANK, "raise", 10),
        (BRAD, "raise", 15),
        (FRANK, "raise", 20),
        (BRAD, "call", 10),
        (CHRISTINE, "buy", 5),
        (DAVE, "buy", 5),
        (ELENA, "buy", 5),
        (FRANK, "bet", 5),
        (CHRISTINE, "buy", 5),
        (DAVE, "bet", 10),
        (FRANK, "bet", 10),
        (DAVE, "bet", 10),
        (FRANK, "call", 10),
    ]
    texts = [step.text for step in hand.steps]
    # Each step in Palace Poker's own words (games.engine.poker.phrases): who, what, how much.
    assert "brad bets 5 chips against frank" in texts
    assert "frank raises by 5 chips, putting in 10 chips" in texts
    assert "dave discards 10\u2660 7\u2665 9\u2665" in texts
    # A battle's palace with the hand it makes, its cards as the engine chose them (the other side's banner suit
    # left out: Frank's spades leave Dave's 5♠ out), then the palace cards it does not use.
    assert "frank shows brad the palace: three queens, Q\u2663 Q\u2666 Q\u2660 8\u2660" in texts
    assert (
        "dave shows frank the palace: four jacks, J\u2663 J\u2666 J\u2665 J\u2660; also in the palace: 5\u2660" in texts
    )
    assert "dave wins the pot of 142 chips as the last player in the hand" in texts
    assert [step.seq for step in hand.steps] == sorted(step.seq for step in hand.steps)


def test_example_hand_battles_show_both_palaces_hands_and_winner(example_game):
    """palace-poker.txt, "Call": Frank's three queens beat Brad's pair of aces; Dave's four jacks beat Frank."""
    hand = hand_history(example_game, 1)
    first, *_, last = hand.battles
    assert (first.attacker.seat.number, first.defender.seat.number, first.bet) == (BRAD, FRANK, 5)
    assert (first.attacker.palace, first.attacker.hand) == (("Ah", "Ad", "9c"), "pair of aces")
    assert (first.defender.palace, first.defender.hand) == (("Qd", "Qc", "8s"), "three queens")
    assert first.defender.shown and not first.attacker.shown, "the loser's palace stays his at the table"
    # Each hand's cards, the engine's: shown (Frank's, in the battle's event) or evaluated here (Brad's).
    assert (first.attacker.cards, first.defender.cards) == (("Ad", "Ah", "9c", "3h"), ("Qc", "Qd", "Qs", "8s"))
    assert (first.winner.number, first.loser.number, first.outcome) == (FRANK, BRAD, "showdown")
    assert first.raises == 3 and first.captured == ("3h",)
    assert (first.attacker.put_in, first.defender.put_in) == (30, 30)
    assert (last.attacker.seat.number, last.defender.seat.number) == (DAVE, FRANK)
    assert last.attacker.hand == "four jacks" and last.attacker.shown
    assert last.defender.hand == "two pair, queens and eights", "Dave's banner suit (diamonds) left out"
    assert (last.attacker.cards, last.defender.cards) == (("Jc", "Jd", "Jh", "Js"), ("Qc", "Qs", "8c", "8s"))
    assert last.winner.number == DAVE and last.captured == ("Qs", "8c")
    folds = [battle for battle in hand.battles if battle.outcome == "fold"]
    assert [(battle.loser.number, battle.winner.number) for battle in folds] == [
        (AARON, FRANK),
        (CHRISTINE, DAVE),
        (ELENA, FRANK),
    ]


def test_example_hand_pot_of_142_to_dave(example_game):
    """palace-poker.txt, "Example Game Continued": Dave wins 142; every chip put in is in the pot."""
    hand = hand_history(example_game, 1)
    assert hand.pot == 142
    assert [(seat.number, chips) for seat, chips in hand.awards] == [(DAVE, 142)]
    assert sum(row.put_in for row in hand.seats) == 142
    dave = next(row for row in hand.seats if row.seat.number == DAVE)
    assert (dave.stack_before, dave.put_in, dave.won, dave.stack) == (1000, 27, 142, 1115)
    assert [step.type for step in hand.steps[-3:]] == ["pot_awarded", "hand_ended", "match_ended"]


def test_example_hand_shuffle_orders_for_staff(example_game):
    hand = hand_history(example_game, 1)
    assert [(shuffle.purpose, len(shuffle.cards)) for shuffle in hand.shuffles] == [
        ("banner_deal", 52),
        ("palace_deal", 46),
    ]
    assert hand.shuffles[0].cards[:3] == ("8c", "Jc", "3h")
    assert hand_history(example_game, 2) is None


@pytest.fixture
def showdown_game(staff, make_player) -> Game:
    """Two players, the dealer drawn by high card, both stay: hand 1 ends in a showdown, hand 2 starts."""
    game = game_create(creator=staff[0], kind="palace-poker", seats=2)
    players = [make_player(name)[0] for name in ("ann", "bob")]
    for player in players:
        seat_take(game_id=game.pk, player=player)
    for _ in range(2):
        seat = Seat.objects.get(game=game, to_act=True)
        action_submit(user=seat.player, game_id=game.pk, type="stay")
    return Game.objects.get(pk=game.pk)


def test_stays_end_in_a_showdown_with_both_hands(showdown_game):
    """palace-poker.txt, "Stay": a full run of stays ends the hand; everyone left shows his palace."""
    first, second = hand_histories(showdown_game)
    assert first.finished and not second.finished and second.number == 2
    assert [step.type for step in first.dealer_draw][-1] == "dealer_chosen"
    assert first.shuffles[0].purpose == "first_dealer"
    assert {shown.seat.name for shown in first.showdown} == {"ann", "bob"}
    for shown in first.showdown:
        row = next(row for row in first.seats if row.seat == shown.seat)
        assert shown.palace == row.palace and shown.hand and len(shown.cards) <= 5
    assert first.pot == 4 and first.award_reason == "showdown"
    assert first.result.endswith("with the best hand at the showdown"), first.result
    assert second.pot is None and second.shuffles[0].purpose == "banner_deal"


def test_a_bet_without_money_evaluates_both_hands(staff, make_player, auth_client):
    """palace-poker.txt, "Palace Poker without money": a bet is decided at once, with no call; the
    history still names both hands, the unshown loser's evaluated from his dealt cards."""
    clients = [auth_client(make_player(name)[1]) for name in ("ann", "bob")]
    shuffles = [deck_starting_with("2c 2d"), deck_starting_with("Ah 3h As 4s 7h 8s", without="2c 2d")]
    options = {"points": True, "first_dealer": 1, "max_hands": 1}
    table = create_table(auth_client(staff[1]), clients, options=options, prearranged_shuffles=shuffles)
    table.act(0, "bet", target=1)
    (battle,) = hand_history(Game.objects.get(pk=table.game_id), 1).battles
    assert (battle.outcome, battle.winner.number) == ("showdown", 0)
    assert battle.attacker.hand == "pair of aces" and battle.attacker.shown
    assert battle.defender.hand == "high card, eight" and not battle.defender.shown


# --- the admin pages ---


def test_staff_sees_the_hand_page_with_every_card(example_game, staff_client):
    response = staff_client.get(f"/admin/games/game/{example_game.pk}/hands/1/")
    assert response.status_code == 200
    html = response.content.decode()
    battle_hands = ("Qc Qd Qs 8s", "Ad Ah 9c 3h")
    for text in (
        "Qd Qc 8s",
        "Ah Ad 9c",
        "three queens",
        "pair of aces",
        "four jacks",
        "142",
        "<details>",
        *battle_hands,
    ):
        assert text in html, text
    assert "2c 5h Tc Ks" in html, "Dave's rejected banner cards"
    assert "8c Jc 3h Ts 2c" in html, "the banner deal's shuffle order"
    assert "dave (seat 3)" in html


def test_staff_sees_the_hand_list_game_and_log_pages(example_game, staff_client):
    pk = example_game.pk
    hands = staff_client.get(f"/admin/games/game/{pk}/hands/")
    assert hands.status_code == 200
    assert f"/admin/games/game/{pk}/hands/1/" in hands.content.decode()
    change = staff_client.get(f"/admin/games/game/{pk}/change/")
    assert change.status_code == 200
    assert f"/admin/games/game/{pk}/hands/1/" in change.content.decode()
    assert f'href="/api/v1/games/{pk}/export/phh/"' in change.content.decode(), "the PHH text (README, exports)"
    assert "aaron" in change.content.decode(), "the seat inline"
    dave = Seat.objects.get(game=example_game, number=DAVE).player
    for query in ("", f"?player={dave.pk}", "?q=dave", f"?q={pk}", "?kind=palace-poker&status=finished"):
        listing = staff_client.get(f"/admin/games/game/{query}")
        assert listing.status_code == 200, query
        assert f"/admin/games/game/{pk}/change/" in listing.content.decode(), query
    assert f"/admin/games/game/{pk}/change/" not in staff_client.get("/admin/games/game/?q=nobody").content.decode()
    log = staff_client.get(f"/admin/games/event/?game__id__exact={pk}&kind=call")
    assert log.status_code == 200 and "palace_shown" in log.content.decode()
    event = Event.objects.filter(game=example_game, kind="call").first()
    detail = staff_client.get(f"/admin/games/event/{event.pk}/change/")
    assert detail.status_code == 200 and "three queens" in detail.content.decode()


def test_missing_game_or_hand_is_404(example_game, staff_client):
    assert staff_client.get(f"/admin/games/game/{example_game.pk}/hands/2/").status_code == 404
    assert staff_client.get(f"/admin/games/game/{example_game.pk + 1000}/hands/").status_code == 404


@pytest.mark.parametrize("path", ["hands/", "hands/1/", "change/"])
def test_players_and_anonymous_are_sent_to_the_admin_login(example_game, make_player, path):
    url = f"/admin/games/game/{example_game.pk}/{path}"
    player = Client()
    player.force_login(make_player("watcher")[0])
    for client in (player, Client()):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize("model", [Game, Event, Seat])
def test_the_admin_never_adds_changes_or_deletes(model, staff, rf, django_user_model):
    superuser = django_user_model.objects.create_superuser("root", password="root-password")  # noqa: S106
    model_admin = admin.site._registry.get(model) or admin.site._registry[Game].inlines[0](Game, admin.site)
    for user in (staff[0], superuser):
        request = rf.get("/admin/")
        request.user = user
        assert model_admin.has_view_permission(request)
        assert not model_admin.has_add_permission(request, None)
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)


def test_posts_to_the_admin_alter_nothing(example_game, staff_client, django_user_model):
    event = Event.objects.get(game=example_game, seq=example_game.version)
    before = (event.kind, event.payload, Event.objects.count(), example_game.version)
    root = Client()
    root.force_login(django_user_model.objects.create_superuser("root", password="root-password"))  # noqa: S106
    for client in (staff_client, root):
        posts = [
            (f"/admin/games/event/{event.pk}/change/", {"kind": "bet", "payload": "{}", "seq": 1}),
            (f"/admin/games/event/{event.pk}/delete/", {"post": "yes"}),
            ("/admin/games/event/add/", {"kind": "bet", "payload": "{}", "seq": 999, "game": example_game.pk}),
            ("/admin/games/event/", {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"}),
            (f"/admin/games/game/{example_game.pk}/change/", {"status": "waiting", "version": 0}),
            (f"/admin/games/game/{example_game.pk}/delete/", {"post": "yes"}),
        ]
        for url, data in posts:
            # 403 for the views; the changelist offers no delete action and shows itself again (200).
            assert client.post(url, data).status_code == (200 if url.endswith("/event/") else 403), url
    event.refresh_from_db()
    example_game.refresh_from_db()
    assert (event.kind, event.payload, Event.objects.count(), example_game.version) == before


def test_hand_pages_link_the_next_hand_only_when_there_is_one(example_game, showdown_game, staff_client):
    last = staff_client.get(f"/admin/games/game/{example_game.pk}/hands/1/").content.decode()
    assert f"/admin/games/game/{example_game.pk}/hands/2/" not in last, "the match ended with hand 1"
    first = staff_client.get(f"/admin/games/game/{showdown_game.pk}/hands/1/").content.decode()
    assert f"/admin/games/game/{showdown_game.pk}/hands/2/" in first
    assert "Showdown" in first and "Draw for the first deal" in first
    current = staff_client.get(f"/admin/games/game/{showdown_game.pk}/hands/2/")
    assert current.status_code == 200 and "still being played" in current.content.decode()
