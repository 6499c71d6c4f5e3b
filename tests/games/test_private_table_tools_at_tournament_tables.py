"""A tournament's table (sit-and-go or arena: ``Table.is_managed``) has no host: every
host tool and every invitation is refused there, and its page shows none (issue 24: the
creator of a sit-and-go, seated and so the table's host, stood two entrants up with their
chips and the tournament could never finish)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games import selectors
from games import services as games
from games.errors import GameError
from games.models import Seat, SeatHold, Table, TableInvite
from games.services import private
from tests.support.arenas import start_arena
from tournaments.models import Tournament
from tournaments.sitandgo import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

MANAGED = (
    "Đây là bàn của một giải đấu: giải xếp chỗ và chia bài, nên bàn không có chủ bàn, "
    "không có lời mời và không giữ chỗ."
)


@pytest.fixture
def sit_and_go(players: list[Any]) -> tuple[Tournament, Table]:
    t = services.create_sit_and_go(players[0], name="Tối nay", players=4, buy_in=100)
    for user in players[1:]:
        services.register(user, t.pk)
    link = t.tables.get()
    return t, link.table


def _messages(response: Any) -> list[str]:
    """The messages the page the request led to showed (``follow=True``)."""
    assert response.redirect_chain, "the action redirects to a page"
    return [str(m) for m in response.context["messages"]]


def test_the_creator_seated_at_a_sit_and_go_table_cannot_remove_its_entrants(
    client, players, sit_and_go
) -> None:
    """The reproduction: the creator POSTs the host tools' remove against two entrants."""
    _t, table = sit_and_go
    assert table.host_id == players[0].pk
    assert Seat.objects.filter(table=table, user=players[0]).exists()
    client.force_login(players[0])
    for victim in players[1:3]:
        response = client.post(
            reverse("games:host_tools", kwargs={"table_id": table.pk}),
            {"action": "remove", "user": str(victim.pk)},
            follow=True,
        )
        assert _messages(response) == [MANAGED]
    assert set(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == {
        p.pk for p in players
    }


def test_no_host_tool_works_at_a_tournament_table(client, players, sit_and_go) -> None:
    _t, table = sit_and_go
    friend = players[1]
    client.force_login(players[0])
    host_page = reverse("games:host_tools", kwargs={"table_id": table.pk})
    response = client.get(host_page, follow=True)
    assert response.redirect_chain[-1][0] == f"/tables/{table.pk}/"
    assert _messages(response) == [MANAGED]
    client.post(host_page, {"action": "new_invite"})
    assert not TableInvite.objects.filter(table=table).exists()
    client.post(host_page, {"action": "hold", "username": friend.username})
    assert not SeatHold.objects.filter(table=table).exists()
    for call in (
        lambda: private.create_invite(players[0], table.pk),
        lambda: private.current_invite(players[0], table.pk),
        lambda: private.hold_seat(players[0], table.pk, friend),
        lambda: private.release_hold(players[0], table.pk, friend.pk),
        lambda: private.remove_player(players[0], table.pk, friend.pk),
        lambda: games.start_round(players[0], table.pk),
    ):
        with pytest.raises(GameError) as refused:
            call()
        assert refused.value.code == "managed_table"
    assert selectors.acting_host_id(table) is None
    assert not selectors.is_acting_host(table, players[0])


def test_a_link_made_for_a_tournament_table_lets_nobody_in(make_user, players, sit_and_go) -> None:
    """A link that exists anyway (made before the table was managed) is refused, and its
    revocation too (nobody hosts the table)."""
    _t, table = sit_and_go
    invite = TableInvite.objects.create(
        table=table,
        token="x" * 32,
        created_by=players[0],
        expires_at=timezone.now() + timedelta(hours=1),
    )
    outsider = make_user("khach")
    for call in (
        lambda: private.usable_invite(invite.token),
        lambda: private.admit(outsider, invite.token),
        lambda: private.sit_by_invite(outsider, invite.token),
        lambda: private.revoke_invite(players[0], invite.pk),
    ):
        with pytest.raises(GameError) as refused:
            call()
        assert refused.value.code == "managed_table"
    assert not Seat.objects.filter(user=outsider).exists()


def test_the_tournament_table_page_shows_no_host_tools_and_its_snapshot_no_host(
    client, players, sit_and_go
) -> None:
    _t, table = sit_and_go
    client.force_login(players[0])
    page = client.get(reverse("games:table", kwargs={"table_id": table.pk})).content.decode()
    assert 'data-testid="host-tools-link"' not in page
    snapshot = selectors.table_snapshot(table, players[0])
    assert snapshot["info"]["acting_host_id"] is None


@override_settings(ARENA_PAIR_WAIT_SECONDS=0)
def test_an_arena_table_refuses_the_host_tools_too(players) -> None:
    t = start_arena(players, name="Đấu trường", minutes=5, buy_in=0)
    table = t.tables.first().table  # type: ignore[union-attr]
    seated = list(Seat.objects.filter(table=table).values_list("user_id", flat=True))
    with pytest.raises(GameError) as refused:
        private.remove_player(players[0], table.pk, next(u for u in seated if u != players[0].pk))
    assert refused.value.code == "managed_table"
    assert Seat.objects.filter(table=table).count() == len(seated)


def test_an_ordinary_tables_host_keeps_every_tool(players) -> None:
    table = games.open_table(players[0], name="Bàn An", stake=10)
    assert private.create_invite(players[0], table.pk).table_id == table.pk
    assert selectors.acting_host_id(table) == players[0].pk
