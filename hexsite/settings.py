"""Settings, read from the environment.

DATABASE_URL and REDIS_URL are required: `make run` / `make test` start embedded PostgreSQL
and Redis and set them when they are unset. There is no SQLite or in-memory fallback.
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_required(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise ImproperlyConfigured(
            f"{name} is not set. Start the site with `make run` (or tests with `make test`), "
            f"which start an embedded PostgreSQL and Redis, or set {name} yourself."
        )
    return value


DEBUG = env_bool("DEBUG", False)  # the local launcher (make run / make test) turns it on
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "dev-only-insecure-key-set-SECRET_KEY-in-production" if DEBUG else env_required("SECRET_KEY")
)
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]
# Daphne serves /static/ itself when this is on (local runs); put a web server in front otherwise.
SERVE_STATIC = env_bool("SERVE_STATIC", True)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "games.leagues",
    # One line per game: its folder's app registers its site (games/sites.py).
    "games.hextension",
    "games.hextremadura",
    "games.hexland",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
]

ROOT_URLCONF = "hexsite.urls"
ASGI_APPLICATION = "hexsite.asgi.application"
WSGI_APPLICATION = "hexsite.wsgi.application"

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
                "games.context_processors.game_sites",
            ],
        },
    },
]

DATABASES = {"default": dj_database_url.parse(env_required("DATABASE_URL"), conn_max_age=60)}
REDIS_URL = env_required("REDIS_URL")

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "hexsite"),
    }
}

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # A socket waits on Redis with 5 s blocking pops; redis-py's own read timeout (5 s by
        # default in redis-py 8) must be longer, or every idle socket's consumer dies at 5 s.
        "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                   "prefix": os.environ.get("CHANNELS_PREFIX", "hexsite")},
    }
}

CELERY_BROKER_URL = REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": timedelta(seconds=int(os.environ.get("DEADLINE_SWEEP_SECONDS", "15"))),
    },
    "send-reminders": {"task": "games.tasks.send_reminders", "schedule": timedelta(minutes=1)},
    "start-due-leagues": {"task": "games.tasks.start_due_leagues", "schedule": timedelta(minutes=1)},
    "send-daily-digests": {"task": "games.tasks.send_daily_digests", "schedule": crontab(hour=7, minute=0)},
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-allauth: username and e-mail, verified e-mail, rate limits on (allauth's defaults).
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_RATE_LIMITS_ENABLED = True
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "dashboard"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "hexsite <noreply@hexsite.local>")

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# htmx and its WebSocket extension come from npm (package.json), never copied into the repo.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/htmx-ext-ws", BASE_DIR / "node_modules" / "htmx-ext-ws" / "dist"),
]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Game platform: the process-local state cache in front of the shared (Redis) one.
GAME_STATE_LOCAL_CACHE_SIZE = int(os.environ.get("GAME_STATE_LOCAL_CACHE_SIZE", "256"))
# Turn timers at or below this many seconds also get a Celery countdown task; longer
# deadlines are found only by the beat sweeper.
GAME_SHORT_TIMER_SECONDS = int(os.environ.get("GAME_SHORT_TIMER_SECONDS", "900"))

# Turns of at least this many seconds are correspondence: e-mails, reminders at 80%.
GAME_CORRESPONDENCE_SECONDS = int(os.environ.get("GAME_CORRESPONDENCE_SECONDS", "3600"))
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# A short pause before an AI moves, so people can follow the game.
GAME_AI_DELAY_SECONDS = float(os.environ.get("GAME_AI_DELAY_SECONDS", "0.5"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
