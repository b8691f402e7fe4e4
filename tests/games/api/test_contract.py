"""The v1 contract as a client author meets it: a Python client generated from the live /api/schema/ with
openapi-python-client plays whole matches of both games, two clients against each other and one against a bot,
with nothing but the generated client's typed models. A parsed value that is not the documented model (the
generator falls back to the raw dict when an answer does not fit its schema) fails the test, as does any
documented field the answer lacks (the model's ``from_dict`` raises) or any undocumented one in the state."""

from __future__ import annotations

import importlib
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.live import LiveApp, live_app

PACKAGE = "palace_contract_client"
MAX_DECISIONS = 400

# One live server for the module: its tests run on one xdist worker (palace.py test: --dist loadgroup).
pytestmark = pytest.mark.xdist_group("contract")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Any:
    with live_app(tmp_path_factory.mktemp("contract")) as app:
        yield app


@pytest.fixture(scope="module")
def generated(served: LiveApp, tmp_path_factory) -> ModuleType:
    """The client package generated from the served schema, imported."""
    directory = tmp_path_factory.mktemp("client")
    schema = directory / "schema.json"
    schema.write_bytes(httpx.get(f"{served.url}/api/schema/?format=json", timeout=30).content)
    config = directory / "config.yaml"
    # No formatter: the code is imported, not read. NDJSON (me/games/export/) is read as bytes, a line a game.
    config.write_text("post_hooks: []\ncontent_type_overrides:\n  application/x-ndjson: application/octet-stream\n")
    command = [
        str(Path(sys.executable).with_name("openapi-python-client")),
        *("generate", "--path", str(schema), "--meta", "none", "--config", str(config)),
        *("--output-path", str(directory / PACKAGE), "--fail-on-warning"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)  # noqa: S603
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(directory))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(directory))


class Player:
    """One client of the generated package, with its own token (sent as ``Authorization: Bearer``)."""

    def __init__(self, client_module: ModuleType, app: LiveApp, name: str) -> None:
        self.m = client_module
        self.models = importlib.import_module(f"{PACKAGE}.models")
        registered = self.api("players.players_register").sync(
            client=self.m.Client(base_url=app.url), body=self.models.PlayerRegisterInput(name=name)
        )
        assert isinstance(registered, self.models.PlayerRegisterOutput), registered
        self.client = self.m.AuthenticatedClient(base_url=app.url, token=registered.token, timeout=httpx.Timeout(30))
        self.seat: int | None = None
        # The engine events' models: a class per event type (PokerBetEvent, ShedPlayEvent, ShuffleEvent...).
        self.event_models = tuple(
            model for name, model in vars(self.models).items() if name.endswith("Event") and name != "GameEvent"
        )

    def api(self, name: str) -> Any:
        return importlib.import_module(f"{PACKAGE}.api.{name}")

    def view(self, game_id: int) -> Any:
        detail = self.api("games.games_retrieve").sync(game_id, client=self.client)
        assert isinstance(detail, self.models.GameDetailOutput), detail
        if detail.state is not None:
            assert isinstance(detail.state, (self.models.PokerState, self.models.ShedState)), detail.state
            # The schema closes the state (tests/games/api/test_state_schema.py checks the engine sends nothing
            # more), so the model keeps no unknown fields.
            assert not hasattr(detail.state, "additional_properties"), "the state's model is open"
        for legal in detail.legal_actions:
            assert isinstance(legal, (self.models.PokerLegalAction, self.models.ShedLegalAction)), legal
        return detail

    def act(self, game_id: int, body: Any) -> None:
        answer = self.api("games.games_actions_create").sync_detailed(game_id, client=self.client, body=body)
        # A version conflict is an honest answer when another seat (or a bot) acted first.
        assert answer.status_code in (201, 409), answer.content
        if answer.status_code == 201:
            result = answer.parsed
            assert isinstance(result, self.models.ActionResultOutput), answer.content
            for entry in result.events:
                self.check_entry(entry)
        else:
            assert isinstance(answer.parsed, self.models.Error409), answer.content

    def check_entry(self, entry: Any) -> None:
        """A log entry parsed into ``EventOutput`` with each event into its type's model, nothing left over."""
        assert isinstance(entry, self.models.EventOutput), entry
        assert not entry.additional_properties, "the entry has fields the schema does not name"
        for event in entry.events or []:
            assert isinstance(event, self.event_models), event
            assert not event.additional_properties, f"{type(event).__name__} has fields the schema does not name"


def poker_decision(player: Player, detail: Any) -> Any:
    """Stay when it may, keep the fewest soldiers it must, call a bet; read from the typed state."""
    models = player.models
    state = detail.state
    assert isinstance(state, models.PokerState)
    mine = state.seats[player.seat]
    assert all(isinstance(card, str) for card in mine.palace), "a player knows his own palace cards"
    assert isinstance(state.pot, int) and isinstance(mine.soldiers, list)
    legal = {action.type_.value: action for action in detail.legal_actions}
    version = detail.version
    kind = models.PokerActionInputType
    for wanted in ("stay", "call"):
        if wanted in legal:
            return models.PokerActionInput(type_=kind(wanted), expected_version=version)
    if "discard" in legal:
        discard = legal["discard"]
        return models.PokerActionInput(
            type_=kind.DISCARD, cards=discard.cards[: discard.min_cards], expected_version=version
        )
    first = detail.legal_actions[0]
    return models.PokerActionInput(type_=kind(first.type_.value), expected_version=version)


def shed_decision(player: Player, detail: Any) -> Any:
    """Choose the first three offered, play the first play offered, else pick up or turn a face-down card."""
    models = player.models
    state = detail.state
    assert isinstance(state, models.ShedState)
    mine = state.seats[player.seat]
    assert isinstance(state.pile, list) and isinstance(mine.hand, list)
    version = detail.version
    kind = models.ShedActionInputType
    by_type = {action.type_.value: action for action in detail.legal_actions}
    if "choose_face_up" in by_type:
        offered = by_type["choose_face_up"]
        return models.ShedActionInput(type_=kind.CHOOSE_FACE_UP, cards=offered.cards[:3], expected_version=version)
    if "play" in by_type:
        play = by_type["play"]
        return models.ShedActionInput(
            type_=kind.PLAY, cards=play.cards[: max(1, play.min_cards)], expected_version=version
        )
    first = detail.legal_actions[0]
    return models.ShedActionInput(type_=kind(first.type_.value), expected_version=version)


def create(player: Player, kind: str, seats: int) -> int:
    models = player.models
    if kind == "palace-poker":
        options = models.PokerOptionsInput(max_hands=1, first_dealer=0, starting_stack=40, small_bet=2)
        body = models.PokerGameCreate(kind=models.PokerGameCreateKind.PALACE_POKER, seats=seats, options=options)
    else:
        options = models.ShedOptionsInput(max_turns=150, first_dealer=0)
        body = models.ShedGameCreate(kind=models.ShedGameCreateKind.PALACE, seats=seats, options=options)
    game = player.api("games.games_create").sync(client=player.client, body=body)
    assert isinstance(game, models.GameDetailOutput), game
    assert isinstance(game.options, (models.PokerOptions, models.ShedOptions))
    return game.id


def play_match(players: list[Player], game_id: int, kind: str) -> Any:
    decide = poker_decision if kind == "palace-poker" else shed_decision
    started = time.monotonic()
    for _ in range(MAX_DECISIONS * 4):
        assert time.monotonic() - started < 240, "the match did not end in time"
        views = [(player, player.view(game_id)) for player in players]
        if views[0][1].status.value == "finished":
            return views[0][1]
        due = [(player, detail) for player, detail in views if player.seat in detail.to_act and detail.legal_actions]
        if not due:
            time.sleep(0.05)  # a bot's turn
            continue
        for player, detail in due:
            player.act(game_id, decide(player, detail))
    raise AssertionError("the match did not end within the decisions allowed")


def read_typed_events(player: Player, events: list[Any], kind: str) -> None:
    """Read a finished match's typed events as a client would: the pots awarded (chips by seat) of Palace Poker,
    the cards played and where from in the shedding game; every shuffle's size, whose order stays unseen."""
    models = player.models
    shuffles = [event for event in events if isinstance(event, models.ShuffleEvent)]
    assert shuffles and all(event.seat is None and event.unseen.order == event.size for event in shuffles)
    if kind == "palace-poker":
        pots = [event for event in events if isinstance(event, models.PokerPotAwardedEvent)]
        assert pots, "a hand was played to its end"
        for pot in pots:
            assert sum(pot.amounts.additional_properties.values()) == pot.pot
            assert pot.reason in set(models.PokerPotAwardedEventReason)
        ended = [event for event in events if isinstance(event, models.PokerMatchEndedEvent)]
        assert len(ended) == 1 and all(isinstance(chips, int) for chips in ended[0].stacks)
    else:
        plays = [event for event in events if isinstance(event, models.ShedPlayEvent)]
        assert plays and all(isinstance(event.seat, int) for event in plays)
        assert all(event.cards.cards and all(isinstance(card, str) for card in event.cards.cards) for event in plays)
        assert {event.source for event in plays} <= set(models.ShedPlayEventSource)
        (ended,) = [event for event in events if isinstance(event, models.ShedMatchEndedEvent)]
        assert sorted(ended.order) == [0, 1] and ended.reason in set(models.ShedMatchEndedEventReason)


@pytest.mark.parametrize("kind", ["palace-poker", "palace"])
def test_two_generated_clients_play_a_whole_match(served, generated, kind: str) -> None:
    alice, bob = (Player(generated, served, f"{name}-{kind}") for name in ("alice", "bob"))
    game_id = create(alice, kind, 2)
    for seat, player in enumerate((alice, bob)):
        body = player.models.SeatInput(seat=seat, seed="c0ffee" if seat == 0 else None)
        taken = player.api("games.games_seats_create").sync(game_id, client=player.client, body=body)
        assert isinstance(taken, player.models.SeatOutput), taken
        player.seat = seat
    final = play_match([alice, bob], game_id, kind)
    assert final.status.value == "finished"
    log = alice.api("games.games_events_list").sync(game_id, client=alice.client, limit=500)
    assert isinstance(log, alice.models.EventPageOutput)
    for entry in log.results:
        alice.check_entry(entry)
    shuffles = [entry for entry in log.results if entry.kind == "shuffle"]
    assert shuffles and all(isinstance(entry.action.size, int) for entry in shuffles), "a shuffle shows its size"
    assert [entry.player.name for entry in log.results[:2]] == [f"alice-{kind}", f"bob-{kind}"]
    read_typed_events(alice, [event for entry in log.results for event in entry.events or []], kind)
    games = alice.api("games.games_list").sync(client=alice.client, mine=True)
    assert isinstance(games, alice.models.GamePageOutput) and game_id in [game.id for game in games.results]
    read_typed_export(alice, game_id)


def read_typed_export(player: Player, game_id: int) -> None:
    """The finished game's export parsed into ``GameExportOutput``: every deal's seeds revealed, the whole log."""
    export = player.api("games.games_export").sync(game_id, client=player.client)
    assert isinstance(export, player.models.GameExportOutput), export
    assert export.format_.value == "palace-export/1" and export.complete and export.id == game_id
    assert export.deals and all(isinstance(deal, player.models.DealOutput) for deal in export.deals)
    assert all(isinstance(deal.server_seed, str) and deal.revealed_at for deal in export.deals)
    assert export.deals[0].players[0] == "c0ffee"
    for entry in export.log:
        player.check_entry(entry)
    assert isinstance(export.result, player.event_models)


@pytest.mark.parametrize("kind", ["palace-poker", "palace"])
def test_a_generated_client_plays_a_whole_match_against_a_bot(served, generated, kind: str) -> None:
    carol = Player(generated, served, f"carol-{kind}")
    game_id = create(carol, kind, 2)
    api = carol.api("games.games_seats_create")
    assert isinstance(
        api.sync(game_id, client=carol.client, body=carol.models.SeatInput(seat=0)), carol.models.SeatOutput
    )
    assert isinstance(
        api.sync(game_id, client=carol.client, body=carol.models.SeatInput(bot="basic")), carol.models.SeatOutput
    )
    carol.seat = 0
    final = play_match([carol], game_id, kind)
    assert final.status.value == "finished"
    turns = carol.api("me.me_turns_list").sync(client=carol.client)
    assert isinstance(turns, list) and game_id not in [turn.game for turn in turns]
