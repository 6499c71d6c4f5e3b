"""Opening a table from the lobby form: the creator sits at once, bots may fill the seats,
and the table chooses what happens to a hand not sent in time."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bots import services as bots
from bots import tasks as bot_tasks
from games import services
from games.models import Seat, Table

pytestmark = pytest.mark.django_db

BASICS = {"name": "Bàn của An", "preset": "portal", "stake": "10", "seats": "4"}


def test_the_form_offers_to_sit_at_once_checked_and_bots_and_the_timeout_rule(client, players):  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'name="sit_down"' in page and 'id="id_sit_down" checked' in page
    assert 'name="allow_bots"' in page and 'name="bot_wait_seconds"' in page
    assert 'name="on_timeout"' in page
    assert '<option value="auto" selected>' in page and '<option value="foul">' in page


def test_the_creator_sits_at_once_when_they_ask(client, players):  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    response = client.post(reverse("games:create_table"), {**BASICS, "sit_down": "on"})
    table = Table.objects.get(name=BASICS["name"])
    assert response.status_code == 302
    assert Seat.objects.get(user=players[0]).table == table


def test_the_creator_may_open_a_table_without_sitting(client, players):  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    client.post(reverse("games:create_table"), BASICS)
    assert Table.objects.filter(name=BASICS["name"]).exists()
    assert not Seat.objects.filter(user=players[0]).exists()


def test_a_creator_who_cannot_sit_is_told_why_and_no_table_is_left_behind(client, players):  # type: ignore[no-untyped-def]
    elsewhere = services.create_table(players[1], name="Bàn khác", stake=10)
    services.sit(players[0], elsewhere.pk)
    client.force_login(players[0])
    response = client.post(reverse("games:create_table"), {**BASICS, "sit_down": "on"})
    assert response.status_code == 400
    assert not Table.objects.filter(name=BASICS["name"]).exists()
    assert Seat.objects.get(user=players[0]).table == elsewhere


def test_bots_fill_the_creators_table_after_the_seconds_chosen(  # type: ignore[no-untyped-def]
    client, players, monkeypatch, django_capture_on_commit_callbacks
):
    scheduled = []
    monkeypatch.setattr(
        bot_tasks.fill_table_task,
        "apply_async",
        lambda args, **options: scheduled.append((args, options)),
    )
    client.force_login(players[0])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("games:create_table"),
            {**BASICS, "sit_down": "on", "allow_bots": "on", "bot_wait_seconds": "7"},
        )
    table = Table.objects.get(name=BASICS["name"])
    assert (table.allow_bots, table.bot_wait_seconds) == (True, 7)
    [(args, options)] = scheduled
    assert options["countdown"] == 7
    bots.fill_table(*args)  # what the task does when the 7 s are up
    assert table.seat_set.count() == 4
    assert table.seat_set.filter(user__is_bot=True).count() == 3


def test_a_table_can_choose_the_strict_timeout_rule(client, players):  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    client.post(reverse("games:create_table"), {**BASICS, "on_timeout": "foul"})
    table = Table.objects.get(name=BASICS["name"])
    assert table.rules_overrides == {"on_timeout": "foul"}
    assert table.rules.on_timeout == "foul"
    client.post(reverse("games:create_table"), {**BASICS, "name": "Bàn dễ", "on_timeout": "auto"})
    assert Table.objects.get(name="Bàn dễ").rules.on_timeout == "auto"
