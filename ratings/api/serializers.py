"""Output and query shapes of the ratings API."""

from __future__ import annotations

from rest_framework import serializers

from games.engine.registry import LADDERS
from palace_api.serializers import StrictSerializer

LADDER_HELP = (
    "The ladder: a game kind, Palace Poker by points apart (" + ", ".join(f"`{name}`" for name in LADDERS) + ")."
)


class PageQuery(StrictSerializer):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=200, help_text="Default 50.")
    offset = serializers.IntegerField(required=False, min_value=0, max_value=2**31, help_text="Default 0.")


class HistoryQuery(PageQuery):
    ladder = serializers.ChoiceField(choices=sorted(LADDERS), required=False, help_text=LADDER_HELP)


class RatedPlayer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SkillOutput(serializers.Serializer):
    rating = serializers.IntegerField(help_text="The number shown: 1000 + 40 (mu - 3 sigma), rounded.")
    mu = serializers.FloatField(help_text="The skill estimate (openskill's Weng-Lin, Plackett-Luce; 25 to start).")
    sigma = serializers.FloatField(help_text="Its uncertainty (25/3 to start).")
    provisional = serializers.BooleanField(help_text="`sigma` not yet below 6.5: left out of leaderboards.")


class RatingOutput(SkillOutput):
    ladder = serializers.ChoiceField(choices=sorted(LADDERS), help_text=LADDER_HELP)
    title = serializers.CharField(help_text="The ladder's name for people.")
    games = serializers.IntegerField(help_text="Rated games played on the ladder.")
    last_rated = serializers.DateTimeField(allow_null=True)


class PlayerRatingsOutput(serializers.Serializer):
    player = RatedPlayer()
    ratings = RatingOutput(many=True, help_text="One per ladder played on.")


class ChangeOutput(serializers.Serializer):
    game = serializers.IntegerField()
    ladder = serializers.ChoiceField(choices=sorted(LADDERS))
    finished = serializers.DateTimeField(help_text="When the game's end was rated.")
    seat = serializers.IntegerField()
    place = serializers.IntegerField(help_text="Finishing place as rated, 1 first (leaving counts last).")
    before = SkillOutput()
    after = SkillOutput()
    delta = serializers.IntegerField(help_text="`after.rating - before.rating`.")


class HistoryPageOutput(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ChangeOutput(many=True)


class BoardRowOutput(RatingOutput):
    rank = serializers.IntegerField(help_text="1 first.")
    player = RatedPlayer(allow_null=True)
    bot = serializers.CharField(allow_null=True, help_text="A bot level's rating: its level.")


class BoardPageOutput(serializers.Serializer):
    count = serializers.IntegerField(help_text="Ratings on the board (not provisional).")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = BoardRowOutput(many=True)


class GameSeatRatingOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    player = RatedPlayer(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    place = serializers.IntegerField(allow_null=True, help_text="Once rated.")
    before = SkillOutput(help_text="The rating the game was rated from; before its end, the rating now.")
    after = SkillOutput(allow_null=True, help_text="Once rated.")
    delta = serializers.IntegerField(allow_null=True, help_text="Once rated.")


class GameRatingsOutput(serializers.Serializer):
    game = serializers.IntegerField()
    rated = serializers.BooleanField()
    ladder = serializers.ChoiceField(choices=sorted(LADDERS), allow_null=True, help_text="Null for a casual game.")
    applied = serializers.BooleanField(help_text="Its end has been rated.")
    seats = GameSeatRatingOutput(many=True)
