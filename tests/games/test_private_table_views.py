"""The pages of private tables: the create form, the invite link, the host's tools."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import Seat, Table
from games.services import private
from games.signals import staff_entered_private_table
from moderation import services as moderation
from moderation.models import ActionKind, StaffAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(players) -> Table:  # type: ignore[no-untyped-def]
    return services.open_table(players[0], name="Nhà riêng", stake=10, is_private=True)


def test_the_create_form_opens_a_private_table(client, players) -> None:
    client.force_login(players[0])
    data = {"name": "Nhà An", "preset": "portal", "stake": "10", "seats": "4"}
    client.post(reverse("games:create_table"), {**data, "is_private": "on"})
    assert Table.objects.get(name="Nhà An").is_private


def test_a_stranger_opening_a_private_table_is_told_it_needs_an_invitation(
    client, players, private_table
) -> None:
    client.force_login(players[1])
    response = client.get(reverse("games:table", kwargs={"table_id": private_table.pk}))
    assert response.status_code == 403
    assert "bàn riêng" in response.content.decode()


def test_a_visitor_opening_an_invite_sees_the_rules_and_a_sign_up_that_returns(
    client, players, private_table
) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    here = reverse("games:invite", kwargs={"token": invite.token})
    page = client.get(here).content.decode()
    assert "Nhà riêng" in page
    assert f"/accounts/signup/?next={here.replace('/', '%2F')}" in page


def test_signing_up_from_an_invite_lands_back_on_it(client, password) -> None:
    response = client.post(
        reverse("accounts:signup") + "?next=/invite/abc/",
        {"username": "khach", "password1": password, "password2": password},
    )
    assert response.status_code == 302
    assert response["Location"] == "/invite/abc/"


def test_signing_up_with_a_foreign_next_lands_home(client, password) -> None:
    response = client.post(
        reverse("accounts:signup") + "?next=https://evil.example/",
        {"username": "khach", "password1": password, "password2": password},
    )
    assert response["Location"] == reverse("home")


def test_sitting_from_an_invite_page_takes_the_player_to_the_table(
    client, players, private_table
) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    client.force_login(players[1])
    response = client.post(
        reverse("games:invite", kwargs={"token": invite.token}), {"action": "sit"}
    )
    assert response["Location"] == reverse("games:table", kwargs={"table_id": private_table.pk})
    assert Seat.objects.filter(user=players[1], table=private_table).exists()


def test_a_revoked_invite_page_says_so(client, players, private_table) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.revoke_invite(players[0], invite.pk)
    client.force_login(players[1])
    response = client.get(reverse("games:invite", kwargs={"token": invite.token}))
    assert response.status_code == 410
    assert "thu hồi" in response.content.decode()


def test_only_the_host_reaches_the_host_tools(client, players, private_table) -> None:
    client.force_login(players[1])
    response = client.get(reverse("games:host_tools", kwargs={"table_id": private_table.pk}))
    assert response.status_code == 302
    client.force_login(players[0])
    client.post(
        reverse("games:host_tools", kwargs={"table_id": private_table.pk}),
        {"action": "new_invite"},
    )
    page = client.get(reverse("games:host_tools", kwargs={"table_id": private_table.pk}))
    assert "/invite/" in page.content.decode()


def test_removing_a_player_during_a_round_shows_a_clear_error(
    client, players, private_table
) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.sit_by_invite(players[1], invite.token)
    services.start_round(players[0], private_table.pk)
    client.force_login(players[0])
    url = reverse("games:host_tools", kwargs={"table_id": private_table.pk})
    page = client.post(url, {"action": "remove", "user": players[1].pk}, follow=True)
    assert "chỉ mời được người chơi ra giữa hai ván" in page.content.decode()


@pytest.mark.postgres
@pytest.mark.parametrize("action", ["release", "remove", "revoke"])
@pytest.mark.parametrize("value", ["99999999999999999999999", "9223372036854775808", "-1"])
def test_a_host_tool_with_an_id_beyond_a_bigint_is_a_form_error_and_queries_nothing(
    client, players, private_table, huge_numbers_queried, action: str, value: str
) -> None:
    invite = private.create_invite(players[0], private_table.pk)
    private.sit_by_invite(players[1], invite.token)
    client.force_login(players[0])
    url = reverse("games:host_tools", kwargs={"table_id": private_table.pk})
    page = client.post(url, {"action": action, "user": value, "invite": value}, follow=True)
    assert page.status_code == 200
    assert "Biểu mẫu thiếu một ô hoặc có giá trị sai." in page.content.decode()
    assert huge_numbers_queried == []
    assert Seat.objects.filter(table=private_table, user=players[1]).exists()


def test_staff_opening_a_private_table_uninvited_is_audited(client, players, private_table) -> None:
    admin = players[3]
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])
    heard: list[dict[str, Any]] = []

    def hear(sender: Any, **kwargs: Any) -> None:
        heard.append(kwargs)

    staff_entered_private_table.connect(hear)
    try:
        client.force_login(admin)
        response = client.get(reverse("games:table", kwargs={"table_id": private_table.pk}))
    finally:
        staff_entered_private_table.disconnect(hear)
    assert response.status_code == 200
    assert heard == [{"signal": staff_entered_private_table, "staff_id": admin.pk,
                      "table_id": private_table.pk}]  # fmt: skip
    action = moderation.record_private_table_visit(admin.pk, private_table.pk)
    assert action is not None
    assert StaffAction.objects.filter(
        pk=action.pk, actor=admin, action=ActionKind.VIEW_PRIVATE_TABLE,
        target_id=str(private_table.pk),
    ).exists()  # fmt: skip
