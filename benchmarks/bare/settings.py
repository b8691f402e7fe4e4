"""The product's settings plus the ceiling app and its URL: ``DJANGO_SETTINGS_MODULE=benchmarks.bare.settings``."""

from palace_api.settings import *  # noqa: F403
from palace_api.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks.bare"]
ROOT_URLCONF = "benchmarks.bare.urls"
