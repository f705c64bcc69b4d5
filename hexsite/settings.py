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

from hexsite.logfilters import REFUSED_REQUEST_LOGGERS

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

# HTTPS in production (DEBUG=0); `manage.py check --deploy` passes with these.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_HTTPONLY = True
# In PostgreSQL, read from Redis (the default cache) while it is there (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Off unless asked for: with `preload` in the header anyone may submit the domain (and all its
# subdomains) to the browsers' HTTPS-only list, which is slow to undo. Hence W021 is silenced then.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# OAuth2 apps may be redirected to http only on a loopback address (RFC 8252's native apps and
# bots), which the application admin checks (api/oauth_admin.py); DOT's check sees any http.
SILENCED_SYSTEM_CHECKS.append("oauth2_provider.W008")
# Behind a TLS-terminating proxy, the header (e.g. X-Forwarded-Proto) by which it says the request
# came over HTTPS. Set it only if the proxy always sets or overwrites that header: a client could
# send it otherwise.
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + os.environ["SECURE_PROXY_SSL_HEADER"].strip().upper().replace("-", "_"), "https"
    )
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # invitation links carry a token in their path
X_FRAME_OPTIONS = "DENY"


# The game sockets' own port, when processes of their own serve them (hexsite/serve.py sets it
# for its children with SOCKETS > 0); unset or empty: pages open their socket on their own origin.
LIVE_SOCKET_PORT = int(os.environ.get("LIVE_SOCKET_PORT") or 0) or None


def websocket_sources(hosts: list[str]) -> list[str]:
    """ws(s): sources for the allowed hosts: CSP3 browsers count them in 'self', older ones don't;
    with the sockets on a port of their own, that port on each host (not 'self': another origin)."""
    sources = []
    for host in hosts:
        if host == "*" or host.startswith("["):  # CSP has no IPv6 literals
            continue
        names = [host[1:], "*" + host] if host.startswith(".") else [host]
        for name in names:
            sources.append(f"wss://{name}")
            if DEBUG:  # local runs: plain ws on any port
                sources.append(f"ws://{name}:*")
            elif LIVE_SOCKET_PORT:
                sources += [f"wss://{name}:{LIVE_SOCKET_PORT}", f"ws://{name}:{LIVE_SOCKET_PORT}"]
    return sources


# Content-Security-Policy (django-csp): scripts and styles only from our own files, never
# inline (htmx's own indicator <style> is turned off in base.html; site.css has its rules).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],  # data: images, e.g. in CSS
        "connect-src": ["'self'", *websocket_sources(ALLOWED_HOSTS)],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Request bodies: the largest form is a league announcement, 4,000 characters: at most 48,000
# bytes URL-encoded (4-byte UTF-8). Larger bodies are refused with 400. The admin's permission
# and bulk-action lists have the most fields.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "hexsite.staticfiles.StaticFilesConfig",  # django.contrib.staticfiles, less of node_modules
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "csp",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "games.leagues",
    # One line per game: its folder's app registers its site (games/sites.py).
    "games.hextension",
    "games.hextremadura",
    "games.hexland",
    # Reports, sanctions, blocks, flags and the moderation record (after the games it points to).
    "moderation",
    # Third-party apps' tokens (OAuth2 authorization code with PKCE), configured below and
    # served under /oauth/ by the API's own views (api/oauth.py).
    "oauth2_provider",
    # The public API: tokens, JSON endpoints and streams over the services and selectors.
    "api",
    # The project itself: its `migrate` runs as the owner role (hexsite/dbroles.py).
    "hexsite",
]

MIDDLEWARE = [
    "hexsite.forwarded.ForwardedClientAddressMiddleware",  # REMOTE_ADDR behind TRUSTED_PROXY_HOPS proxies
    # Pages compressed (gzip; Django adds random padding against BREACH); static files come
    # compressed from WhiteNoise, before anything else runs (docs/deployment.md, "Static files").
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "hexsite.admission.PageAdmissionMiddleware",  # full pages drawn a few at a time; writes go first
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the browser's or the cookie's language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "hexsite.outages.OutageMiddleware",  # a PostgreSQL or Redis outage: a clear 503, also for the session
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    "accounts.middleware.UserLanguageMiddleware",  # a signed-in player's saved language wins
    "accounts.bots.BotPlaysThroughTheApiMiddleware",  # a bot account plays through the API only
    # A body or query declared in a charset other than UTF-8: a 400 before anything reads it
    # (hexsite/charsets.py); last, so it answers in the viewer's language.
    "hexsite.charsets.DeclaredCharsetMiddleware",
]

# Full pages a process draws at once; the rest wait for a slot while writes and the live page's
# own reads go straight through (hexsite/admission.py). A page waits at most PAGE_WAIT_SECONDS.
PAGE_SLOTS = max(1, int(os.environ.get("PAGE_SLOTS", "2")))
PAGE_WAIT_SECONDS = float(os.environ.get("PAGE_WAIT_SECONDS", "30"))
# How long a page process's running thread keeps the interpreter while another waits for it
# (hexsite/switching.py; Python's default is 0.005).
SWITCH_INTERVAL_SECONDS = float(os.environ.get("SWITCH_INTERVAL_SECONDS", "0.0005"))
# Python's collector in serving processes, for measuring (hexsite/collector.py): off and empty
# leave it as Python has it; neither setting was measured better (docs/performance-log.md, "The collector").
GC_FREEZE = env_bool("GC_FREEZE", False)
GC_THRESHOLDS = tuple(int(n) for n in os.environ.get("GC_THRESHOLDS", "").split(",") if n.strip())

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
                "django.template.context_processors.i18n",
                "hexsite.i18n.catalogue_version",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.game_sites",
                "games.context_processors.live_socket_port",
                "hexsite.context_processors.meta_description",
            ],
            # Report links, blocks and staff decisions on any page without a {% load %}.
            "builtins": ["moderation.templatetags.moderation"],
        },
    },
]

# One psycopg connection pool per process. Under ASGI each request runs in a thread of its own,
# so persistent per-thread connections (CONN_MAX_AGE) piled up past PostgreSQL's max_connections;
# with the pool a request waits up to DATABASE_POOL_TIMEOUT seconds for a free connection.
# DATABASE_POOL=0 restores those per-thread connections (for comparison, or behind PgBouncer).
DATABASE_POOL = env_bool("DATABASE_POOL", True)
DATABASE_POOL_MAX = int(os.environ.get("DATABASE_POOL_MAX", "10"))
# Threads on which a process's game sockets read and draw (games/consumers.py); each holds a pooled
# connection while it works, so keep it well under DATABASE_POOL_MAX.
LIVE_SOCKET_THREADS = int(os.environ.get("LIVE_SOCKET_THREADS", "4"))
# A process announces one game's new versions at most once in this many seconds (games/realtime.py);
# 0 announces every version at once.
LIVE_VERSION_INTERVAL_SECONDS = float(os.environ.get("LIVE_VERSION_INTERVAL_SECONDS", "0.2"))
DATABASES = {
    "default": dj_database_url.parse(
        env_required("DATABASE_URL"),
        conn_max_age=0 if DATABASE_POOL else 60,  # Django refuses a pool with persistent connections
        # With the pool: check a connection when it is handed out, so one that the server closed
        # (restart, pg_terminate_backend) is replaced instead of failing a request.
        conn_health_checks=DATABASE_POOL,
    )
}
if DATABASE_POOL:
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN", "1")),
        "max_size": DATABASE_POOL_MAX,
        "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "20")),
    }
# Test runs sharing one PostgreSQL (two checkouts, two sessions) each name their own test database;
# pytest-xdist's workers then add their own suffix to it.
if os.environ.get("HEXSITE_TEST_DATABASE"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["HEXSITE_TEST_DATABASE"]}
# The role that owns the schema and runs `manage.py migrate`; DATABASE_URL's role then may only
# read and write rows, never alter a table or change the append-only ones (hexsite/dbroles.py).
# Same server and database as DATABASE_URL (its database name is not used). Unset: DATABASE_URL's
# role does both. The local launcher sets both URLs for its embedded PostgreSQL.
DATABASE_OWNER_URL = os.environ.get("DATABASE_OWNER_URL", "")
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
        # channels_redis's Pub/Sub layer: an announcement is one message per process, not one per
        # socket, and no process's sockets share a queue in Redis (hexsite/channel_layer.py).
        "BACKEND": "hexsite.channel_layer.GameChannelLayer",
        # Pub/Sub reads wait at most 0.1 s; a command to a Redis that hangs fails after 30 s.
        "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                   "prefix": os.environ.get("CHANNELS_PREFIX", "hexsite")},
    }
}

CELERY_BROKER_URL = REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task is acknowledged after it ran (acks_late): one held by a worker killed with SIGKILL stays
# in Redis's "unacked" set and is delivered again once visibility_timeout has passed. It must be
# longer than the longest countdown (GAME_SHORT_TIMER_SECONDS), or a timer waiting in a live
# worker is delivered twice (harmless: every turn task re-checks the version, but wasted). The
# beat sweeps (deadlines every DEADLINE_SWEEP_SECONDS, owed AI moves after GAME_AI_OWED_SECONDS)
# apply a lost timer or AI move long before that; the redelivered task then finds nothing to do.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    "unacked_restore_interval": int(os.environ.get("CELERY_UNACKED_RESTORE_INTERVAL", "10")),
    "unacked_restore_throttle": int(os.environ.get("CELERY_UNACKED_RESTORE_THROTTLE", "10")),
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Three queues, each with workers of its own (Procfile): "play" (AI moves and turn timers, which
# players wait for), "celery" (the default: e-mails, sweeps, after-game steps) and "solver"
# (Hextremadura's par, 1-60 s of CPU each). A move never waits behind a solve or an e-mail.
CELERY_TASK_ROUTES = {
    "games.tasks.play_ai_move": {"queue": "play"},
    "games.tasks.apply_timeouts": {"queue": "play"},
    "games.tasks.compute_daily_par": {"queue": "solver"},
    "games.tasks.compute_casual_par": {"queue": "solver"},
}
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": timedelta(seconds=int(os.environ.get("DEADLINE_SWEEP_SECONDS", "15"))),
    },
    "sweep-owed-ai-moves": {"task": "games.tasks.sweep_owed_ai_moves",
                            "schedule": timedelta(seconds=int(os.environ.get("AI_SWEEP_SECONDS", "30")))},
    "send-reminders": {"task": "games.tasks.send_reminders",
                       "schedule": timedelta(seconds=int(os.environ.get("REMINDER_SWEEP_SECONDS", "60")))},
    "start-due-leagues": {"task": "games.tasks.start_due_leagues", "schedule": timedelta(minutes=1)},
    "send-daily-digests": {"task": "games.tasks.send_daily_digests", "schedule": crontab(hour=7, minute=0)},
    "reopen-ended-suspensions": {"task": "moderation.tasks.reopen_ended_suspensions", "schedule": timedelta(minutes=5)},
    "compute-moderation-flags": {"task": "moderation.tasks.compute_flags", "schedule": crontab(hour=4, minute=0)},
}

# django-oauth-toolkit (docs/api.md, "Apps"): the authorization code grant with PKCE (S256)
# only, for public and confidential clients; the API's four scopes (api.models.Scope); tokens
# stored as their sha256 only; a refresh token is used once (rotated), and its reuse revokes
# its whole family. Apps are registered by staff in the admin (or `manage.py oauth_app`).
OAUTH2_PROVIDER = {
    "OAUTH2_SERVER_CLASS": "api.oauth.AppServer",
    "OAUTH2_VALIDATOR_CLASS": "api.oauth.AppValidator",
    "SCOPES_BACKEND_CLASS": "api.oauth.ApiScopes",
    "ACCESS_TOKEN_GENERATOR": "api.oauth.new_access_token",
    "REFRESH_TOKEN_GENERATOR": "api.oauth.new_refresh_token",
    "PKCE_REQUIRED": True,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    "REFRESH_TOKEN_EXPIRE_SECONDS": 30 * 24 * 3600,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REQUEST_APPROVAL_PROMPT": "force",  # the consent page every time, unless the app asks for auto
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http"],
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    # Staff's admin pages for apps and their tokens, under the site's admin rules (games.admin_base).
    "APPLICATION_ADMIN_CLASS": "api.oauth_admin.ApplicationAdmin",
    "ACCESS_TOKEN_ADMIN_CLASS": "api.oauth_admin.AccessTokenAdmin",
    "REFRESH_TOKEN_ADMIN_CLASS": "api.oauth_admin.RefreshTokenAdmin",
    "GRANT_ADMIN_CLASS": "api.oauth_admin.GrantAdmin",
    "ID_TOKEN_ADMIN_CLASS": "api.oauth_admin.IDTokenAdmin",
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
# The test suite makes thousands of users and signs many of them in: a hash that is slow on
# purpose was most of its CPU. Set by tests/workers.py (inherited by the site processes the tests
# start); never in a deployment.
if env_bool("HEXSITE_TEST_FAST_PASSWORD_HASHING", False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-allauth: username and e-mail, verified e-mail, rate limits (below).
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Sign-up also asks the time zone (filled with the browser's by static/js/timezone.js).
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
# allauth's rate limits, written out (allauth merges them over its defaults, which hold for the
# rest): "N/period/per", per client IP ("ip") or per username or e-mail tried ("key"). They are
# counted in the default cache, i.e. Redis, shared by every process. The client IP is
# REMOTE_ADDR: behind a proxy, set TRUSTED_PROXY_HOPS (the pages, under gunicorn) and run the
# sockets' Daphnes with --proxy-headers (docs/deployment.md), or every client shares the
# proxy's address and its limits. Tested in tests/web/test_account_limits.py.
TRUSTED_PROXY_HOPS = int(os.environ.get("TRUSTED_PROXY_HOPS", "0") or 0)
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",                   # log-in form posts
    "login_failed": "10/m/ip,5/5m/key",   # failed log-ins: per client, and per account from anywhere
    "signup": "10/m/ip,50/h/ip",          # sign-up form posts
    "reset_password": "20/m/ip,5/m/key",  # password-reset e-mails asked for
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",          # verification e-mails sent again, per address
}
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

# Languages (docs/i18n.md): English, German and Spanish. A signed-in player's saved choice
# (User.language) wins; otherwise the footer's choice (a cookie), then the browser's
# Accept-Language, then English. Catalogues in locale/<code>/ are compiled by `make`.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [
    ("en-gb", "English"),
    ("de", "Deutsch"),
    ("es", "Español"),
]
# locale/overrides: our translations of other packages' strings (allauth's German in "du",
# allauth's and Django's Spanish in "tú"), after ours and before the apps' own catalogues
# (docs/i18n.md, "Other packages' words").
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "overrides"]
# A moment with a 24-hour time and its zone, in each language (hexsite/formats/).
FORMAT_MODULE_PATH = ["hexsite.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files (docs/deployment.md, "Static files"): `collectstatic` copies them to STATIC_ROOT
# with a hash of their content in their names, gzip and Brotli copies beside; WhiteNoise serves
# them from every Daphne, those hashed names cached for ever. `make run`, the load harness and a
# release run collectstatic first. A file not collected (a checkout where it never ran) keeps its
# plain name in DEBUG, found by Django's finders; without DEBUG it is an error.
STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "hexsite.staticfiles.HashedStaticStorage"},
}
# Files are read once, when a process starts (no autorefresh even in DEBUG: the pages name the
# hashed copies); in DEBUG the finders' plain files are served too.
WHITENOISE_AUTOREFRESH = False
WHITENOISE_USE_FINDERS = DEBUG
# Served at the site's root: /favicon.ico, which browsers and crawlers ask for unbidden.
WHITENOISE_ROOT = BASE_DIR / "hexsite" / "public"
# htmx and its WebSocket extension come from npm (package.json), never copied into the repo.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/idiomorph", BASE_DIR / "node_modules" / "idiomorph" / "dist"),
]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Game platform: the process-local state cache in front of the shared (Redis) one.
GAME_STATE_LOCAL_CACHE_SIZE = int(os.environ.get("GAME_STATE_LOCAL_CACHE_SIZE", "256"))
# Turn timers at or below this many seconds also get a Celery countdown task; longer
# deadlines are found only by the beat sweeper.
GAME_SHORT_TIMER_SECONDS = int(os.environ.get("GAME_SHORT_TIMER_SECONDS", "900"))

# Turns of at least this many seconds are correspondence: e-mails, reminders at 80%.
GAME_CORRESPONDENCE_SECONDS = int(os.environ.get("GAME_CORRESPONDENCE_SECONDS", "3600"))
# The site's address, for links in e-mails (game turns, reminders, moderation). Production sets
# SITE_URL (docs/deployment.md); unset, it is where `make run` / hexsite.serve listen.
SITE_URL = os.environ.get("SITE_URL") or "http://{}:{}".format(
    os.environ.get("HEXSITE_HOST") or "127.0.0.1", os.environ.get("HEXSITE_PORT") or "8000")

# Move submissions per user and game: (at most this many, in a window of these seconds).
GAME_MOVE_RATE_LIMIT = (int(os.environ.get("GAME_MOVE_RATE_LIMIT", "20")), 10)

# An AI seat awaited this long is asked again by beat's sweep (its task was lost or its worker died).
GAME_AI_OWED_SECONDS = float(os.environ.get("GAME_AI_OWED_SECONDS", "30"))

# A short pause before an AI moves, so people can follow the game.
GAME_AI_DELAY_SECONDS = float(os.environ.get("GAME_AI_DELAY_SECONDS", "0.5"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Bodies over DATA_UPLOAD_MAX_MEMORY_SIZE and requests over DATA_UPLOAD_MAX_NUMBER_FIELDS are
    # answered 400: one warning line each, not Django's ERROR with a traceback (hexsite/logfilters.py).
    "filters": {"refused_request": {"()": "hexsite.logfilters.RefusedRequestFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {name: {"filters": ["refused_request"]} for name in REFUSED_REQUEST_LOGGERS},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
