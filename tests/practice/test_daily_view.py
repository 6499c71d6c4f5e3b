"""GET/POST /practice/daily/: bad input gets a clear error; nothing is given away before."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from accounts.models import User
from practice.models import DailyAttempt
from tests.practice.conftest import DAY, SEED, best_chi

pytestmark = pytest.mark.django_db
URL = "/practice/daily/"


@pytest.fixture
def player(client, make_user, make_deal, on_day):  # type: ignore[no-untyped-def]
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    user = make_user("ngay")
    client.force_login(user)
    client.deal = deal
    return user


def _post(client, chi, day: str = DAY.isoformat()):  # type: ignore[no-untyped-def]
    raw = chi if isinstance(chi, str) else json.dumps(chi)
    return client.post(URL, {"chi": raw, "day": day})


def _speak(user, language: str) -> None:  # type: ignore[no-untyped-def]
    User.objects.filter(pk=user.pk).update(preferred_language=language)


def test_the_page_shows_the_days_cards_and_not_the_answer(client, player) -> None:  # type: ignore[no-untyped-def]
    deal = client.deal
    response = client.get(URL)
    page = response.content.decode()
    assert response.status_code == 200
    assert json.dumps(deal.cards) in page
    assert deal.server_seed_hash in page
    assert deal.server_seed not in page
    assert 'data-testid="board"' not in page and 'data-testid="best-arrangement"' not in page


def test_the_best_and_the_board_do_not_leak_even_once_someone_else_played(
    client, player, make_user
) -> None:  # type: ignore[no-untyped-def]
    from practice import services

    other = make_user("khac")
    services.submit_daily(other, client.deal, json.dumps(best_chi(client.deal)))
    page = client.get(URL).content.decode()
    assert "khac" not in page
    assert 'data-testid="best-arrangement"' not in page


def test_a_good_submit_shows_the_result_the_streak_and_the_board(client, player) -> None:  # type: ignore[no-untyped-def]
    response = _post(client, best_chi(client.deal))
    assert response.status_code == 302 and response["Location"] == reverse("practice:daily")
    page = client.get(URL).content.decode()
    for testid in ("result", "board", "chi-reason", "streak", "your-units", "best-later"):
        assert f'data-testid="{testid}"' in page, testid
    assert "ngay" in page
    # The engine's verdict waits for the day's close (test_daily_close.py).
    for testid in ("best-arrangement", "best-units", "verdict"):
        assert f'data-testid="{testid}"' not in page, testid


@pytest.mark.parametrize(
    ("chi", "code"),
    [
        ("not json", "malformed"),
        ("", "malformed"),
        (json.dumps({"chi": 1}), "malformed"),
        ("[" * 500, "malformed"),
        ([["ZZ"], [], []], "card_unknown"),
        ([[5], [], []], "card_unknown"),
    ],
)
def test_malformed_and_forged_cards_are_refused(client, player, chi, code) -> None:  # type: ignore[no-untyped-def]
    response = _post(client, chi)
    assert response.status_code == 400
    assert f'data-code="{code}"' in response.content.decode()
    assert not DailyAttempt.objects.exists()


def test_a_card_not_in_the_hand_is_refused(client, player) -> None:  # type: ignore[no-untyped-def]
    chi = best_chi(client.deal)
    stranger = next(c for c in client.deal.hands[1])
    chi[2][0] = stranger
    _speak(player, "en")
    response = _post(client, chi)
    assert response.status_code == 400
    assert f"{stranger} is not one of your cards." in response.content.decode()


def test_a_card_placed_twice_and_a_short_chi_are_refused(client, player) -> None:  # type: ignore[no-untyped-def]
    chi = best_chi(client.deal)
    twice = [chi[0], chi[1], [chi[2][0], chi[2][0], chi[2][1]]]
    assert 'data-code="card_twice"' in _post(client, twice).content.decode()
    short = [chi[0], chi[1], chi[2][:2]]
    response = _post(client, short)
    assert response.status_code == 400 and 'data-code="chi_size"' in response.content.decode()


def test_binh_lung_is_refused_in_the_players_language(client, player) -> None:  # type: ignore[no-untyped-def]
    chi = best_chi(client.deal)
    swapped = [chi[1], chi[0], chi[2]]
    vi = _post(client, swapped).content.decode()
    assert 'data-code="foul"' in vi and "Binh lủng: chi sau mạnh hơn chi trước" in vi
    _speak(player, "en")
    en = _post(client, swapped).content.decode()
    assert "Binh lủng: a later chi is stronger than an earlier one" in en


def test_a_second_submit_is_refused_clearly(client, player) -> None:  # type: ignore[no-untyped-def]
    _post(client, best_chi(client.deal))
    _speak(player, "en")
    response = _post(client, best_chi(client.deal))
    assert response.status_code == 400
    assert "You have already played today's hand" in html.unescape(response.content.decode())
    assert DailyAttempt.objects.count() == 1


def test_a_submit_for_another_day_is_refused(client, player) -> None:  # type: ignore[no-untyped-def]
    response = _post(client, best_chi(client.deal), day="2026-11-29")
    assert response.status_code == 400 and 'data-code="day_over"' in response.content.decode()


def test_the_page_needs_a_login(client, make_deal) -> None:  # type: ignore[no-untyped-def]
    response = client.get(URL)
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_seeds_page_shows_hashes_ahead_and_no_seed_before_its_day_is_over(
    client, player
) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/practice/daily/seeds/").content.decode()
    assert client.deal.server_seed_hash in page
    assert client.deal.server_seed not in page
