"""Who can see and do what: a player, another player, a moderator and an admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from ledger import selectors as ledger_selectors
from ledger.models import Transfer
from moderation import services
from moderation.errors import Forbidden
from moderation.models import Compensation, StaffAction
from tests.support.played import deal_for_two

pytestmark = pytest.mark.django_db

ROLES = ("player", "other_player", "moderator", "admin")


@pytest.fixture
def people(players: list[Any], moderator: Any, admin: Any) -> dict[str, Any]:
    return {
        "player": players[0],
        "other_player": players[3],
        "moderator": moderator,
        "admin": admin,
    }


@pytest.fixture
def case(players: list[Any], settled_round: Any) -> Any:
    return services.file_dispute(players[0], settled_round.pk, category="wrong_result", text="?")


# (url name, args from the fixtures, expected status for player, other player, mod, admin)
PAGES = [
    ("moderation:file_dispute", "round", (200, 404, 404, 404)),
    ("moderation:case_detail", "case", (200, 404, 200, 200)),
    ("moderation:my_cases", None, (200, 200, 200, 200)),
    ("inbox", None, (200, 200, 200, 200)),
    ("moderation:queue", None, (404, 404, 200, 200)),
    ("moderation:replay", "round", (404, 404, 200, 200)),
    ("moderation:users", None, (404, 404, 200, 200)),
    ("moderation:user_detail", "player", (404, 404, 200, 200)),
    ("moderation:signals", None, (404, 404, 200, 200)),
    ("moderation:dashboard", None, (404, 404, 404, 200)),
    ("moderation:audit_log", None, (404, 404, 404, 200)),
]


@pytest.mark.parametrize(("name", "arg", "expected"), PAGES)
def test_each_page_answers_each_role_as_it_should(
    client: Any,
    people: dict[str, Any],
    case: Any,
    settled_round: Any,
    name: str,
    arg: Any,
    expected: tuple[int, ...],
) -> None:
    args = {"round": [settled_round.pk], "case": [case.pk], "player": [people["player"].pk]}
    url = reverse(name, args=args.get(arg, []))
    assert client.get(url).status_code == 302  # anonymous: to the login page
    for role, status in zip(ROLES, expected, strict=True):
        client.force_login(people[role])
        assert client.get(url).status_code == status, role


@pytest.mark.parametrize(
    ("name", "arg"),
    [
        ("moderation:claim", "case"),
        ("moderation:resolve", "case"),
        ("moderation:compensate", "case"),
        ("moderation:resettle", "round"),
        ("moderation:suspend", "other"),
        ("moderation:lift_suspension", "other"),
    ],
)
def test_players_cannot_post_any_moderator_action(
    client: Any, people: dict[str, Any], case: Any, settled_round: Any, name: str, arg: str
) -> None:
    args = {"case": case.pk, "round": settled_round.pk, "other": people["other_player"].pk}
    for role in ("player", "other_player"):
        client.force_login(people[role])
        response = client.post(reverse(name, args=[args[arg]]), {"reason": "x", "hours": 1})
        assert response.status_code == 404
    assert not StaffAction.objects.exists()
    case.refresh_from_db()
    assert case.status == "open"


def test_a_player_never_sees_another_players_cards_on_their_case(
    client: Any, people: dict[str, Any], case: Any, settled_round: Any
) -> None:
    client.force_login(people["player"])
    page = client.get(reverse("moderation:case_detail", args=[case.pk])).content.decode()
    theirs = settled_round.players.exclude(user=people["player"]).get()
    assert not any(card in page.split() for card in theirs.cards)
    assert client.get(reverse("moderation:replay", args=[settled_round.pk])).status_code == 404


def test_only_admins_and_moderators_can_act_and_players_get_forbidden(
    people: dict[str, Any], case: Any
) -> None:
    with pytest.raises(Forbidden):
        services.claim(people["other_player"], case.pk)
    with pytest.raises(Forbidden):
        services.suspend(people["player"], people["other_player"].pk, hours=1, reason="x")


def test_a_moderator_cannot_act_on_a_case_another_moderator_claimed(
    case: Any, moderator: Any, other_moderator: Any, admin: Any
) -> None:
    services.claim(moderator, case.pk)
    with pytest.raises(Forbidden) as refused:
        services.compensate(other_moderator, case.pk, amount=10, reason="x")
    assert refused.value.code == "not_yours"
    services.resolve(admin, case.pk, outcome="rejected", resolution="Admins can step in.")


def test_above_the_limit_a_compensation_waits_for_a_second_pair_of_eyes(
    client: Any, people: dict[str, Any], case: Any, other_admin: Any
) -> None:
    moderator, admin, player = people["moderator"], people["admin"], people["player"]
    balance = ledger_selectors.balance(player)
    services.claim(moderator, case.pk)
    limit = services.solo_allowance(moderator)
    assert limit == 5_000  # MODERATION_COMPENSATION_LIMIT_XU, whatever the table's stake
    pending = services.compensate(moderator, case.pk, amount=limit + 1, reason="Big bug")
    assert pending.status == "pending" and pending.transfer is None
    assert ledger_selectors.balance(player) == balance

    client.force_login(moderator)  # a moderator cannot approve, not even their own request
    url = reverse("moderation:approve_compensation", args=[pending.pk])
    assert client.post(url).status_code == 404
    with pytest.raises(Forbidden):
        services.approve_compensation(moderator, pending.pk)

    client.force_login(admin)
    client.post(url)
    pending.refresh_from_db()
    assert (pending.status, pending.decided_by) == ("paid", admin)
    assert ledger_selectors.balance(player) == balance + limit + 1
    assert StaffAction.objects.filter(action="approve_compensation", actor=admin).exists()


def test_an_admin_cannot_approve_their_own_request(
    people: dict[str, Any], case: Any, other_admin: Any
) -> None:
    admin = people["admin"]
    services.claim(admin, case.pk)
    request = services.compensate(admin, case.pk, amount=50_001, reason="Big bug")
    assert request.status == "pending"
    with pytest.raises(Forbidden) as refused:
        services.approve_compensation(admin, request.pk)
    assert refused.value.code == "four_eyes"
    services.reject_compensation(other_admin, request.pk, reason="Too much")
    request.refresh_from_db()
    assert (request.status, request.decided_by) == ("rejected", other_admin)


def test_the_database_refuses_an_approval_by_the_requester(
    people: dict[str, Any], case: Any
) -> None:
    moderator = people["moderator"]
    services.claim(moderator, case.pk)
    request = services.compensate(moderator, case.pk, amount=10_000, reason="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        Compensation.objects.filter(pk=request.pk).update(decided_by=moderator)


def test_a_second_compensation_for_the_same_case_is_refused(
    people: dict[str, Any], case: Any
) -> None:
    services.claim(people["moderator"], case.pk)
    services.compensate(people["moderator"], case.pk, amount=10, reason="x")
    with pytest.raises(services.ModerationError) as refused:
        services.compensate(people["moderator"], case.pk, amount=10, reason="x")
    assert refused.value.code == "already_compensated"
    assert Transfer.objects.filter(kind="compensation").count() == 1


def test_a_moderator_cannot_suspend_an_admin_or_themselves(people: dict[str, Any]) -> None:
    with pytest.raises(Forbidden):
        services.suspend(people["moderator"], people["admin"].pk, hours=1, reason="x")
    with pytest.raises(Forbidden):
        services.suspend(people["moderator"], people["moderator"].pk, hours=1, reason="x")


def test_nobody_can_change_or_delete_the_audit_log_in_the_admin(
    client: Any, people: dict[str, Any], case: Any
) -> None:
    services.claim(people["moderator"], case.pk)
    action = StaffAction.objects.get()
    client.force_login(people["admin"])  # a superuser
    assert client.get(reverse("admin:moderation_staffaction_changelist")).status_code == 200
    delete = reverse("admin:moderation_staffaction_delete", args=[action.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    change = reverse("admin:moderation_staffaction_change", args=[action.pk])
    assert client.post(change, {"reason": "rewritten"}).status_code == 403
    assert client.get(reverse("admin:moderation_staffaction_add")).status_code == 403
    action.refresh_from_db()
    assert action.reason == ""


def _raw(sql: str, params: list[Any]) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.postgres
def test_the_database_refuses_to_edit_or_delete_audit_and_ledger_rows(
    people: dict[str, Any], case: Any
) -> None:
    assert connection.vendor == "postgresql"
    services.claim(people["moderator"], case.pk)
    services.compensate(people["moderator"], case.pk, amount=10, reason="x")
    action = StaffAction.objects.get(action="claim")
    transfer = Transfer.objects.get(kind="compensation")
    for sql, pk in [
        ("UPDATE moderation_staffaction SET reason = 'edited' WHERE id = %s", action.pk),
        ("DELETE FROM moderation_staffaction WHERE id = %s", action.pk),
        ("UPDATE ledger_transfer SET amount = 1 WHERE id = %s", transfer.pk),
        ("DELETE FROM ledger_transfer WHERE id = %s", transfer.pk),
    ]:
        with pytest.raises(IntegrityError, match="append-only"):
            _raw(sql, [pk])
    assert StaffAction.objects.filter(pk=action.pk, reason="").exists()
    assert Transfer.objects.filter(pk=transfer.pk, amount=10).exists()


def test_an_admin_can_give_one_moderator_a_different_limit_and_it_is_audited(
    client: Any, people: dict[str, Any], case: Any
) -> None:
    moderator, admin = people["moderator"], people["admin"]
    client.force_login(moderator)
    url = reverse("moderation:set_limit", args=[moderator.pk])
    assert client.post(url, {"per_payment": 1000, "reason": "x"}).status_code == 404
    client.force_login(admin)
    client.post(url, {"per_payment": 50, "per_day": 200, "reason": "Mới vào nghề"})
    assert services.solo_allowance(moderator) == 50
    action = StaffAction.objects.get(action="set_limit")
    assert action.before == {"per_payment": 5_000, "per_day": 20_000}
    assert action.after == {"per_payment": 50, "per_day": 200}
    services.claim(moderator, case.pk)
    assert services.compensate(moderator, case.pk, amount=51, reason="x").status == "pending"


def test_nobody_sees_the_hands_of_a_round_still_being_played(
    client: Any, players: list[Any], table: Any, moderator: Any
) -> None:
    live = deal_for_two(players, table)
    client.force_login(moderator)
    response = client.get(reverse("moderation:replay", args=[live.pk]))
    assert response.status_code == 409
    page = response.content.decode()
    assert not any(card in page.split() for rp in live.players.all() for card in rp.cards)
    assert not StaffAction.objects.exists()
