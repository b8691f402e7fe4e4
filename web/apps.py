"""The web app's configuration."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    """The browser pages (``web/``)."""

    name = "web"
