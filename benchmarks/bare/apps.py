from django.apps import AppConfig


class BareConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "benchmarks.bare"
    label = "bare"
    verbose_name = "Benchmark ceiling"
