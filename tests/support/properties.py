"""Hypothesis settings for properties over database rows."""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def on_the_database(max_examples: int) -> settings:
    """No deadline (a query takes what it takes, and the machine is shared) and fixtures of
    the test's own scope allowed: the examples share them, as the property means."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
