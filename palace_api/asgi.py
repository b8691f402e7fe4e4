"""ASGI entry point: Django, behind the body limit (palace_api/middleware.py BodyLimitMiddleware), which refuses
an oversized body before Django's ASGI handler would read all of it."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "palace_api.settings")
django.setup(set_prefix=False)

from palace_api.threaded_views import ThreadedViewsASGIHandler  # noqa: E402  (after Django is set up)

# Django's handler, the synchronous views run in a pool of threads (palace_api/threaded_views.py).
django_application = ThreadedViewsASGIHandler()

from palace_api.middleware import BodyLimitMiddleware  # noqa: E402  (after Django is set up)

application = BodyLimitMiddleware(django_application)
