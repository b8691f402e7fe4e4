"""Django settings for Palace API, all read from the environment (see README, "Configuration")."""

import warnings
from datetime import timedelta
from pathlib import Path

from csp.constants import NONCE, NONE, SELF

from palace_api.env import (
    broker_transport_options,
    make_env,
    read_allowed_hosts,
    read_cache,
    read_celery_broker_url,
    read_celery_result_backend,
    read_database,
    read_debug,
    read_email,
    read_networks,
    read_num_proxies,
    read_retry_delays,
    read_secret_key,
    read_streams_redis_url,
    read_throttle_rates,
    read_view_versions_cache,
)

BASE_DIR = Path(__file__).resolve().parent.parent

env = make_env()

DEBUG = read_debug(env)
SECRET_KEY = read_secret_key(env, debug=DEBUG)
ALLOWED_HOSTS = read_allowed_hosts(env)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    # Swagger UI's and Redoc's files, served by the project: the docs pages load nothing from elsewhere.
    "drf_spectacular_sidecar",
    "games",
    "players",
    "webhooks",
    "django_htmx",
    "web",
    "notifications",
    "ratings",
    "chat",
]

MIDDLEWARE = [
    # Outermost: it times the whole request and sees the final status.
    "palace_api.middleware.RequestLogMiddleware",
    # Before anything reads a body or renders an error page (palace_api/middleware.py).
    "palace_api.middleware.ApiErrorMiddleware",
    "palace_api.middleware.NulQueryMiddleware",
    "palace_api.both_modes.SecurityMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below), error pages included.
    "palace_api.middleware.ContentSecurityPolicyMiddleware",
    # Static files (htmx, the pages' CSS, the admin's) from the app itself, before anything else reads the request:
    # WhiteNoise's middleware in either mode (palace_api/both_modes.py: under ASGI the chain stays on the event loop).
    "palace_api.both_modes.StaticFilesMiddleware",
    # Django's own middlewares, their hooks on the event loop where they cannot block (palace_api/both_modes.py).
    "palace_api.both_modes.SessionMiddleware",
    "palace_api.both_modes.CommonMiddleware",
    "palace_api.both_modes.CsrfViewMiddleware",
    "palace_api.both_modes.AuthenticationMiddleware",
    "palace_api.both_modes.MessageMiddleware",
    "palace_api.both_modes.XFrameOptionsMiddleware",
    # request.htmx: the pages answer an htmx request with a fragment.
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "palace_api.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The project's own overrides of apps' templates (drf_spectacular/redoc.html).
        "DIRS": [BASE_DIR / "palace_api" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "palace_api.wsgi.application"
ASGI_APPLICATION = "palace_api.asgi.application"

DATABASES = {"default": read_database(env, base_dir=BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
# WhiteNoise serves static files under gunicorn and runserver alike.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Found in the apps as well as in STATIC_ROOT: the site works with or without collectstatic (tests, a local run).
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=True)

# The browser pages (web/): sessions log people in; the table polls for changes every WEB_POLL_SECONDS.
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:lobby"
LOGOUT_REDIRECT_URL = "web:lobby"
WEB_POLL_SECONDS = env.float("WEB_POLL_SECONDS", default=2.0)
# The table pages follow the game's event stream (SSE) and poll only while it cannot be had; false: poll only
# (a WSGI server, which cannot hold a stream open: the browser tests' live server).
WEB_LIVE_STREAM = env.bool("WEB_LIVE_STREAM", default=True)
if DEBUG:
    # WhiteNoise serves from the apps' folders with DEBUG on (no collectstatic): a missing STATIC_ROOT is expected.
    warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

# Content-Security-Policy (django-csp): the pages load nothing from elsewhere and run no inline script (Swagger
# UI's comes from its page's own URL, palace_api/urls.py). htmx's indicator <style> is turned off
# (web/templates/web/base.html, meta htmx-config); the few inline <style> blocks (Swagger UI's page, the admin's
# hand review, the mail links' pages) carry the request's nonce, which the header names only on a page that used
# it; DRF's browsable API and Redoc may use inline styles (palace_api/middleware.py LIBRARY_STYLES). Images may be
# data: URIs (Swagger UI's icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Throttle counters live here (README, "Throttling"): per process unless CACHE_URL names a shared cache.
CACHES = {"default": read_cache(env)}
# The versions behind the database-free 304s of me/turns/ and the game view (games/selectors/versions.py): only in
# a cache every process shares; None (a per-process cache) and those views read the database for their tags.
VIEW_VERSIONS_CACHE = read_view_versions_cache(CACHES)

REST_FRAMEWORK = {
    # drf-spectacular's, adding to each operation's documented errors those DRF answers around it (406, 503, the
    # session's CSRF 403): palace_api/errors/schema.py.
    "DEFAULT_SCHEMA_CLASS": "palace_api.errors.schema.AutoSchema",
    # Closed by default: each view that is open says so.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # "Authorization: Token <token>" (knox keeps only a digest) first, so a 401 names the Token scheme in
    # WWW-Authenticate; sessions serve the admin and the browsable API.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "players.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # The API speaks JSON only: any other request body is a 415; nesting deeper than MAX_JSON_DEPTH is a 400.
    "DEFAULT_PARSER_CLASSES": ["palace_api.parsers.JSONParser"],
    # One error body for every error: {"code", "detail", ...} (README, "Errors").
    "EXCEPTION_HANDLER": "palace_api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    # anon, user, register, login; THROTTLE_<SCOPE> in the environment (palace_api/env.py).
    "DEFAULT_THROTTLE_RATES": read_throttle_rates(env),
    "NUM_PROXIES": read_num_proxies(env),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# Seconds each web process trusts a token it checked, before querying it again (players/token_cache.py): the
# bound within which a token revoked (or a user deactivated) through another process is refused; 0: no memory.
AUTH_TOKEN_CACHE_SECONDS = env.float("AUTH_TOKEN_CACHE_SECONDS", default=5.0)

# Player tokens never expire (players/services.py creates them with no expiry); staff tokens from
# /api/v1/auth/token/ live TOKEN_TTL.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=10),
    "AUTH_HEADER_PREFIX": "Token",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Palace API",
    "DESCRIPTION": (
        "Game server for the two card games called Palace: Palace Poker (`palace-poker`) and the shedding game "
        "Palace (`palace`). Every error has the body `{code, detail, ...}`; clients match on `code`. Send "
        "`Authorization: Bearer <token>` (or `Token <token>`)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Operation ids and tags come from the path after /api/v1: `me_webhooks_create`, tag `me`.
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    "TAGS": [
        {"name": "players", "description": "Registration and tokens."},
        {"name": "games", "description": "Creating, joining, watching and playing games."},
        {"name": "me", "description": "The caller's account and turns."},
    ],
    # Enums stay inline: a generated client then names each after its place (PokerStateKind,
    # Error409Code) instead of hashed names. Errors share one component per status (errors_shared).
    # A log event's components come from each game's event catalogue (games/api/event_schema.py).
    "POSTPROCESSING_HOOKS": [
        "palace_api.schema.token_schemes_either",
        "palace_api.schema.request_bodies_closed",
        "palace_api.schema.answers_closed",
        "games.api.event_schema.add_event_components",
        "palace_api.errors.schema.errors_shared",
    ],
    # games/api/urls.py: a game id is 1 to 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"game_id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    "ENUM_ADD_EXPLICIT_BLANK_NULL_CHOICE": False,
    # The docs pages' scripts come from drf-spectacular-sidecar, pinned with it, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Bodies larger than this (bytes) get 413 payload_too_large under /api/ (palace_api/middleware.py): Django's
# default, 2.5 MiB, far above any request the API takes.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# Everything goes to stderr, with DEBUG off too: one line per request (palace.requests), every 500's traceback
# (django.request logs it with the exception), and the Celery worker's task failures (palace.tasks).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stderr"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "palace": {"handlers": ["stderr"], "level": env.str("LOG_LEVEL", default="INFO"), "propagate": False},
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        # runserver's own access line would repeat palace.requests'.
        "django.server": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
    },
}

# Celery: palace_api/celery.py reads every CELERY_* name below.
CELERY_BROKER_URL = read_celery_broker_url(env, base_dir=BASE_DIR)
CELERY_RESULT_BACKEND = read_celery_result_backend(env)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Tasks really go through the broker, in tests too: no eager mode.
CELERY_TASK_ALWAYS_EAGER = False
# A task is acknowledged after it ran, and requeued if its worker dies mid-task: bot turns and timeouts are
# idempotent services, so running one twice is safe and losing one is not.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# On Redis, visibility_timeout (palace_api/env.py: REDIS_VISIBILITY_TIMEOUT, one hour) bounds how long a task may
# run or wait for its countdown before Redis hands it to another worker.
CELERY_BROKER_TRANSPORT_OPTIONS = broker_transport_options(CELERY_BROKER_URL)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_DEFAULT_QUEUE = "palace"
# Webhook deliveries wait on other people's servers: their own queue and worker (palace_api/celery.py route_task).
WEBHOOK_DELIVERY_QUEUE = env.str("WEBHOOK_DELIVERY_QUEUE", default="webhooks")
# The search bot's moves (about 250 ms each) and game reviews (many such searches) take a queue and worker of their
# own, so a basic bot's move or a turn timeout never waits behind a search (README, "Bot levels").
SLOW_TASK_QUEUE = env.str("SLOW_TASK_QUEUE", default="slow")
CELERY_TASK_ROUTES = ("palace_api.celery.route_task",)
# A review of a finished game (games.services.review): the search's seconds per decision, the seconds one task
# runs before it queues the rest (so search moves waiting on the slow queue get their turn), and how long a
# review may show no progress before asking for it again sends its task again (its message was lost).
REVIEW_SECONDS = env.float("REVIEW_SECONDS", default=0.5)
REVIEW_BATCH_SECONDS = env.float("REVIEW_BATCH_SECONDS", default=3.0)
REVIEW_STALL_SECONDS = env.float("REVIEW_STALL_SECONDS", default=60.0)
# Celery's Django fix-up closes the worker's database connections around every task unless this is set; a new
# PostgreSQL connection (with its password exchange) then costs more than the task. Closed every 2 x 500 tasks.
CELERY_DB_REUSE_MAX = 500
# The periodic sweeper applies every expired turn deadline (games.tasks.sweep_timeouts); deadlines are in the
# database, so a lost countdown task or a worker down for a while only delays a timeout by one sweep.
TIMEOUT_SWEEP_SECONDS = env.float("TIMEOUT_SWEEP_SECONDS", default=5.0)
# The webhook sweeper sends the deliveries whose retry is due: retries hours away are not countdown tasks (Redis
# would hand them out again after its visibility timeout), and a worker that died mid-attempt is covered too.
WEBHOOK_SWEEP_SECONDS = env.float("WEBHOOK_SWEEP_SECONDS", default=30.0)
# The notifications sweeper (notifications.tasks.sweep) makes the mails owed: a person's decision is mailed once
# its game has not moved for NOTIFICATION_GRACE_SECONDS (people at the table get no mail), so a sweep every 30 s
# is prompt enough, and it needs no message from games.
NOTIFICATION_SWEEP_SECONDS = env.float("NOTIFICATION_SWEEP_SECONDS", default=30.0)
# A bot decision due this long with no move is made by the sweeper (README, "Failure modes"): its message was lost.
BOT_STALL_SECONDS = env.float("BOT_STALL_SECONDS", default=10.0)
CELERY_BEAT_SCHEDULE = {
    # A sweep not started within two periods is dropped: sweeps queued while every worker was down are stale.
    "sweep-turn-timeouts": {
        "task": "games.tasks.sweep_timeouts",
        "schedule": TIMEOUT_SWEEP_SECONDS,
        "options": {"expires": 2 * TIMEOUT_SWEEP_SECONDS},
    },
    "sweep-stalled-bots": {
        "task": "games.tasks.sweep_stalled_bots",
        "schedule": TIMEOUT_SWEEP_SECONDS,
        "options": {"expires": 2 * TIMEOUT_SWEEP_SECONDS},
    },
    "sweep-webhook-deliveries": {
        "task": "webhooks.tasks.sweep_deliveries",
        "schedule": WEBHOOK_SWEEP_SECONDS,
        "options": {"expires": 2 * WEBHOOK_SWEEP_SECONDS},
    },
    "sweep-notifications": {
        "task": "notifications.tasks.sweep",
        "schedule": NOTIFICATION_SWEEP_SECONDS,
        "options": {"expires": 2 * NOTIFICATION_SWEEP_SECONDS},
    },
}
# Deadlines at most this many seconds away also get a countdown task, for prompt short timeouts; it must stay
# well under the Redis visibility timeout (palace_api/env.py), or Redis would hand the waiting task out again.
TIMEOUT_COUNTDOWN_MAX = 600

# Webhooks (README, "Webhooks"). Each attempt waits at most WEBHOOK_TIMEOUT seconds per connect, write and read;
# redirects are not followed.
WEBHOOK_TIMEOUT = env.float("WEBHOOK_TIMEOUT", default=5.0)
# Seconds before each retry (palace_api/env.py), each stretched or shrunk at random by up to WEBHOOK_RETRY_JITTER
# (a fraction), so receivers that failed together are not retried together.
WEBHOOK_RETRY_DELAYS = read_retry_delays(env)
WEBHOOK_RETRY_JITTER = env.float("WEBHOOK_RETRY_JITTER", default=0.2)
# An endpoint whose attempts have all failed for this many seconds is disabled (a ping that succeeds enables it).
WEBHOOK_DISABLE_AFTER = env.float("WEBHOOK_DISABLE_AFTER", default=24 * 3600.0)
# Loopback, private, link-local, metadata and other non-public addresses are refused, at registration and at each
# delivery, unless they fall in one of these networks (tests; `palace.py run` allows loopback).
WEBHOOK_ALLOWED_NETWORKS = read_networks(env, "WEBHOOK_ALLOWED_NETWORKS")
WEBHOOK_MAX_ENDPOINTS = env.int("WEBHOOK_MAX_ENDPOINTS", default=10)
# Keys that encrypt webhook signing secrets at rest (webhooks/services/secret_box.py): the first encrypts, any
# decrypts, so keys rotate. Empty: derived from SECRET_KEY (and SECRET_KEY_FALLBACKS), for local runs.
WEBHOOK_SECRET_KEYS = env.list("WEBHOOK_SECRET_KEYS", default=[])
# Live event streams (README, "Live streams"): Redis pub/sub tells each web process which game moved, when Redis
# is configured; otherwise each web process polls the versions of the games its open streams watch.
STREAMS_REDIS_URL = read_streams_redis_url(env, broker_url=CELERY_BROKER_URL)
STREAMS_POLL_SECONDS = env.float("STREAMS_POLL_SECONDS", default=0.5)
STREAMS_HEARTBEAT_SECONDS = env.float("STREAMS_HEARTBEAT_SECONDS", default=15.0)
# Threads that run the streams' database reads in each web process: at most this many database connections for
# any number of open streams.
STREAMS_DATABASE_THREADS = env.int("STREAMS_DATABASE_THREADS", default=4)
# Requests of one ASGI web process inside Django at once (palace_api/admission.py); the rest wait on the event loop.
WEB_REQUESTS_IN_FLIGHT = env.int("WEB_REQUESTS_IN_FLIGHT", default=16)
# Log entries each web process keeps per followed game, read once per move for all the game's streams; a stream
# further behind reads its own pages.
STREAMS_FEED_ENTRIES = env.int("STREAMS_FEED_ENTRIES", default=256)

# Table chat (issue 26, chat/): at most CHAT_RATE_COUNT messages per player every CHAT_RATE_SECONDS.
CHAT_RATE_COUNT = env.int("CHAT_RATE_COUNT", default=5)
CHAT_RATE_SECONDS = env.int("CHAT_RATE_SECONDS", default=10)
# Rematch (issue 26): an offer lapses after REMATCH_OFFER_SECONDS unanswered.
REMATCH_OFFER_SECONDS = env.int("REMATCH_OFFER_SECONDS", default=300)

# Email (README, "Email notifications"). EMAIL_URL: the mail server, parsed by django-environ
# (palace_api/env.py); Django's console backend (mails printed by the worker) when unset.
vars().update(read_email(env))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Palace <palace@localhost>")
# Seconds each step of talking to the mail server may take: a server that hangs holds a worker no longer.
EMAIL_TIMEOUT = env.float("EMAIL_TIMEOUT", default=10.0)
# Links in mails start with this (no trailing slash needed): the table, confirmation and unsubscribe pages.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# Seconds a person's decision stays unanswered, in a game where nothing happens, before it is mailed.
NOTIFICATION_GRACE_SECONDS = env.float("NOTIFICATION_GRACE_SECONDS", default=120.0)
# Finished-game mails are made for games finished at most this many seconds ago (a sweeper down for longer
# skips them rather than mailing about old games).
NOTIFICATION_FINISHED_WINDOW = env.float("NOTIFICATION_FINISHED_WINDOW", default=24 * 3600.0)
# Seconds before each retry of a mail the server refused or could not take; after the last, the mail failed.
MAIL_RETRY_DELAYS = [60.0, 300.0, 1800.0, 7200.0]
