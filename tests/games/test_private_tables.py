"""Private tables: invite links, who may come in, seats held for friends, the host's removals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.errors import GameError, SeatError
from games.models import Seat, Table
from games.services import private

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(players) -> Table:  # type: ignore[no-untyped-def]
    return services.open_table(players[0], name="Nhà riêng", stake=10, is_private=True)


def test_a_private_table_is_absent_from_the_lobby(players, private_table) -> None:
    rows, _page = selectors.lobby_page()
    assert private_table.pk not in [row["id"] for row in rows]
    assert private_table not in selectors.joinable_tables(10_000)


def test_nobody_sits_at_a_private_table_without_an_invite(players, private_table) -> None:
    with pytest.raises(SeatError) as refused:
        services.sit(players[1], private_table.pk)
    assert refused.value.code == "private_table"


def test_an_invite_link_lets_a_player_in_and_sit(players, private_table) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    assert len(invite.token) >= 32
    seat = private.sit_by_invite(players[1], invite.token)
    assert seat.table_id == private_table.pk


def test_a_revoked_invite_link_is_refused(players, private_table) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.revoke_invite(players[0], invite.pk)
    with pytest.raises(GameError) as refused:
        private.admit(players[1], invite.token)
    assert refused.value.code == "invite_revoked"


def test_revoking_a_link_shuts_out_those_it_let_in_who_have_not_sat(players, private_table) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.admit(players[1], invite.token)
    assert selectors.may_enter(private_table, players[1])
    private.revoke_invite(players[0], invite.pk)
    assert not selectors.may_enter(private_table, players[1])


def test_an_expired_invite_link_is_refused(players, private_table, settings) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    invite.expires_at = timezone.now() - timedelta(seconds=1)
    invite.save(update_fields=["expires_at"])
    with pytest.raises(GameError) as refused:
        private.admit(players[1], invite.token)
    assert refused.value.code == "invite_expired"


def test_only_the_host_makes_invite_links(players, private_table) -> None:
    with pytest.raises(GameError) as refused:
        private.create_invite(players[1], private_table.pk)
    assert refused.value.code == "not_host"


def test_the_longest_seated_player_hosts_when_the_creator_leaves(players, private_table) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.sit_by_invite(players[1], invite.token)
    private.sit_by_invite(players[2], invite.token)
    services.stand(players[0])
    assert selectors.acting_host_id(private_table) == players[1].pk
    private.create_invite(players[1], private_table.pk)  # the powers came with it


def test_a_held_seat_is_kept_for_the_friend_alone(players) -> None:
    table = services.open_table(players[0], name="Hai người", stake=10, seats=2)
    private.hold_seat(players[0], table.pk, players[1])
    with pytest.raises(SeatError) as refused:
        services.sit(players[2], table.pk)
    assert refused.value.code == "seat_held"
    services.sit(players[1], table.pk)
    assert not table.holds.exists()


def test_a_held_seat_lets_the_friend_into_a_private_table(players, private_table) -> None:
    private.hold_seat(players[0], private_table.pk, players[1])
    assert selectors.may_enter(private_table, players[1])
    services.sit(players[1], private_table.pk)


def test_a_hold_past_its_time_frees_the_seat(players) -> None:
    table = services.open_table(players[0], name="Hai người", stake=10, seats=2)
    hold = private.hold_seat(players[0], table.pk, players[1])
    hold.until = timezone.now() - timedelta(seconds=1)
    hold.save(update_fields=["until"])
    services.sit(players[2], table.pk)


def test_the_host_removes_a_player_between_rounds_and_they_stay_out(players, private_table) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.sit_by_invite(players[1], invite.token)
    private.remove_player(players[0], private_table.pk, players[1].pk)
    assert not Seat.objects.filter(user=players[1]).exists()
    with pytest.raises(GameError) as refused:
        private.admit(players[1], invite.token)
    assert refused.value.code == "removed_by_host"


def test_the_host_cannot_remove_a_player_during_a_round(players, private_table) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.sit_by_invite(players[1], invite.token)
    services.start_round(players[0], private_table.pk)
    with pytest.raises(GameError) as refused:
        private.remove_player(players[0], private_table.pk, players[1].pk)
    assert refused.value.code == "round_in_progress"
    assert Seat.objects.filter(user=players[1], table=private_table).exists()


def test_a_staff_member_may_enter_a_private_table(players, private_table) -> None:
    players[3].is_staff = True
    players[3].save(update_fields=["is_staff"])
    assert selectors.may_enter(private_table, players[3])
