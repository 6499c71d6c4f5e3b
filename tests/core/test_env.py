"""Settings read from the environment: a bad value stops the site at start-up, named."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.env import env_float, env_float_or_auto, env_int


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("fast", "DEALS_PER_SECOND: expected a number, got 'fast'"),
        ("-1", "DEALS_PER_SECOND: must be between 0.0 and 10000.0, got -1.0"),
        ("nan", "DEALS_PER_SECOND: must be between 0.0 and 10000.0, got nan"),
    ],
)
def test_a_deal_pacing_rate_that_is_not_a_rate_stops_the_site_at_start_up(
    raw: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEALS_PER_SECOND", raw)
    with pytest.raises(ImproperlyConfigured, match=re.escape(message)):
        env_float("DEALS_PER_SECOND", 0.0, minimum=0.0, maximum=10000.0)


def test_numbers_in_range_are_read_and_an_unset_one_takes_its_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEALS_PER_SECOND", "12.5")
    monkeypatch.setenv("TABLE_COMMAND_THREADS", "8")
    monkeypatch.delenv("HANDSHAKE_THREADS", raising=False)
    assert env_float("DEALS_PER_SECOND", 0.0, minimum=0.0, maximum=100.0) == 12.5
    assert env_int("TABLE_COMMAND_THREADS", 16, minimum=1, maximum=64) == 8
    assert env_int("HANDSHAKE_THREADS", 4, minimum=1, maximum=64) == 4
    monkeypatch.setenv("TABLE_COMMAND_THREADS", "8.5")
    with pytest.raises(ImproperlyConfigured, match="expected a whole number"):
        env_int("TABLE_COMMAND_THREADS", 16, minimum=1, maximum=64)


@pytest.mark.parametrize(
    ("raw", "read"), [(None, None), ("auto", None), (" Auto ", None), ("0", 0.0), ("16", 16.0)]
)
def test_a_rate_left_unset_or_auto_is_worked_out_by_the_site_and_a_number_is_kept(
    raw: str | None, read: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if raw is None:
        monkeypatch.delenv("DEALS_PER_SECOND", raising=False)
    else:
        monkeypatch.setenv("DEALS_PER_SECOND", raw)
    assert env_float_or_auto("DEALS_PER_SECOND", minimum=0.0, maximum=100.0) == read


def test_a_rate_that_is_neither_auto_nor_a_number_stops_the_site_at_start_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEALS_PER_SECOND", "automatic")
    with pytest.raises(ImproperlyConfigured, match="DEALS_PER_SECOND: expected a number"):
        env_float_or_auto("DEALS_PER_SECOND", minimum=0.0, maximum=100.0)
