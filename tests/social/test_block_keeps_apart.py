"""A block keeps two people apart, whoever blocked whom: no seat at a table where the other
sits, no watching or entering a private table the other hosts or created, no invitation
either way. The blocked player is told nothing more than "You cannot join this table."."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games import selectors
from games import services as games
from games.errors import GameError, SeatError
from games.models import Seat, Table
from games.services import private
from social import services
from social.errors import SocialError

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

BOTH_WAYS = pytest.mark.parametrize("who_blocks", ["the host", "the guest"])


def _block(who_blocks: str, host: Any, guest: Any) -> None:
    if who_blocks == "the host":
        services.block_user(host, guest)
    else:
        services.block_user(guest, host)


@pytest.fixture
def private_table(people) -> Table:  # type: ignore[no-untyped-def]
    """An's private table, An seated."""
    return games.open_table(people[0], name="Nhà An", stake=10, is_private=True)


def test_someone_the_host_blocked_cannot_enter_by_the_hosts_link_and_is_told_nothing_more(
    people, private_table
) -> None:
    an, binh, _chi = people
    services.block_user(an, binh)
    link = private.create_invite(an, private_table.pk)
    for enter in (private.admit, private.sit_by_invite):
        with translation.override("en"), pytest.raises(GameError) as refused:
            enter(binh, link.token)
        assert refused.value.message == "You cannot join this table."
        assert "block" not in refused.value.code
    with translation.override("vi"), pytest.raises(GameError) as refused:
        private.admit(binh, link.token)
    assert refused.value.message == "Bạn không thể vào bàn này."
    assert not selectors.may_enter(private_table, binh)
    assert not Seat.objects.filter(user=binh).exists()


def test_someone_who_blocked_the_host_cannot_enter_by_the_hosts_link_and_is_told_why(
    people, private_table
) -> None:
    an, binh, _chi = people
    services.block_user(binh, an)
    link = private.create_invite(an, private_table.pk)
    with translation.override("en"), pytest.raises(GameError) as refused:
        private.sit_by_invite(binh, link.token)
    assert refused.value.message == "You blocked an, the host of this table."
    assert not Seat.objects.filter(user=binh).exists()


@BOTH_WAYS
def test_a_guest_let_in_before_a_block_can_no_longer_watch_or_sit(
    client, people, private_table, who_blocks
) -> None:
    an, binh, _chi = people
    link = private.create_invite(an, private_table.pk)
    private.admit(binh, link.token)
    _block(who_blocks, an, binh)
    assert not selectors.may_enter(private_table, binh)
    client.force_login(binh)
    page = client.get(reverse("games:table", kwargs={"table_id": private_table.pk}))
    assert page.status_code == 403
    with pytest.raises(SeatError):
        games.sit(binh, private_table.pk)


@BOTH_WAYS
def test_a_seat_held_before_a_block_lets_nobody_in(people, private_table, who_blocks) -> None:
    an, binh, _chi = people
    private.hold_seat(an, private_table.pk, binh)
    _block(who_blocks, an, binh)
    assert not selectors.may_enter(private_table, binh)
    with pytest.raises(SeatError):
        games.sit(binh, private_table.pk)


def test_the_creator_is_kept_apart_even_while_someone_else_hosts(people) -> None:
    an, binh, chi = people
    table = games.open_table(an, name="Nhà An", stake=10, is_private=True)
    link = private.create_invite(an, table.pk)
    private.sit_by_invite(chi, link.token)
    games.stand(an)  # Chi hosts now; An still created the table
    services.block_user(an, binh)
    chi_link = private.create_invite(chi, table.pk)
    with pytest.raises(GameError):
        private.admit(binh, chi_link.token)


@BOTH_WAYS
def test_the_host_cannot_hold_a_seat_for_someone_a_block_keeps_apart(
    people, private_table, who_blocks
) -> None:
    an, binh, _chi = people
    _block(who_blocks, an, binh)
    with translation.override("en"), pytest.raises(GameError) as refused:
        private.hold_seat(an, private_table.pk, binh)
    if who_blocks == "the host":
        assert refused.value.message == "You blocked binh: unblock them first."
    else:
        assert refused.value.message == "You cannot invite binh."
    assert not private_table.holds.exists()


@BOTH_WAYS
def test_neither_can_invite_the_other_to_a_table(people, private_table, who_blocks) -> None:
    an, binh, _chi = people
    services.send_friend_request(an, binh)
    services.send_friend_request(binh, an)  # friends now
    _block(who_blocks, an, binh)
    public = games.open_table(binh, name="Bàn Bình", stake=10)
    for inviter, invited in ((an, binh), (binh, an)):
        with pytest.raises(SocialError):
            services.invite_to_table(inviter, invited)
    assert public.seat_set.filter(user=binh).exists()
    assert not an.notifications.filter(kind="table_invite").exists()
    assert not binh.notifications.filter(kind="table_invite").exists()


@pytest.mark.parametrize("private_seat", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("who_blocks", ["the one seated", "the one sitting down"])
def test_nobody_sits_at_a_table_where_someone_a_block_keeps_apart_is_seated(
    people, private_seat, who_blocks
) -> None:
    an, binh, chi = people
    table = games.open_table(an, name="Bàn An", stake=10, is_private=private_seat)
    seated, sitting = chi, binh
    if private_seat:
        link = private.create_invite(an, table.pk)
        private.sit_by_invite(chi, link.token)
        private.admit(binh, link.token)
    else:
        games.sit(chi, table.pk)
    blocker, blocked = (seated, sitting) if who_blocks == "the one seated" else (sitting, seated)
    services.block_user(blocker, blocked)
    with translation.override("en"), pytest.raises(SeatError) as refused:
        games.sit(sitting, table.pk)
    if who_blocks == "the one seated":
        assert refused.value.message == "You cannot join this table."
    else:
        assert refused.value.message == "You blocked chi, who is seated at this table."
    assert not Seat.objects.filter(user=sitting).exists()
    games.stand(seated)  # once they have gone, the seat is free for the other
    assert games.sit(sitting, table.pk).user == sitting


def test_a_public_table_can_still_be_watched_by_someone_kept_apart_from_a_player(
    client, people
) -> None:
    an, binh, _chi = people
    table = games.open_table(an, name="Bàn An", stake=10)
    services.block_user(an, binh)
    client.force_login(binh)
    page = client.get(reverse("games:table", kwargs={"table_id": table.pk}))
    assert page.status_code == 200


def test_a_block_made_while_both_sit_stands_nobody_up_and_the_host_may_remove_them(
    people, private_table
) -> None:
    an, binh, _chi = people
    link = private.create_invite(an, private_table.pk)
    private.sit_by_invite(binh, link.token)
    services.block_user(an, binh)
    assert set(private_table.seat_set.values_list("user_id", flat=True)) == {an.pk, binh.pk}
    assert selectors.may_enter(private_table, binh)  # seated: they stay for now
    private.remove_player(an, private_table.pk, binh.pk)
    assert not selectors.may_enter(private_table, binh)


def test_quick_join_chooses_another_table_than_the_one_where_a_blocked_player_sits(
    client, people
) -> None:
    an, binh, chi = people
    fullest = games.open_table(an, name="Đông", stake=10)
    games.sit(chi, fullest.pk)
    other = games.open_table(people[2], name="Vắng", stake=10, sit_down=False)
    services.block_user(an, binh)
    client.force_login(binh)
    response = client.post(reverse("games:quick_join"))
    assert response.status_code == 302
    assert Seat.objects.get(user=binh).table == other


def test_quick_join_with_only_a_blocked_players_table_says_none_is_free(client, people) -> None:
    an, binh, _chi = people
    games.open_table(an, name="Đông", stake=10)
    services.block_user(binh, an)
    client.force_login(binh)
    response = client.post(reverse("games:quick_join"), follow=True)
    assert not Seat.objects.filter(user=binh).exists()
    assert "Hiện không có bàn nào còn ghế vừa với số xu của bạn." in response.content.decode()
