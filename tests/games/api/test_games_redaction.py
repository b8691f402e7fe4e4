"""Redaction over the API: in Hypothesis-generated games played through HTTP, no response body for a
viewer (game view, log, action answers, errors) holds a card code that viewer may not know.

What a viewer may know is derived here independently of the engine's visibility fields, from what
the rules show (palace-poker.txt, "Banner Cards", "Palace Cards", "Buy", "Call", "Stay"): face-up
cards (dealer draw, banners, rejected banner cards, soldiers, discarded and captured soldiers) to
everyone; palace cards to their owner, to the caller who was shown them and, at a showdown, to all.
"""

from __future__ import annotations

import json
import random
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games.engine.cards import FULL_DECK
from players.services import player_register

CODES = {card.code for card in FULL_DECK}
PUBLIC_EVENTS = {"dealer_card", "banner_dealt", "banner_rejected", "soldier_drawn", "discard", "captured"}


def codes_in(body: bytes) -> set[str]:
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key != "options":
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value in CODES:
            found.add(value)

    walk(json.loads(body) if body else None)
    return found


def learn(known: dict, staff_entry: dict) -> None:
    """Add what one staff-view log entry shows to whom, by the rules, not by its visibility fields."""
    for event in staff_entry.get("events", []):
        if event["type"] == "shuffle":
            continue  # a shuffle's order is staff's alone
        for codes in event.get("cards", {}).values():
            cards = set(codes)
            if event["type"] in PUBLIC_EVENTS or (event["type"] == "palace_shown" and "to" not in event):
                for viewer in known:
                    known[viewer] |= cards
            elif event["type"] == "palace_dealt":
                known[event["seat"]] |= cards
            elif event["type"] == "palace_shown":
                known[event["seat"]] |= cards
                known[event["to"]] |= cards
            else:
                raise AssertionError(f"a card group in an event the oracle does not know: {event['type']}")


class RedactionOverHttp(TestCase):
    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seats=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=2**32))
    def test_no_response_holds_a_card_its_viewer_may_not_know(self, seats: int, seed: int) -> None:
        rng = random.Random(seed)
        with mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", {"user": None, "anon": None}):
            self.play(seats, rng)

    def play(self, seats: int, rng: random.Random) -> None:
        clients = []
        for index in range(seats + 1):
            _, token = player_register(name=f"p{index}-{rng.randrange(10**9)}")
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            clients.append(client)
        staff_user = player_register(name=f"staff-{rng.randrange(10**9)}")[0]
        staff_user.is_staff = True
        staff_user.save()
        staff = APIClient()
        staff.force_authenticate(staff_user)
        spectator = clients[seats]
        options = {"starting_stack": 40, "max_hands": 2, "betting": rng.choice(["limit", "no_limit"])}
        game = clients[0].post("/api/v1/games/", {"kind": "palace-poker", "seats": seats, "options": options}).json()
        url = f"/api/v1/games/{game['id']}/"
        for client in clients[:seats]:
            assert client.post(url + "seats/", {}).status_code == 201
        viewers = {**{seat: clients[seat] for seat in range(seats)}, "spectator": spectator}
        known: dict = {viewer: set() for viewer in viewers}
        log = staff.get(url + "events/?limit=500").json()["results"]
        for entry in log:
            learn(known, entry)
        seen = len(log)
        for _ in range(400):
            for viewer, client in viewers.items():
                self.check(known, viewer, client.get(url).content)
                self.check(known, viewer, client.get(url + f"events/?after={max(0, seen - 20)}").content)
            view = viewers[0].get(url).json()
            if view["status"] != "active":
                break
            (seat,) = view["to_act"]
            choice = rng.choice(viewers[seat].get(url).json()["legal_actions"])
            body: dict = {"type": choice["type"], "expected_version": view["version"]}
            if "cards" in choice:
                body["cards"] = rng.sample(choice["cards"], rng.randint(choice["min_cards"], choice["max_cards"]))
            if "targets" in choice:
                body["target"] = rng.choice(choice["targets"])["seat"]
            if rng.random() < 0.1:
                body["cards"] = [rng.choice(sorted(CODES))]  # often illegal: its error must not leak either
            answer = clients[seat].post(url + "actions/", body, format="json")
            assert answer.status_code in (201, 400), answer.content
            log = staff.get(url + f"events/?after={seen}&limit=500").json()["results"]
            for entry in log:
                learn(known, entry)
            seen += len(log)
            self.check(known, seat, answer.content)
        else:
            raise AssertionError("the match did not end")

    def check(self, known: dict, viewer: object, body: bytes) -> None:
        leaked = codes_in(body) - known[viewer]
        assert not leaked, f"{viewer!r} was sent {sorted(leaked)}"
