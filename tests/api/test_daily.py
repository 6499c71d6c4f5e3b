"""The daily hand through the API: one scored attempt a day, and a second one refused in the
API's error shape (a practice refusal answers as every app's refusal does: api.root)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.arranging import naive_arrangement

pytestmark = pytest.mark.django_db


def test_a_second_daily_attempt_is_refused_as_already_played_in_the_error_shape(
    make_user: Any, token_for: Any, api_client: Any
) -> None:
    client = api_client(token_for(make_user("an"), "read", "play"))
    hand = client.get("/daily").json()
    chi = naive_arrangement(hand["cards"], hand["preset"])

    first = client.post("/daily", {"chi": chi})
    assert first.status_code == 200, first.content
    assert first.json()["played"] is not None

    again = client.post("/daily", {"chi": chi})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_played"
    assert again.json()["error"]["message"]
