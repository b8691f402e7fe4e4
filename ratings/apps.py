from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # games never imports ratings: it calls the hooks registered with it in the transaction that finishes a
        # game (games.services.finish_hooks), and this is ours.
        from games.services.finish_hooks import finish_hook_register
        from ratings.services.rate import rating_game_finished

        finish_hook_register(rating_game_finished)
