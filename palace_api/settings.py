"""Django settings for Palace API, all read from the environment (see README, "Configuration")."""

from datetime import timedelta
from pathlib import Path

from palace_api.env import (
    broker_transport_options,
    make_env,
    read_allowed_hosts,
    read_cache,
    read_celery_broker_url,
    read_celery_result_backend,
    read_database,
    read_debug,
    read_num_proxies,
    read_secret_key,
    read_throttle_rates,
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
]

MIDDLEWARE = [
    # Outermost: it times the whole request and sees the final status.
    "palace_api.middleware.RequestLogMiddleware",
    # Before anything reads a body or renders an error page (palace_api/middleware.py).
    "palace_api.middleware.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

# Throttle counters live here (README, "Throttling"): per process unless CACHE_URL names a shared cache.
CACHES = {"default": read_cache(env)}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
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
    "TAGS": [
        {"name": "players", "description": "Registration and tokens."},
        {"name": "games", "description": "Creating, joining, watching and playing games."},
        {"name": "me", "description": "The caller's account and turns."},
    ],
    # Enums stay inline: a generated client then names each after its place (PokerStateKind,
    # GamesCreateError400Code) instead of hashed names for the many sets of error codes.
    "POSTPROCESSING_HOOKS": ["palace_api.schema.token_schemes_either", "palace_api.schema.request_bodies_closed"],
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
# Celery's Django fix-up closes the worker's database connections around every task unless this is set; a new
# PostgreSQL connection (with its password exchange) then costs more than the task. Closed every 2 x 500 tasks.
CELERY_DB_REUSE_MAX = 500
# The periodic sweeper applies every expired turn deadline (games.tasks.sweep_timeouts); deadlines are in the
# database, so a lost countdown task or a worker down for a while only delays a timeout by one sweep.
TIMEOUT_SWEEP_SECONDS = env.float("TIMEOUT_SWEEP_SECONDS", default=5.0)
CELERY_BEAT_SCHEDULE = {
    "sweep-turn-timeouts": {"task": "games.tasks.sweep_timeouts", "schedule": TIMEOUT_SWEEP_SECONDS},
}
# Deadlines at most this many seconds away also get a countdown task, for prompt short timeouts; it must stay
# well under the Redis visibility timeout (palace_api/env.py), or Redis would hand the waiting task out again.
TIMEOUT_COUNTDOWN_MAX = 600
