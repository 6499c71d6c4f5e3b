"""The site's settings for the servers the tests start that people log in to with a
password: production's (maubinh_site.settings), except that passwords are hashed fast, as
the in-process tests hash them (tests/settings.py). PBKDF2's million iterations cost 0.6 s
of CPU a login on the test machine, hundreds of times a run; Django's own advice for tests.
PBKDF2 hashes still verify, and the users the tests make in-process log in as they are."""

from django.conf import global_settings

from maubinh_site.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
