"""ASGI entry point: Django, behind the body limit (palace_api/middleware.py BodyLimitMiddleware), which refuses
an oversized body before Django's ASGI handler would read all of it."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "palace_api.settings")

django_application = get_asgi_application()

from palace_api.middleware import BodyLimitMiddleware  # noqa: E402  (after Django is set up)

application = BodyLimitMiddleware(django_application)
