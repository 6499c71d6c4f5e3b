"""Collusion signals: repeated pairs, shared addresses, one player losing to another."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services as games
from moderation import selectors, services
from moderation.models import SeatIP, UserIP
from tests.moderation.conftest import play_round

pytestmark = pytest.mark.django_db


def test_the_middleware_records_a_users_address_once_per_change(
    client: Any, players: list[Any]
) -> None:
    client.force_login(players[0])
    client.get(reverse("moderation:my_cases"), REMOTE_ADDR="10.0.0.7")
    client.get(reverse("moderation:my_cases"), REMOTE_ADDR="10.0.0.7")
    assert UserIP.objects.get(user=players[0]).ip == "10.0.0.7"


def test_two_accounts_seated_from_one_address_are_a_signal(players: list[Any], table: Any) -> None:
    for p in players[:2]:
        services.record_user_ip(p, "192.0.2.1")
    services.record_user_ip(players[2], "192.0.2.99")
    for p in players[:3]:
        games.sit(p, table.pk)
    services.record_seat_ips(table.pk)
    assert SeatIP.objects.count() == 3
    assert selectors.shared_addresses() == [
        {"table": table.pk, "ip": "192.0.2.1", "users": ["an", "binh"]}
    ]


def test_a_burst_of_seat_changes_enqueues_one_address_recording_and_a_later_one_another(
    players: list[Any], table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import cache

    from games.signals import seat_changed
    from moderation import tasks
    from moderation.receivers import seat_ips_pending_key

    cache.delete(seat_ips_pending_key(table.pk))
    seen: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        tasks.record_seat_ips_task, "apply_async", lambda args, **kw: seen.append((*args, kw))
    )
    for _ in range(4):  # four players sit down together
        seat_changed.send(sender=None, table_id=table.pk)
    assert seen == [(table.pk, {"countdown": 2})]
    tasks.record_seat_ips_task(table.pk)  # the recording runs: a change after it is new
    seat_changed.send(sender=None, table_id=table.pk)
    assert len(seen) == 2


def test_a_player_seated_while_the_recording_waits_is_recorded(
    players: list[Any],
    table: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.core.cache import cache

    from moderation import tasks
    from moderation.receivers import seat_ips_pending_key

    cache.delete(seat_ips_pending_key(table.pk))
    pending: list[int] = []
    monkeypatch.setattr(
        tasks.record_seat_ips_task, "apply_async", lambda args, **kw: pending.append(*args)
    )
    for i, p in enumerate(players[:3]):
        services.record_user_ip(p, f"192.0.2.{i + 1}")
        with django_capture_on_commit_callbacks(execute=True):
            games.sit(p, table.pk)
    assert pending == [table.pk]  # one recording for the three
    tasks.record_seat_ips_task(table.pk)
    assert SeatIP.objects.filter(table_id=table.pk).count() == 3


def test_repeated_pairs_and_steady_losses_are_listed_for_review(
    client: Any, players: list[Any], table: Any, moderator: Any
) -> None:
    for _ in range(3):
        play_round(players, table)
    pairs = selectors.frequent_pairs(min_rounds=3)
    assert pairs == [{"table": table.pk, "a": "an", "b": "binh", "rounds": 3}]
    dumping = selectors.chip_dumping(min_rounds=1, share=0.0)
    assert dumping and {dumping[0]["loser"], dumping[0]["winner"]} == {"an", "binh"}
    client.force_login(moderator)
    assert client.get(reverse("moderation:signals")).status_code == 200
