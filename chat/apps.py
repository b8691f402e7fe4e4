from django.apps import AppConfig


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = "Table chat"

    def ready(self) -> None:
        # The game's stream sends what chat registers beside the log, without games knowing chat.
        from chat.api.stream import register

        register()
