"""Settings for the card site, read from the environment.

SQLite is the embedded default (WAL, IMMEDIATE transactions, a busy timeout so
concurrent writers queue instead of failing); ``DATABASE_URL`` switches to
PostgreSQL. ``CARDSITE_PRODUCTION=1`` turns on the production hardening that
``make serve`` uses.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION = env_bool("CARDSITE_PRODUCTION", False)
DEBUG = env_bool("DEBUG", not PRODUCTION)
_DEV_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production-0123456789"
SECRET_KEY = env_str("SECRET_KEY", _DEV_KEY)
if PRODUCTION and SECRET_KEY == _DEV_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY in the environment for production.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_filters",
    "django_htmx",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tasks",
    "django_tasks_db",
    "cardsite",
    "cards",
    "collection",
    "decks",
]

MIDDLEWARE = [
    "cardsite.middleware.ServerHeaderMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "cardsite.middleware.ContentSecurityPolicyMiddleware",
]

if PRODUCTION:
    _security = MIDDLEWARE.index("django.middleware.security.SecurityMiddleware")
    MIDDLEWARE.insert(_security + 1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "cardsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cards.context_processors.games",
            ],
        },
    },
]

WSGI_APPLICATION = "cardsite.wsgi.application"

_sqlite_path = env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
_database_url = env_str("DATABASE_URL", "")
if _database_url:
    DATABASES = {
        "default": dj_database_url.parse(
            _database_url, conn_max_age=60, conn_health_checks=True
        )
    }
    # A test run beside another on the same server (the made-up game's checks,
    # run in a subprocess) names its own test database so neither drops the other's.
    if env_str("CARDSITE_TEST_DB_NAME", ""):
        DATABASES["default"]["TEST"] = {"NAME": env_str("CARDSITE_TEST_DB_NAME", "")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": _sqlite_path,
            # Opening a connection (and its PRAGMAs) cost a third of a card list
            # request; keep it per thread for a minute, as PostgreSQL does above.
            "CONN_MAX_AGE": env_int("CONN_MAX_AGE", 60, minimum=0),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;"
                    "PRAGMA synchronous=NORMAL;"
                    "PRAGMA busy_timeout=20000;"
                    "PRAGMA foreign_keys=ON;"
                ),
            },
            # A file (threads in the concurrency tests need one), one per test run.
            "TEST": {
                "NAME": env_str(
                    "SQLITE_TEST_PATH",
                    os.path.join(
                        tempfile.gettempdir(), f"cardsite-test-{os.getpid()}.sqlite3"
                    ),
                )
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"
    },
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The test suite (and the servers it starts) hash with MD5 for speed; never set in
# production, where Django's default PBKDF2 applies.
if env_bool("CARDSITE_TEST_FAST_HASHER", False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Reverse proxies in front of the site that append the client's address to
# X-Forwarded-For (one TLS proxy: 1). 0 trusts only REMOTE_ADDR, since a client
# can write any X-Forwarded-For it likes.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
# Budgets (decks/budgets.py): search-bot thinking inside web requests per user,
# proxy sheets built for visitors who are not logged in per address, and the
# disk the cached sheets may fill before the oldest go.
BOT_THINKING_SECONDS_PER_MINUTE = env_int(
    "BOT_THINKING_SECONDS_PER_MINUTE", 10, minimum=1
)
ANONYMOUS_PROXY_SHEETS_PER_HOUR = env_int(
    "ANONYMOUS_PROXY_SHEETS_PER_HOUR", 6, minimum=0
)
# Games a visitor without an account may start per address per hour (Play now).
VISITOR_GAMES_PER_HOUR = env_int("VISITOR_GAMES_PER_HOUR", 20, minimum=0)
PROXY_SHEET_CACHE_BYTES = env_int(
    "PROXY_SHEET_CACHE_BYTES", 200 * 1024 * 1024, minimum=0
)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "cards:home"
LOGOUT_REDIRECT_URL = "cards:home"
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Session only: every sign-in then passes the log-in form and its limit
        # (HTTP Basic would take unlimited password guesses on every request).
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly"
    ],
    "DEFAULT_PARSER_CLASSES": [
        "cardsite.api.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "cardsite.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Card site API",
    "DESCRIPTION": "Checklist, collection, decks and playtests for four classic card games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Card colour and launcher colour share one choice set; name it once.
    "ENUM_NAME_OVERRIDES": {
        "ColourEnum": "cards.choices.Colour",
        "GameSlugEnum": "cards.choices.GameSlug",
    },
}

TASKS = {
    "default": {"BACKEND": env_str("TASKS_BACKEND", "django_tasks_db.DatabaseBackend")}
}
# A running report slice or doctor candidate writes its progress (its heartbeat)
# at most every DECK_JOB_PROGRESS_MS; one silent for DECK_JOB_STALE_AFTER seconds
# lost its worker and is queued again (decks.play.workload). The silence must
# outlast the longest single game of the slowest bot.
DECK_JOB_PROGRESS_MS = env_int("DECK_JOB_PROGRESS_MS", 2000, minimum=1)
DECK_JOB_STALE_AFTER = env_int("DECK_JOB_STALE_AFTER", 300, minimum=1)

# Size limits for uploads and forms (bad input gets a clear message).
DATA_UPLOAD_MAX_MEMORY_SIZE = 20 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

CSRF_COOKIE_HTTPONLY = False
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; "
    "form-action 'self'"
)

if PRODUCTION:
    # Secure cookies by default; a loopback load test over plain HTTP turns them off.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    if not SECURE_SSL_REDIRECT:
        # Said explicitly: the TLS proxy in front redirects plain HTTP itself.
        SILENCED_SYSTEM_CHECKS = ["security.W008"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
