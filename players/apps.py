from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        from players.token_cache import connect_signals

        connect_signals()
