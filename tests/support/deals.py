"""Deals a test can count on: the rounds' seeds drawn from a seeded random source, so an
in-process deal gives the same cards every run."""

from __future__ import annotations

import random

import pytest

from games.services import common


def seeded_deals(monkeypatch: pytest.MonkeyPatch, seed: int = 20261129) -> None:
    rng = random.Random(seed)
    monkeypatch.setattr(common, "new_server_seed", lambda: f"{rng.getrandbits(256):064x}")
    monkeypatch.setattr(common, "new_client_seed", lambda: f"{rng.getrandbits(64):016x}")
