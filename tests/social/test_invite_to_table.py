from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as games
from games.services import private
from notices.models import NotificationKind
from social import selectors, services
from social.errors import SocialError

pytestmark = pytest.mark.django_db


def test_an_invitation_to_a_public_table_links_to_the_table(friends) -> None:
    an, binh, _chi = friends
    table = games.open_table(an, name="Bàn An", stake=10)
    note = services.invite_to_table(an, binh)
    assert note is not None
    assert note.kind == NotificationKind.TABLE_INVITE
    assert note.url == reverse("games:table", kwargs={"table_id": table.pk})
    assert "Bàn An" in note.message


def test_an_invitation_to_a_private_table_carries_a_working_invite_link(friends) -> None:
    an, binh, _chi = friends
    table = games.open_table(an, name="Nhà An", stake=10, is_private=True)
    note = services.invite_to_table(an, binh)
    assert note is not None
    token = note.url.rstrip("/").rsplit("/", 1)[-1]
    seat = private.sit_by_invite(binh, token)
    assert seat.table_id == table.pk


def test_only_friends_can_be_invited(friends) -> None:
    an, _binh, chi = friends
    games.open_table(an, name="Bàn An", stake=10)
    with pytest.raises(SocialError) as refused:
        services.invite_to_table(an, chi)
    assert refused.value.code == "not_friends"


def test_inviting_needs_a_seat(friends) -> None:
    an, binh, _chi = friends
    with pytest.raises(SocialError) as refused:
        services.invite_to_table(an, binh)
    assert refused.value.code == "not_seated"


def test_a_friends_table_shows_in_the_friends_list_with_a_join(friends) -> None:
    an, binh, _chi = friends
    table = games.open_table(an, name="Bàn An", stake=10)
    (line,) = selectors.friends_of(binh)
    assert line.friend == an
    assert line.table == table
    assert line.can_join


def test_a_friend_at_a_private_table_cannot_be_joined_without_an_invite(friends) -> None:
    an, binh, _chi = friends
    games.open_table(an, name="Nhà An", stake=10, is_private=True)
    (line,) = selectors.friends_of(binh)
    assert not line.can_join


def test_inviting_twice_before_it_is_read_leaves_one_invitation(friends) -> None:
    an, binh, _chi = friends
    games.open_table(an, name="Bàn An", stake=10)
    services.invite_to_table(an, binh)
    services.invite_to_table(an, binh)
    assert selectors.notifications_of(binh).filter(kind=NotificationKind.TABLE_INVITE).count() == 1


def test_nobody_invites_friends_to_a_tournaments_table(friends, make_user) -> None:
    """A tournament seats its own players: "invite to my table" from its table is refused
    and makes no invite link (issue 24)."""
    from games.models import TableInvite
    from tournaments.sitandgo import services as tournaments

    an, binh, chi = friends
    t = tournaments.create_sit_and_go(an, name="Giải", players=4, buy_in=0)
    for user in (chi, make_user("dung"), make_user("em")):
        tournaments.register(user, t.pk)
    assert t.tables.exists()
    with pytest.raises(SocialError) as refused:
        services.invite_to_table(an, binh)
    assert refused.value.code == "managed_table"
    assert not TableInvite.objects.exists()
    assert not selectors.notifications_of(binh).filter(kind=NotificationKind.TABLE_INVITE)
