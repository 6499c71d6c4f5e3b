"""Test settings: the real site settings, on PostgreSQL and Redis whenever they are reachable."""

import os

os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-0123456789abcdefghij")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")

from tests.support.services import POSTGRES_MISSING, TEST_DATABASE_URL

if POSTGRES_MISSING is None:
    os.environ["DATABASE_URL"] = TEST_DATABASE_URL
else:
    os.environ["DATABASE_URL"] = "sqlite:///:memory:"
# The default suite runs embedded (in-memory layer, memory:// broker); tests that need
# Redis build their own settings from TEST_REDIS_URL.
os.environ.pop("REDIS_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)

from maubinh_site.settings import *  # noqa: F403

# Fast hashing in-process; PBKDF2 stays available for users that real servers log in.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
