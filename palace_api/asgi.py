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

import gc  # noqa: E402

# The cyclic garbage collector's full passes stop the event loop while they walk every object the process holds:
# with thousands of open streams that was 0.2 to 1.8 s a pass, ten passes a minute while streams opened, each a
# pause of every stream and request of the process (benchmarks/README.md, bench_streams). What was made while
# starting (Django, the apps, the URL patterns) lives as long as the process: moved out of the collector's reach.
# And a full pass is considered after about 20 million new objects (2,000 young passes of 10,000) instead of
# Python's 70,000 (its (700, 10, 10)): garbage that is not a cycle is freed at once whatever these say, and
# cycles mostly die young, in the cheap passes.
gc.freeze()
gc.set_threshold(10_000, 20, 100)
