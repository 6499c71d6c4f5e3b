"""Settings for Mậu Binh Online, read from the environment.

With nothing set the site runs embedded: SQLite, an in-process channel layer and Celery
timers on an in-process broker with a worker thread. With DATABASE_URL / REDIS_URL it
uses PostgreSQL and Redis (channel layer, Celery broker, cache).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from core.env import (
    database_from_url,
    env_bool,
    env_decimal_percent,
    env_float_or_auto,
    env_int,
    env_list,
    env_str,
    redis_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
_DEV_SECRET = "dev-only-insecure-secret-key-change-me-0123456789abcdefghijklmnop"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY: must be set when DEBUG is off")
if not DEBUG and SECRET_KEY == _DEV_SECRET:
    raise ImproperlyConfigured("SECRET_KEY: the development key cannot be used with DEBUG off")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "accounts.admin_site.StaffAdminConfig",  # django.contrib.admin, for staff in good standing
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "csp",
    "accounts",
    "ledger",
    "notices",
    "games",
    "ratings",
    "bots",
    "moderation",
    "practice",
    "social",
    "profiles",
    "tournaments",
    "chat",
    "ninja",
    "api.apps.OAuthProviderConfig",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "api.middleware.ApiLanguageMiddleware",
    "maubinh_site.badinput.RefuseNulMiddleware",
    "moderation.middleware.RecordAddressMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it inspects the response of a failed login.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "maubinh_site.urls"
ASGI_APPLICATION = "maubinh_site.asgi.application"
WSGI_APPLICATION = None

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
                "django.template.context_processors.i18n",
                "accounts.context_processors.header",
                "ledger.context_processors.wallet",
                "maubinh_site.inbox.header_count",
                "tournaments.context_processors.table_tournament",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
# PostgreSQL session limits for every app connection (daphne, workers, manage.py), in ms;
# 0 turns one off. One stuck process must not stall the others (docs/deploy.md):
# - a table or round lock (or any lock) waited for longer than DB_LOCK_TIMEOUT_MS fails:
#   a player's command gets "the table is busy", a timer task is retried;
# - a transaction left idle (a stopped or hung process holding a table lock) is ended by
#   the server after DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, releasing its locks;
# - one statement may run DB_STATEMENT_TIMEOUT_MS at most.
DB_LOCK_TIMEOUT_MS = env_int("DB_LOCK_TIMEOUT_MS", 5_000, minimum=0, maximum=600_000)
DB_IDLE_IN_TRANSACTION_TIMEOUT_MS = env_int(
    "DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 10_000, minimum=0, maximum=3_600_000
)
DB_STATEMENT_TIMEOUT_MS = env_int("DB_STATEMENT_TIMEOUT_MS", 30_000, minimum=0, maximum=3_600_000)
# PostgreSQL binds the values of every statement, and prepares a statement once a connection
# has run it DB_PREPARE_THRESHOLD times: the round's statements are parsed and planned once
# per connection instead of every time (docs/deploy.md, "Prepared statements"). "off" sends
# every statement as text with its values quoted in, for a pooler that cannot keep prepared
# statements (PgBouncer before 1.21, or without max_prepared_statements).
DB_PREPARE_THRESHOLD = (
    None
    if env_str("DB_PREPARE_THRESHOLD", "5").strip().lower() == "off"
    else env_int("DB_PREPARE_THRESHOLD", 5, minimum=0, maximum=1_000)
)
DATABASES = {
    "default": database_from_url(
        "DATABASE_URL",
        DATABASE_URL,
        timeouts_ms={
            "lock_timeout": DB_LOCK_TIMEOUT_MS,
            "idle_in_transaction_session_timeout": DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
            "statement_timeout": DB_STATEMENT_TIMEOUT_MS,
        },
        prepare_threshold=DB_PREPARE_THRESHOLD,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, Celery broker, cache ---------------------------------------
_REDIS = env_str("REDIS_URL", "")
# Namespace of every Redis key (channel layer, cache, Celery queues): lets several sites,
# or several test runs, share one Redis without hearing each other.
REDIS_PREFIX = env_str("REDIS_PREFIX", "maubinh")
REDIS_URL = redis_url("REDIS_URL", _REDIS) if _REDIS else ""

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group event is published once and pushed to every daphne
            # process that has a member, with no per-message round trips. The list-based
            # RedisChannelLayer pops one message per four round trips and fell seconds
            # behind at 100 busy tables (benchmarks/bench_tables.py). Pub/sub keeps no
            # backlog: a process that is not connected misses the event, sees the version
            # gap on the next one and asks for a snapshot, as after any lost event.
            "BACKEND": "maubinh_site.channel_layer.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_PREFIX}:"},
        }
    }
    CACHES = {
        "default": {
            # Django's, with one Redis client (and connection pool) per process instead of
            # one per async context, so per socket (maubinh_site/cache.py).
            "BACKEND": "maubinh_site.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

_BROKER = env_str("CELERY_BROKER_URL", "") or REDIS_URL or "memory://"
if _BROKER != "memory://":
    redis_url("CELERY_BROKER_URL", _BROKER)
    # kombu's Redis transport, keeping one Redis client per channel instead of building
    # one per publish (maubinh_site/broker.py).
    CELERY_BROKER_TRANSPORT = "maubinh_site.broker:Transport"
CELERY_BROKER_URL = _BROKER
# Embedded default: a worker thread inside the served process consumes the in-process
# broker, so timers run the same task code as production without a second process.
CELERY_EMBEDDED_WORKER = CELERY_BROKER_URL == "memory://"
# The worker's lines as Celery writes them, with the table and round ids the served
# process's lines carry (core.logcontext; maubinh_site.celery adds them to its handlers).
CELERY_WORKER_LOG_FORMAT = (
    "[%(asctime)s: %(levelname)s/%(processName)s]%(game_context)s %(message)s"
)
CELERY_IMPORTS = ["maubinh_site.tasks"]  # apps' tasks are autodiscovered
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fix-up closes the database connection around every task unless this is
# set; it then closes it every 2 x this many tasks. maubinh_site.celery applies Django's
# own rule (CONN_MAX_AGE, broken connections) around each task instead.
CELERY_DB_REUSE_MAX = 10_000
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "Asia/Ho_Chi_Minh"
# Redis redelivers an unacknowledged task after this; long enough for the longest countdown.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "global_keyprefix": f"{REDIS_PREFIX}:",
}
# How often settled rounds are added to the statistics summary (profiles, leaderboards).
PROFILES_RECORD_SECONDS = env_int("PROFILES_RECORD_SECONDS", 15, minimum=1, maximum=3600)
# Beat's scheduler also runs the round timers' planner itself, every second (not a task:
# maubinh_site/beat.py, games.services.timers).
CELERY_BEAT_SCHEDULER = "maubinh_site.beat:Scheduler"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Advances any round or table whose timer task was lost (dead worker, dropped message).
    # A sweep not started within its period is dropped: sweeps must not pile up behind a
    # busy worker (the next one does the same work).
    "games-sweep": {"task": "games.sweep", "schedule": 2.0, "options": {"expires": 2.0}},
    # Recompute every balance from history; the result is shown on the admin dashboard.
    "ledger-check": {"task": "ledger.check", "schedule": 600.0},
    # Plays bots' turns whose task was lost, well before the arranging deadline.
    "bots-sweep": {"task": "bots.sweep", "schedule": 5.0},
    # Closes tables people opened and left empty for TABLE_EMPTY_CLOSE_MINUTES.
    "games-close-empty-tables": {"task": "games.close_empty_tables", "schedule": 60.0},
    # Commits the daily hand's seeds PRACTICE_DAILY_AHEAD_DAYS ahead (docs/practice.md).
    "practice-schedule-daily-deals": {"task": "practice.schedule_daily_deals", "schedule": 3600.0},
    # Adds newly settled rounds to the profiles' and leaderboards' summary (docs/profiles.md).
    "profiles-record-stats": {
        "task": "profiles.record_stats",
        "schedule": float(PROFILES_RECORD_SECONDS),
        "options": {"expires": float(PROFILES_RECORD_SECONDS)},
    },
    # Moves tournaments whose timer was lost (bots filling, a table step): docs/tournaments.md.
    "tournaments-sweep": {
        "task": "tournaments.sweep",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    # Deletes table talk older than CHAT_RETENTION_DAYS (docs/chat.md, the retention rule).
    "chat-delete-expired": {"task": "chat.delete_expired", "schedule": 3600.0},
    # Closes the challenges nobody answered in CHALLENGE_EXPIRY_MINUTES (also checked when
    # one is read or answered): docs/social.md#challenges.
    "social-expire-challenges": {
        "task": "social.expire_challenges",
        "schedule": 30.0,
        "options": {"expires": 30.0},
    },
}

# --- Auth -----------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.PeopleOnlyBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (django-axes): lock a username+IP pair after repeated failures.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1, maximum=100)
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_VERBOSE = False
AXES_USERNAME_CALLABLE = "accounts.backends.lockout_username"

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Mậu Binh Online <noreply@localhost>")

# --- Language and time ----------------------------------------------------------------
LANGUAGES = [("vi", "Tiếng Việt"), ("en", "English")]  # each in its own language
LANGUAGE_CODE = env_str("LANGUAGE_CODE", "vi")
if LANGUAGE_CODE not in {code for code, _name in LANGUAGES}:
    raise ImproperlyConfigured(f"LANGUAGE_CODE: must be one of vi, en, got {LANGUAGE_CODE!r}")
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Ho_Chi_Minh"
USE_TZ = True

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "maubinh_site.storage.StaticStorage"
    },
}

# --- Live tables ----------------------------------------------------------------------
# Threads per daphne process running table commands (each with a database connection).
# More threads overlap database waits; too many starve the event loop of the GIL.
TABLE_COMMAND_THREADS = env_int("TABLE_COMMAND_THREADS", 16, minimum=1, maximum=64)
# Deals a second the site starts at most, on a grid of turns (games.services.countdown.
# paced): a table whose next deal meets a taken turn deals in the next free one, and a
# deal timer running late deals only in a turn with room (late_turn). Unset (or "auto"),
# the default: adaptive, the most the live tables can ask for (those with two seated,
# over TABLE_SUMMARY_SECONDS), never below DEAL_PACING_MIN_RATE (deal_rate). A number:
# that rate, fixed. 0: no pacing (docs/deploy.md, Deal pacing).
DEALS_PER_SECOND = env_float_or_auto("DEALS_PER_SECOND", minimum=0.0, maximum=10000.0)
DEAL_PACING_MIN_RATE = 8.0
DEAL_PACING_HORIZON_SECONDS = 60
# A round's or countdown's timer due within this many seconds of its commit is queued at
# once; one due later is queued this far ahead of its time by beat's planner (every second,
# CELERY_BEAT_SCHEDULER below), if its step is still to come by then: most never are (the
# players' ready deals before the countdown runs out, everyone submits before the
# deadline). Large enough (an hour) it queues every timer at its commit
# (games.services.timers).
TIMER_HORIZON_SECONDS = env_int("TIMER_HORIZON_SECONDS", 4, minimum=3, maximum=3600)
# Threads (each with its database connection) per daphne process for websocket handshakes:
# the session's user and whether the table exists, a few short reads each (consumers.py).
HANDSHAKE_THREADS = env_int("HANDSHAKE_THREADS", 4, minimum=1, maximum=32)
# Set in benchmarks only: count every database query by the step that made it, into JSON
# files in this directory (games.querycount; benchmarks/bench_tables.py reads them).
QUERY_COUNT_DIR = env_str("QUERY_COUNT_DIR", "")
# How often (µs) a busy thread hands over the GIL in a daphne process (see asgi.py).
GIL_SWITCH_INTERVAL_US = env_int("GIL_SWITCH_INTERVAL_US", 1000, minimum=100, maximum=100_000)
# A table command slower than this (queueing included) is logged with where its time went.
SLOW_COMMAND_MS = env_int("SLOW_COMMAND_MS", 500, minimum=1, maximum=600_000)
# A table socket its server process has not renewed (it does every third of this) for
# this long is gone, and a seated player with no socket for this long is stood up at the
# next deal (docs/protocol.md promises 30 s; tests shorten it).
PRESENCE_TIMEOUT_SECONDS = env_int("PRESENCE_TIMEOUT_SECONDS", 30, minimum=2, maximum=600)

# --- Shared resources: how many tables one person may open, and for how long -----------
# Tables a person (not a bot) may have open at once, and open per rolling hour.
TABLES_OPEN_PER_USER = env_int("TABLES_OPEN_PER_USER", 3, minimum=1, maximum=1000)
TABLES_CREATED_PER_HOUR = env_int("TABLES_CREATED_PER_HOUR", 10, minimum=1, maximum=10_000)
# A table a person opened that has stayed empty this long is closed and leaves the lobby.
TABLE_EMPTY_CLOSE_MINUTES = env_int("TABLE_EMPTY_CLOSE_MINUTES", 10, minimum=1, maximum=10_080)
# The daily hand's seed hashes are published this many days before the day.
PRACTICE_DAILY_AHEAD_DAYS = env_int("PRACTICE_DAILY_AHEAD_DAYS", 7, minimum=1, maximum=60)
# A private table's invite link works this many hours unless the host revokes it first.
# Sit-and-go structure (docs/tournaments.md): each entrant's chips, the first level's stake
# per chi (later levels rise by the published multipliers), rounds per level, and how long
# a tournament that allows bots waits after its last registration before bots fill it.
TOURNAMENT_STARTING_STACK = env_int("TOURNAMENT_STARTING_STACK", 1000, minimum=10, maximum=10**7)
TOURNAMENT_FIRST_STAKE = env_int("TOURNAMENT_FIRST_STAKE", 10, minimum=1, maximum=10**6)
TOURNAMENT_LEVEL_ROUNDS = env_int("TOURNAMENT_LEVEL_ROUNDS", 4, minimum=1, maximum=100)
TOURNAMENT_BOT_WAIT_SECONDS = env_int("TOURNAMENT_BOT_WAIT_SECONDS", 60, minimum=1, maximum=3600)
# The tournament tables' clock (docs/rules.md#house-rules limits): arranging and each reveal.
TOURNAMENT_ARRANGE_SECONDS = env_int("TOURNAMENT_ARRANGE_SECONDS", 60, minimum=30, maximum=180)
TOURNAMENT_REVEAL_SECONDS = env_int("TOURNAMENT_REVEAL_SECONDS", 3, minimum=2, maximum=10)
# A player's first deal at a tournament table (the start, a move to another table, an
# arena's next board) waits until everyone newly seated there has the table open, or at
# most this long (a countdown the tournament page shows and sounds): nobody's clock runs
# before they could see it (docs/tournaments.md). At least 10 s: time to notice and go.
TOURNAMENT_JOIN_SECONDS = env_int("TOURNAMENT_JOIN_SECONDS", 15, minimum=10, maximum=120)
# The watchdog (tournaments.watchdog, docs/tournaments.md): a tournament that made no
# progress (a registration, the start, a settled round, a table step, a pairing, a board's
# points) for this long, past any time of its own (the bots' wait, an arena's start or
# end), is ended by the server: cancelled and refunded before its start, voided and
# refunded after it (an arena past its end: its stuck rounds voided, then finished and
# paid). Ten minutes is about eight of the slowest rounds a tournament table plays with
# nobody acting (60 s to arrange, the reveals, the countdown: ~75 s), so a slow round or a
# fault the sweeper recovers from never trips it; the floor of 5 minutes stays above a
# round at the slowest clock these settings allow (180 s to arrange, 10 s reveals, a 60 s
# countdown).
TOURNAMENT_STALL_MINUTES = env_int("TOURNAMENT_STALL_MINUTES", 10, minimum=5, maximum=10_080)
# How long a bot thinks before it submits, "low,high" seconds (bots.services.THINK_SECONDS
# unless set; the browser tests set it short).
if env_str("BOTS_THINK_SECONDS", ""):
    BOTS_THINK_SECONDS = tuple(float(s) for s in env_str("BOTS_THINK_SECONDS", "").split(",")[:2])
# Arenas (docs/tournaments.md): how long after its creation one starts by itself, how long
# two or three waiting players wait for more before they are seated together, how long a
# board's summary shows before its players go back to the queue, the boards committed at
# the creation (more are added as needed), and the countdown before an arena table deals.
ARENA_START_SECONDS = env_int("ARENA_START_SECONDS", 120, minimum=0, maximum=24 * 3600)
ARENA_PAIR_WAIT_SECONDS = env_int("ARENA_PAIR_WAIT_SECONDS", 10, minimum=0, maximum=120)
ARENA_SUMMARY_SECONDS = env_int("ARENA_SUMMARY_SECONDS", 6, minimum=0, maximum=60)
ARENA_BOARDS = env_int("ARENA_BOARDS", 40, minimum=1, maximum=400)
ARENA_START_COUNTDOWN = env_int("ARENA_START_COUNTDOWN", 5, minimum=5, maximum=60)
# The shortest arena the service accepts, when lower than the page's 3 minutes (the chaos
# harness, benchmarks/chaos/, runs a 2-minute arena inside its short run).
ARENA_MIN_MINUTES = env_int("ARENA_MIN_MINUTES", 3, minimum=1, maximum=3)

# Between rounds (games.services.between): how long a round's summary shows before the next
# deal, what one player's "wait" adds at a private table, and the most the deal can be put
# off after the round ended, whoever waits.
TABLE_SUMMARY_SECONDS = env_int("TABLE_SUMMARY_SECONDS", 12, minimum=3, maximum=60)
TABLE_WAIT_SECONDS = env_int("TABLE_WAIT_SECONDS", 20, minimum=5, maximum=120)
TABLE_WAIT_LIMIT_SECONDS = env_int("TABLE_WAIT_LIMIT_SECONDS", 60, minimum=10, maximum=600)

TABLE_INVITE_HOURS = env_int("TABLE_INVITE_HOURS", 24, minimum=1, maximum=24 * 30)
# How long the host can keep a free seat for an invited friend.
TABLE_SEAT_HOLD_MINUTES = env_int("TABLE_SEAT_HOLD_MINUTES", 5, minimum=1, maximum=120)
# Friend requests and table invitations one person may send per rolling hour
# (docs/social.md); repeated notices from one sender coalesce into one unread notification.
SOCIAL_REQUESTS_PER_HOUR = env_int("SOCIAL_REQUESTS_PER_HOUR", 20, minimum=1, maximum=10_000)
SOCIAL_INVITES_PER_HOUR = env_int("SOCIAL_INVITES_PER_HOUR", 30, minimum=1, maximum=10_000)
SOCIAL_CHALLENGES_PER_HOUR = env_int("SOCIAL_CHALLENGES_PER_HOUR", 30, minimum=1, maximum=10_000)
# A challenge to a heads-up table (docs/social.md#challenges) waits this long for an answer;
# one player has at most CHALLENGES_OPEN_PER_USER of them waiting at once.
CHALLENGE_EXPIRY_MINUTES = env_int("CHALLENGE_EXPIRY_MINUTES", 10, minimum=1, maximum=24 * 60)
CHALLENGES_OPEN_PER_USER = env_int("CHALLENGES_OPEN_PER_USER", 3, minimum=1, maximum=100)
# Tables per page of the lobby (the page and the lobby socket).
LOBBY_PAGE_SIZE = env_int("LOBBY_PAGE_SIZE", 50, minimum=5, maximum=500)

# --- Game economy ---------------------------------------------------------------------
HOUSE_FEE_PERCENT = env_decimal_percent("HOUSE_FEE_PERCENT", "0")
# Xu granted once at sign-up (the ledger grants it; the sign-up page and welcome say how much).
SIGNUP_GRANT_XU = 10_000
# How many new accounts from one client address receive the sign-up grant per Vietnamese
# calendar day (docs/ledger.md); later ones are created without it. 0: none at all.
SIGNUP_GRANTS_PER_ADDRESS_PER_DAY = env_int(
    "SIGNUP_GRANTS_PER_ADDRESS_PER_DAY", 3, minimum=0, maximum=10_000
)

# --- Moderation -------------------------------------------------------------------------
# A player may dispute a round this many days after it ended.
MODERATION_DISPUTE_WINDOW_DAYS = env_int(
    "MODERATION_DISPUTE_WINDOW_DAYS", 7, minimum=1, maximum=365
)

# --- Table talk (docs/chat.md) ----------------------------------------------------------
# Messages are kept for the dispute window (a dispute can cite them), then deleted by the
# hourly "chat-delete-expired" beat task; those an open case carries stay until it closes.
CHAT_RETENTION_DAYS = env_int(
    "CHAT_RETENTION_DAYS",
    MODERATION_DISPUTE_WINDOW_DAYS,
    minimum=MODERATION_DISPUTE_WINDOW_DAYS,
    maximum=365,
)
CHAT_MAX_LENGTH = env_int("CHAT_MAX_LENGTH", 200, minimum=1, maximum=400)
# At most CHAT_RATE_LIMIT messages and reactions per user and table in any
# CHAT_RATE_WINDOW_SECONDS, counted in the shared cache (Redis) across server processes.
CHAT_RATE_LIMIT = env_int("CHAT_RATE_LIMIT", 5, minimum=1, maximum=100)
CHAT_RATE_WINDOW_SECONDS = env_int("CHAT_RATE_WINDOW_SECONDS", 10, minimum=1, maximum=3600)
# Messages a socket gets on connect; how soon a block made elsewhere applies to a socket.
CHAT_HISTORY = 50
CHAT_HIDDEN_REFRESH_SECONDS = 5.0
# No compensation and no re-settlement moves more than this (a validation message above it).
MODERATION_AMOUNT_MAX_XU = env_int(
    "MODERATION_AMOUNT_MAX_XU", 1_000_000, minimum=1, maximum=1_000_000_000_000
)
# What a moderator pays alone, per payment and per rolling 24 hours, unless an admin set
# their own limit; above it an admin approves (docs/moderation.md, separation of duties).
MODERATION_COMPENSATION_LIMIT_XU = env_int(
    "MODERATION_COMPENSATION_LIMIT_XU", 5_000, minimum=0, maximum=1_000_000_000_000
)
MODERATION_COMPENSATION_DAILY_LIMIT_XU = env_int(
    "MODERATION_COMPENSATION_DAILY_LIMIT_XU", 20_000, minimum=0, maximum=1_000_000_000_000
)
# An admin's own payments above this (per payment and per rolling 24 hours) need a second admin.
MODERATION_ADMIN_SOLO_LIMIT_XU = env_int(
    "MODERATION_ADMIN_SOLO_LIMIT_XU", 50_000, minimum=0, maximum=1_000_000_000_000
)

# --- Profiles and leaderboards (docs/profiles.md) --------------------------------------
# An uploaded avatar above this size is refused; what is kept is a WebP this many pixels wide.
PROFILES_AVATAR_MAX_BYTES = env_int(
    "PROFILES_AVATAR_MAX_BYTES", 2 * 1024 * 1024, minimum=10_240, maximum=10 * 1024 * 1024
)
PROFILES_AVATAR_PIXELS = 256
# How long a leaderboard (and a player's rank on it) is served from the cache.
PROFILES_BOARD_CACHE_SECONDS = env_int("PROFILES_BOARD_CACHE_SECONDS", 60, minimum=0, maximum=3600)
# Players shown on each board.
PROFILES_BOARD_SIZE = 20

# --- Production security (checked by `manage.py check --deploy`) ----------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Off only for a production-mode server on plain HTTP (the integration tests).
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = env_bool(
        "SECURE_COOKIES", True
    )
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000, minimum=0, maximum=63_072_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts only from this site as files (ES modules
# and the translation catalogue; no inline script, no inline event handler, no eval), the
# websocket to this site, no frames, no plugins. Style attributes stay allowed (the
# Django admin and a few templates set them); style sheets come from this site only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Logging: one line per event; round/table ids are added where they exist ---------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"game_context": {"()": "core.logcontext.GameContextFilter"}},
    "formatters": {
        "line": {
            "format": "%(asctime)s %(levelname)s %(name)s%(game_context)s %(message)s",
        }
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["game_context"],
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.request": {"level": "WARNING"},
        "daphne": {"level": "INFO"},
        "maubinh_site.prefork": {"level": "INFO"},  # each serving process forked, and why
        "celery": {"level": env_str("CELERY_LOG_LEVEL", "WARNING")},
        "celery.apps.worker": {"level": "INFO"},  # "ready." and shutdown lines
        "axes": {"level": "WARNING"},
    },
}

# The open API (docs/api.md#limits): requests per window per token and per account,
# concurrent streams per token and per account, over which the answer is 429 with
# Retry-After; a stream's lease lasts this long unless renewed (api.limits).
API_RATE_WINDOW_SECONDS = env_int("API_RATE_WINDOW_SECONDS", 60, minimum=1, maximum=3600)
API_REQUESTS_PER_TOKEN = env_int("API_REQUESTS_PER_TOKEN", 300, minimum=1, maximum=1_000_000)
API_REQUESTS_PER_ACCOUNT = env_int("API_REQUESTS_PER_ACCOUNT", 600, minimum=1, maximum=1_000_000)
API_STREAMS_PER_TOKEN = env_int("API_STREAMS_PER_TOKEN", 8, minimum=1, maximum=1000)
API_STREAMS_PER_ACCOUNT = env_int("API_STREAMS_PER_ACCOUNT", 8, minimum=1, maximum=1000)
API_STREAM_LEASE_SECONDS = env_int("API_STREAM_LEASE_SECONDS", 60, minimum=5, maximum=3600)
API_STREAM_RETRY_SECONDS = env_int("API_STREAM_RETRY_SECONDS", 10, minimum=1, maximum=3600)
# Rounds a third-party bot account may play per Vietnamese day (docs/api.md#bot-accounts).
API_BOT_ROUNDS_PER_DAY = env_int("API_BOT_ROUNDS_PER_DAY", 500, minimum=1, maximum=1_000_000)
# OAuth 2 (django-oauth-toolkit): the authorization-code flow with PKCE, S256 only; access
# tokens carry the API's scopes (api.models.Scope).
OAUTH2_PROVIDER = {
    "SCOPES": {
        "read": "Read your profile, balance, statement and history",
        "play": "Play at tables as yourself",
        "bot:play": "Play as a bot account",
        "tournament": "Register for and withdraw from tournaments",
        "export": "Export your rounds",
    },
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    # RFC 9700 throughout (manage.py check --deploy passes with no warning): tokens only
    # in the Authorization header, the `iss` parameter in authorization responses, tokens
    # stored as SHA-256 checksums (api/auth.py looks them up by checksum), a replayed
    # refresh token revokes its whole family, redirect URIs over https only, matched
    # exactly, PKCE required.
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    "REFRESH_TOKEN_EXPIRE_SECONDS": 30 * 24 * 3600,
    "ROTATE_REFRESH_TOKEN": True,
}
