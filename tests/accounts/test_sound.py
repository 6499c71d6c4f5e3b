"""The table's mute switch is kept on the account: every device the player uses starts with it."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services as games

pytestmark = pytest.mark.django_db


def table_config(client: Client, table_id: int) -> dict[str, object]:
    html = client.get(reverse("games:table", kwargs={"table_id": table_id})).content.decode()
    found = re.search(r'<script id="table-config" type="application/json">(.*?)</script>', html)
    assert found, "the table page carries its config"
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_sound_is_on_for_a_new_player(make_user):
    assert make_user("an").sound_on is True


def test_muting_on_one_device_mutes_the_table_on_another(make_user):
    user = make_user("an")
    table = games.create_table(user, name="Bàn yên lặng", stake=10)
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(user)
    config = table_config(phone, table.pk)
    assert config["sound"] is True
    response = phone.post(
        config["sound_url"],  # type: ignore[arg-type]
        {"sound": "off"},
        HTTP_X_CSRFTOKEN=config["csrf"],
    )
    assert response.status_code == 200 and response.json() == {"sound": "off"}

    laptop = Client()
    laptop.force_login(user)
    assert table_config(laptop, table.pk)["sound"] is False
    laptop.post(reverse("accounts:set_sound"), {"sound": "on"})
    assert table_config(phone, table.pk)["sound"] is True


def test_a_sound_switch_without_the_csrf_token_changes_nothing(make_user):
    user = make_user("an")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    assert browser.post(reverse("accounts:set_sound"), {"sound": "off"}).status_code == 403
    user.refresh_from_db()
    assert user.sound_on is True


@pytest.mark.parametrize("value", ["", "0", "OFF", "²"])
def test_a_sound_value_that_means_nothing_gets_a_message(client, make_user, value):
    user = make_user("an")
    client.force_login(user)
    response = client.post(reverse("accounts:set_sound"), {"sound": value})
    assert response.status_code == 400
    assert response.json()["message"] == "Âm thanh chỉ có thể bật hoặc tắt."
    user.refresh_from_db()
    assert user.sound_on is True


def test_a_visitor_cannot_switch_anyones_sound(client):
    response = client.post(reverse("accounts:set_sound"), {"sound": "off"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
