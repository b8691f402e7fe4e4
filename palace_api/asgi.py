"""ASGI entry point: Django, behind the body limit (palace_api/middleware.py BodyLimitMiddleware), which refuses
an oversized body before Django's ASGI handler would read all of it, the poll gate (games/api/polls.py) and the
admission bound (palace_api/admission.py)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "palace_api.settings")
django.setup(set_prefix=False)

from palace_api.threaded_views import ThreadedViewsASGIHandler  # noqa: E402  (after Django is set up)

# Django's handler, the synchronous views run in a pool of threads (palace_api/threaded_views.py).
django_application = ThreadedViewsASGIHandler()

from django.conf import settings  # noqa: E402  (after Django is set up)

from games.api.polls import PollGate  # noqa: E402
from palace_api.admission import Admission  # noqa: E402
from palace_api.middleware import BodyLimitMiddleware  # noqa: E402

# The poll gate answers a current If-None-Match of me/turns/ and the game view before Django (games/api/polls.py);
# past it, at most WEB_REQUESTS_IN_FLIGHT requests are inside Django at once (palace_api/admission.py).
application = BodyLimitMiddleware(PollGate(Admission(django_application, limit=settings.WEB_REQUESTS_IN_FLIGHT)))
