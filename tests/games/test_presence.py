"""Presence: open sockets are rows renewed by their heartbeat; a dead one expires."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games import events, services
from games.models import Connection, Seat, Table
from games.selectors import table_snapshot
from games.services.common import lock_table
from games.services.presence import AWAY_AFTER, CONNECTION_TTL

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """The table events the services publish (on commit), in order."""
    sent: list[dict] = []
    monkeypatch.setattr(events, "publish", lambda group, payload, **kw: sent.append(payload))
    return sent


def _presence(published: list[dict]) -> list[tuple[int, bool]]:
    return [(e["position"], e["online"]) for e in published if e["type"] == "presence"]


def _silent_for(connection_id: uuid.UUID, seconds: float) -> None:
    """As if this socket's process died ``seconds`` ago (its heartbeat stopped then)."""
    Connection.objects.filter(pk=connection_id).update(
        seen_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_dropped_connection_keeps_the_seat_and_the_table_sees_it_go_and_come_back(
    players, table, published
):
    services.sit(players[0], table.pk)
    first, second = uuid.uuid4(), uuid.uuid4()
    services.connected(players[0], table.pk, first)
    services.disconnected(players[0], table.pk, first)
    services.connected(players[0], table.pk, second)
    assert Seat.objects.filter(user=players[0]).exists()
    assert _presence(published) == [(0, True), (0, False), (0, True)]


def test_a_second_tab_closing_leaves_the_player_online(players, table, published):
    services.sit(players[0], table.pk)
    tab1, tab2 = uuid.uuid4(), uuid.uuid4()
    services.connected(players[0], table.pk, tab1)
    services.connected(players[0], table.pk, tab2)
    services.disconnected(players[0], table.pk, tab1)
    assert _presence(published) == [(0, True)]
    assert table_snapshot(table, players[0])["seats"][0]["online"] is True


def test_a_socket_whose_server_died_expires_and_the_table_is_told_the_player_went_offline(
    players, table, published
):
    services.sit(players[0], table.pk)
    dead = uuid.uuid4()
    services.connected(players[0], table.pk, dead)
    _silent_for(dead, CONNECTION_TTL.total_seconds() - 2)
    assert services.expire_connections() == 0
    _silent_for(dead, CONNECTION_TTL.total_seconds() + 1)
    assert services.expire_connections() == 1
    assert services.expire_connections() == 0  # told once
    assert _presence(published) == [(0, True), (0, False)]
    table.refresh_from_db()
    assert table_snapshot(table, players[0])["seats"][0]["online"] is False


def test_a_heartbeat_keeps_a_connection_alive(players, table):
    services.sit(players[0], table.pk)
    socket = uuid.uuid4()
    services.connected(players[0], table.pk, socket)
    _silent_for(socket, CONNECTION_TTL.total_seconds() + 1)
    services.heard_from(players[0], table.pk, socket)
    assert services.expire_connections() == 0
    assert Connection.objects.filter(pk=socket).exists()


def test_a_heartbeat_after_the_socket_was_dropped_brings_the_player_back_online(
    players, table, published
):
    services.sit(players[0], table.pk)
    socket = uuid.uuid4()
    services.connected(players[0], table.pk, socket)
    _silent_for(socket, CONNECTION_TTL.total_seconds() + 1)
    services.expire_connections()
    services.heard_from(players[0], table.pk, socket)
    assert _presence(published) == [(0, True), (0, False), (0, True)]


def test_sitting_again_does_not_count_the_player_present_twice(players, table, published):
    socket = uuid.uuid4()
    services.connected(players[0], table.pk, socket)
    services.sit(players[0], table.pk)
    services.sit(players[0], table.pk)  # a repeated sit
    services.disconnected(players[0], table.pk, socket)
    assert table_snapshot(table, players[1])["seats"][0]["online"] is False
    assert _presence(published) == [(0, False)]


def _deal_with_silent(players, table, seconds: float) -> list[int]:
    sockets = [uuid.uuid4() for _ in players[:3]]
    for player, socket in zip(players[:3], sockets, strict=True):
        services.sit(player, table.pk)
        services.connected(player, table.pk, socket)
    # The third player's server was killed: no close, no disconnect, just silence.
    Seat.objects.filter(user=players[2]).update(last_seen_at=timezone.now() - timedelta(minutes=5))
    _silent_for(sockets[2], seconds)
    round_ = services.start_round(players[0], table.pk)
    return sorted(round_.players.values_list("user_id", flat=True))


def test_a_player_whose_server_died_is_stood_up_at_the_first_deal_after_30_s(players, table):
    dealt = _deal_with_silent(players, table, AWAY_AFTER.total_seconds() + 1)
    assert dealt == [players[0].pk, players[1].pk]
    assert not Seat.objects.filter(user=players[2]).exists()


def test_a_player_silent_for_less_than_30_s_is_still_dealt_in(players, table):
    dealt = _deal_with_silent(players, table, AWAY_AFTER.total_seconds() - 5)
    assert players[2].pk in dealt


def test_a_player_who_closed_the_page_30_s_ago_is_stood_up_at_the_next_deal(players, table):
    for p in players[:3]:
        services.sit(p, table.pk)
    Seat.objects.filter(user=players[2]).update(last_seen_at=timezone.now() - timedelta(minutes=5))
    round_ = services.start_round(players[0], table.pk)
    assert players[2].pk not in round_.players.values_list("user_id", flat=True)
    assert not Seat.objects.filter(user=players[2]).exists()


def test_a_server_renewing_its_open_sockets_keeps_quiet_players_present(players, table):
    quiet, gone = uuid.uuid4(), uuid.uuid4()
    services.connected(players[0], table.pk, quiet)
    services.connected(players[1], table.pk, gone)
    _silent_for(quiet, CONNECTION_TTL.total_seconds() + 1)
    _silent_for(gone, CONNECTION_TTL.total_seconds() + 1)
    services.renew_connections({quiet: (players[0].pk, table.pk)})
    services.expire_connections()
    assert set(Connection.objects.values_list("pk", flat=True)) == {quiet}


def test_a_server_that_stalled_past_the_timeout_brings_its_sockets_back(players, table, published):
    services.sit(players[0], table.pk)
    socket = uuid.uuid4()
    services.connected(players[0], table.pk, socket)
    _silent_for(socket, CONNECTION_TTL.total_seconds() + 1)
    services.expire_connections()
    services.renew_connections({socket: (players[0].pk, table.pk)})
    assert Connection.objects.filter(pk=socket).exists()
    assert _presence(published) == [(0, True), (0, False), (0, True)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_table_locked_by_a_stuck_worker_does_not_stall_the_expiry_of_other_tables(players, table):
    import threading

    from django.db import connection, transaction

    other = services.create_table(players[1], name="Bàn khác", stake=10)
    for t, player in ((table, players[0]), (other, players[1])):
        services.sit(player, t.pk)
        socket = uuid.uuid4()
        services.connected(player, t.pk, socket)
        _silent_for(socket, CONNECTION_TTL.total_seconds() + 1)
    locked, release = threading.Event(), threading.Event()

    def stuck_worker() -> None:
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=table.pk)
            locked.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=stuck_worker)
    holder.start()
    locked.wait(5)
    try:
        started = time.monotonic()
        assert services.expire_connections() == 1  # the other table's player
        assert time.monotonic() - started < 2
    finally:
        release.set()
        holder.join()
    assert services.expire_connections() == 1  # and this one, at the next sweep


@contextlib.contextmanager
def _table_locked_elsewhere(table: Table) -> Iterator[None]:
    """Another connection holds the table's lock (a long command) for the block; this one
    waits at most 300 ms for any lock, so a wait for the table's fails the test."""
    locked, release = threading.Event(), threading.Event()

    def command() -> None:
        with transaction.atomic():
            lock_table(table.pk)
            locked.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=command)
    holder.start()
    assert locked.wait(5)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '300ms'")
        yield
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_spectator_coming_and_going_never_waits_for_the_tables_lock(players, table, published):
    socket = uuid.uuid4()
    with _table_locked_elsewhere(table):
        services.connected(players[2], table.pk, socket)
        assert Connection.objects.filter(pk=socket).exists()
        services.disconnected(players[2], table.pk, socket)
    assert not Connection.objects.exists()
    assert _presence(published) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_player_back_while_their_dead_servers_socket_is_unexpired_does_not_wait_for_the_lock(
    players, table, published
):
    services.sit(players[0], table.pk)
    dead, back = uuid.uuid4(), uuid.uuid4()
    services.connected(players[0], table.pk, dead)
    _silent_for(dead, CONNECTION_TTL.total_seconds() - 5)  # its server was killed
    with _table_locked_elsewhere(table):
        services.connected(players[0], table.pk, back)
    assert _presence(published) == [(0, True)]  # never shown offline: nothing to announce
    _silent_for(dead, CONNECTION_TTL.total_seconds() + 1)
    assert services.expire_connections() == 0  # the new socket keeps the player online
    assert table_snapshot(table, players[0])["seats"][0]["online"] is True


def test_a_ping_tells_the_table_version_so_a_client_behind_a_lost_broadcast_finds_out(
    players, table, published
):
    services.sit(players[0], table.pk)
    socket = uuid.uuid4()
    services.connected(players[0], table.pk, socket)
    table.refresh_from_db()
    assert services.heard_from(players[0], table.pk, socket) == table.version
    # A change committed whose broadcast never left (its server died right after the
    # commit): nothing was published, and the next ping says where the table is.
    sent = len(published)
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    assert services.heard_from(players[0], table.pk, socket) == table.version + 1
    assert len(published) == sent
    # The same from a socket whose row the sweeper had dropped (it is opened again).
    _silent_for(socket, CONNECTION_TTL.total_seconds() + 1)
    services.expire_connections()
    told = services.heard_from(players[0], table.pk, socket)
    table.refresh_from_db()  # the player's presence moved it on: offline, then online
    assert told == table.version
    assert Connection.objects.filter(pk=socket).exists()
