"""The floor relay's settings: the site's Redis channel layer and nothing else (no database,
no apps, no Celery)."""

from __future__ import annotations

import os

SECRET_KEY = "the-floor-relay-has-no-secrets"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS: list[str] = []
USE_TZ = True
REDIS_URL = os.environ["REDIS_URL"]
REDIS_PREFIX = os.environ["REDIS_PREFIX"]
# maubinh_site.settings's layer, with the same configuration.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "maubinh_site.channel_layer.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_PREFIX}:"},
    }
}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
