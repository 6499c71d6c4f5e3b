"""Duplicate rounds on the pages: the round page's "others with these cards", verify,
the schedule page, the lobby badge and the create-table form (docs/duplicate.md)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from accounts import services as account_services
from games import services
from games.models import DuplicateSchedule, Round, Table
from games.services import duplicate
from tests.support.duplicates import as_dealt, duplicate_table, play

pytestmark = pytest.mark.django_db


def _detail(round_: Round) -> str:
    return reverse("games:round_detail", kwargs={"round_id": round_.pk})


def _verify(client, round_: Round) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return client.post(reverse("games:verify", kwargs={"round_id": round_.pk})).json()


def test_the_round_page_shows_others_with_these_cards_once_both_played(
    client, people, schedule
) -> None:  # type: ignore[no-untyped-def]
    mine = play(duplicate_table(people[0], schedule, "Bàn A"), people[0:2])
    client.force_login(people[0])
    page = client.get(_detail(mine)).content.decode()
    assert 'data-testid="others-with-these-cards"' in page
    assert 'data-testid="no-holders"' in page

    theirs = play(duplicate_table(people[2], schedule, "Bàn B"), people[2:4], [as_dealt] * 2)
    page = client.get(_detail(mine)).content.decode()
    assert f'data-round="{theirs.pk}"' in page
    assert people[2].shown_name in page and "Bàn B" in page
    held = theirs.players.get(user=people[2])
    for part in held.arrangement or []:
        assert f'data-suit="{part[0][-1]}"' in page
    assert 'data-testid="my-duplicate-score"' in page
    # The holder of the other hand is not listed on my page: those are not my cards.
    assert f">{people[3].shown_name}<" not in page.split('data-testid="others-with-these-cards"')[1]


def test_nobody_sees_a_boards_round_before_playing_the_board(client, people, schedule) -> None:  # type: ignore[no-untyped-def]
    mine = play(duplicate_table(people[0], schedule, "Bàn A"), people[0:2])
    client.force_login(people[4])  # has not played board 1: it may still be dealt to them
    assert client.get(_detail(mine)).status_code == 404

    # Once they have played the board themselves, the others' rounds of it are open to them.
    play(duplicate_table(people[4], schedule, "Bàn C"), people[4:6])
    assert client.get(_detail(mine)).status_code == 200


def test_a_player_mid_round_sees_no_other_holders(client, people, schedule) -> None:  # type: ignore[no-untyped-def]
    play(duplicate_table(people[0], schedule, "Bàn A"), people[0:2])
    table = duplicate_table(people[2], schedule, "Bàn B")
    for user in people[2:4]:
        services.sit(user, table.pk)
    live = services.start_round(people[2], table.pk)
    client.force_login(people[2])
    page = client.get(_detail(live)).content.decode()
    assert 'data-testid="others-with-these-cards"' not in page
    # As a word: the page's random CSRF token once held "p0" (letters and digits only).
    assert not re.search(rf"\b{re.escape(people[0].shown_name)}\b", page)


def test_verify_says_the_board_seed_is_not_revealed_yet_then_proves_the_deal(
    client, people, schedule
) -> None:  # type: ignore[no-untyped-def]
    round_ = play(duplicate_table(people[0], schedule), people[0:2])
    client.force_login(people[0])
    pending = _verify(client, round_)
    assert pending["ok"] is False and pending["pending"] is True
    assert "duplicate" in pending["message"].lower() or "lặp" in pending["message"]
    board = round_.board
    assert board is not None
    assert board.seed not in client.get(_detail(round_)).content.decode()

    duplicate.close_schedule(schedule.pk)
    assert _verify(client, round_)["ok"] is True
    assert board.seed in client.get(_detail(round_)).content.decode()


def test_verify_round_command_waits_for_the_board_then_verifies(people, schedule) -> None:  # type: ignore[no-untyped-def]
    round_ = play(duplicate_table(people[0], schedule), people[0:2])
    out = StringIO()
    call_command("verify_round", str(round_.pk), stdout=out)
    assert "not revealed yet" in out.getvalue()
    assert "verifies" not in out.getvalue()

    duplicate.reveal_board(schedule.pk, 1)
    out = StringIO()
    call_command("verify_round", str(round_.pk), stdout=out)
    assert f"round {round_.pk} verifies: duplicate board 1" in out.getvalue()

    first = round_.players.order_by("position").first()
    assert first is not None
    first.cards = list(reversed(first.cards))
    first.save(update_fields=["cards"])
    with pytest.raises(CommandError, match="does NOT verify"):
        call_command("verify_round", str(round_.pk), stdout=StringIO())


def test_the_schedule_page_publishes_hashes_and_only_revealed_seeds(
    client, people, schedule
) -> None:  # type: ignore[no-untyped-def]
    play(duplicate_table(people[0], schedule), people[0:2])
    duplicate.reveal_board(schedule.pk, 1)
    client.force_login(people[5])
    page = client.get(
        reverse("games:duplicate_schedule", kwargs={"schedule_id": schedule.pk})
    ).content.decode()
    for board in schedule.boards.all():
        assert board.seed_hash in page
        assert (board.seed in page) == (board.number == 1)
    assert 'data-testid="duplicate-standings"' in page


def test_the_lobby_marks_duplicate_tables(client, people, schedule) -> None:  # type: ignore[no-untyped-def]
    duplicate_table(people[0], schedule, "Bàn lặp")
    client.force_login(people[1])
    page = client.get(reverse("games:lobby")).content.decode()
    assert page.count('data-testid="duplicate-badge"') == 1


def test_the_create_form_opens_a_duplicate_table_with_the_schedules_rules(
    client, people, schedule
) -> None:  # type: ignore[no-untyped-def]
    client.force_login(people[0])
    assert 'name="duplicate_schedule"' in client.get(reverse("games:lobby")).content.decode()
    response = client.post(
        reverse("games:create_table"),
        {
            "name": "Lặp của tôi",
            "preset": "classic",
            "stake": 10,
            "seats": 4,
            "duplicate_schedule": schedule.pk,
        },
    )
    assert response.status_code == 302
    table = Table.objects.get(name="Lặp của tôi")
    assert table.duplicate_schedule_id == schedule.pk
    assert table.rules.to_dict() == schedule.rules.to_dict()


def test_staff_run_a_schedule_from_the_command_line(people, fixed_boards) -> None:  # type: ignore[no-untyped-def]
    out = StringIO()
    call_command("duplicate", "create", "Giải tối", "--boards", "2", stdout=out)
    schedule = DuplicateSchedule.objects.get(name="Giải tối")
    assert all(b.seed_hash in out.getvalue() for b in schedule.boards.all())
    assert all(b.seed not in out.getvalue() for b in schedule.boards.all())
    call_command(
        "duplicate", "table", str(schedule.pk), "--host", people[0].username,
        "--name", "Bàn tối", "--stake", "5", stdout=out,
    )  # fmt: skip
    table = Table.objects.get(name="Bàn tối")
    assert table.duplicate_schedule_id == schedule.pk
    call_command("duplicate", "assign", str(table.pk), str(schedule.pk), "2", stdout=out)
    table.refresh_from_db()
    assert table.next_board == 2
    call_command("duplicate", "close", str(schedule.pk), stdout=out)
    assert not schedule.boards.filter(revealed_at__isnull=True).exists()
    with pytest.raises(CommandError):
        call_command("duplicate", "assign", str(table.pk), str(schedule.pk), "1", stdout=out)


def test_the_table_page_says_a_client_seed_does_nothing_at_a_duplicate_table(
    client, people, schedule, table
) -> None:  # type: ignore[no-untyped-def]
    client.force_login(people[0])
    duplicate_page = reverse(
        "games:table", kwargs={"table_id": duplicate_table(people[0], schedule).pk}
    )
    page = client.get(duplicate_page).content.decode()
    assert 'data-testid="duplicate-seed-note"' in page
    assert "hạt giống của bạn không có tác dụng ở đây" in page
    assert reverse("games:duplicate_schedule", kwargs={"schedule_id": schedule.pk}) in page
    account_services.set_preferred_language(people[0], "en")
    assert "your client seed does nothing here" in client.get(duplicate_page).content.decode()
    ordinary = client.get(reverse("games:table", kwargs={"table_id": table.pk})).content.decode()
    assert 'data-testid="duplicate-seed-note"' not in ordinary
