"""/practice/: endless random hands, priced like the daily one, stored nowhere."""

from __future__ import annotations

import json

import pytest

from games.rules import Rules, format_cards, parse_cards, suggest
from practice.models import DailyAttempt

pytestmark = pytest.mark.django_db
URL = "/practice/"


def _hand(client) -> list[str]:  # type: ignore[no-untyped-def]
    return list(client.session["practice_hand"]["cards"])


def test_a_practice_hand_is_priced_against_the_engines_best(client, make_user) -> None:  # type: ignore[no-untyped-def]
    client.force_login(make_user())
    assert client.get(URL).status_code == 200
    cards = _hand(client)
    best = suggest(parse_cards(cards), Rules.preset("portal"), n=0)[0]
    chi = [format_cards(p) for p in best.chi]
    response = client.post(URL, {"chi": json.dumps(chi)})
    assert response.status_code == 302
    page = client.get(URL).content.decode()
    shown = f"{best.ev:.2f}".replace(".", ",")  # Vietnamese decimals
    assert 'data-testid="best-arrangement"' in page and f'"best-units">{shown}<' in page
    assert not DailyAttempt.objects.exists()


def test_a_new_hand_is_dealt_on_request_without_limit(client, make_user) -> None:  # type: ignore[no-untyped-def]
    client.force_login(make_user())
    client.get(URL)
    hands = {tuple(_hand(client))}
    for _ in range(3):
        assert client.post("/practice/new/").status_code == 302
        hands.add(tuple(_hand(client)))
    assert len(hands) == 4


def test_cards_from_outside_the_practice_hand_are_refused(client, make_user) -> None:  # type: ignore[no-untyped-def]
    client.force_login(make_user())
    client.get(URL)
    cards = _hand(client)
    others = [format_cards([c])[0] for c in range(52) if format_cards([c])[0] not in cards]
    response = client.post(URL, {"chi": json.dumps([others[:5], others[5:10], others[10:13]])})
    assert response.status_code == 400 and 'data-code="not_your_card"' in response.content.decode()


def test_a_visitor_without_an_account_can_try_a_hand(client) -> None:  # type: ignore[no-untyped-def]
    # Issue 25: the welcome page offers a practice hand to a stranger.
    page = client.get(URL)
    assert page.status_code == 200
    cards = _hand(client)
    best = suggest(parse_cards(cards), Rules.preset("portal"), n=0)[0]
    chi = [format_cards(p) for p in best.chi]
    assert client.post(URL, {"chi": json.dumps(chi)}).status_code == 302
    assert 'data-testid="best-arrangement"' in client.get(URL).content.decode()
    assert client.post("/practice/new/").status_code == 302
    assert _hand(client) != cards


def test_a_visitor_is_asked_to_sign_up_after_many_priced_hands(client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from django.core.cache import cache

    from practice import views

    cache.clear()  # this address's count starts here
    monkeypatch.setattr(views, "GUEST_HANDS_PER_HOUR", 1)
    for expected in (302, 400):
        client.get(URL)
        chi = [
            format_cards(p)
            for p in suggest(parse_cards(_hand(client)), Rules.preset("portal"), n=0)[0].chi
        ]
        response = client.post(URL, {"chi": json.dumps(chi)})
        assert response.status_code == expected
        client.post("/practice/new/")
    assert 'data-code="guest_limit"' in response.content.decode()
