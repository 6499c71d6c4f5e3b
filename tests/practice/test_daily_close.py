"""The daily hand's answers wait for the day's board to close: until midnight (Vietnam
time) a player sees their own arrangement, score and rank, and the board's names and
scores; the engine's best arrangement and everyone else's arrangements come after."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.template import Context, Template
from django.urls import reverse

from games.rules import is_foul, parse_cards
from practice import services
from practice.models import DailyAttempt
from tests.practice.conftest import DAY, SEED, best_chi

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _shown(chi: list[list[str]]) -> list[str]:
    """Each chi of an arrangement as a page draws it (the cards of the result and board)."""
    template = Template("{% load game_tags %}{% cards part %}")
    return [template.render(Context({"part": part})) for part in chi]


def _other_arrangement(deal) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """A legal arrangement of the day's hand sharing no chi with the engine's best."""
    best = [set(part) for part in best_chi(deal)]
    shuffler = random.Random(7)
    cards = list(deal.cards)
    for _attempt in range(20_000):
        shuffler.shuffle(cards)
        chi = [cards[:5], cards[5:10], cards[10:]]
        if any(set(part) == best[i] for i, part in enumerate(chi)):
            continue
        if not is_foul(*(parse_cards(part) for part in chi), deal.preset):
            return [list(part) for part in chi]
    raise AssertionError("no other arrangement")


@pytest.fixture
def day(client, make_user, make_deal, on_day):  # type: ignore[no-untyped-def]
    """Today is DAY: the scout (a second account) played the engine's best; the main
    account plays something else and looks at every page it can reach."""
    on_day(DAY)
    deal = make_deal(DAY, SEED)
    scout = make_user("trinhsat")
    services.submit_daily(scout, deal, json.dumps(best_chi(deal)))
    main = make_user("chinh")
    client.force_login(main)
    mine = _other_arrangement(deal)
    posted = client.post("/practice/daily/", {"chi": json.dumps(mine), "day": DAY.isoformat()})
    assert posted.status_code == 302
    # As stored and shown (each chi's cards in the engine's order).
    return deal, DailyAttempt.objects.get(user=main).chi


def _pages(client) -> dict[str, str]:  # type: ignore[no-untyped-def]
    urls = [
        "/practice/daily/",
        reverse("practice:daily_day", args=[DAY.isoformat()]),
        reverse("practice:commitments"),
        reverse("practice:practice"),
        reverse("games:lobby"),
    ]
    return {url: client.get(url, follow=True).content.decode() for url in urls}


def test_before_the_close_no_page_shows_the_best_or_anyone_elses_arrangement(client, day) -> None:  # type: ignore[no-untyped-def]
    deal, mine = day
    best = services.best_of(deal).chi
    for url, page in _pages(client).items():
        for part in _shown(best):
            assert part not in page, url  # the scout's (the engine's best) arrangement
        assert 'data-testid="best-arrangement"' not in page, url
        assert 'data-testid="board-arrangement"' not in page, url
        assert 'data-testid="best-units"' not in page, url
    page = client.get("/practice/daily/").content.decode()
    for part in _shown(mine):
        assert part in page  # their own arrangement is theirs to see
    assert "trinhsat" in page and "chinh" in page  # names, scores and ranks
    assert "Hôm nay bạn đứng thứ 2 trên 2 người." in page


def test_once_the_day_is_over_its_page_shows_the_best_and_everyones_arrangements(
    client, day, on_day
) -> None:  # type: ignore[no-untyped-def]
    deal, mine = day
    on_day(DAY + timedelta(days=1))
    today = client.get("/practice/daily/").content.decode()
    closed_url = reverse("practice:daily_day", args=[DAY.isoformat()])
    assert f'href="{closed_url}"' in today  # the page links the day just closed
    page = client.get(closed_url).content.decode()
    assert 'data-testid="best-arrangement"' in page
    assert page.count('data-testid="board-arrangement"') == 2
    for part in _shown(services.best_of(deal).chi) + _shown(mine):
        assert part in page
    assert 'data-testid="verdict"' in page


def test_someone_who_did_not_play_sees_the_best_once_the_day_is_over(
    client, day, on_day, make_user
) -> None:  # type: ignore[no-untyped-def]
    deal, _mine = day
    client.force_login(make_user("vang"))
    before = client.get(reverse("practice:daily_day", args=[DAY.isoformat()]), follow=True)
    assert 'data-testid="best-arrangement"' not in before.content.decode()
    on_day(DAY + timedelta(days=1))
    page = client.get(reverse("practice:daily_day", args=[DAY.isoformat()])).content.decode()
    assert 'data-testid="best-arrangement"' in page
    for part in _shown(services.best_of(deal).chi):
        assert part in page


@pytest.mark.parametrize("day", ["2026-13-01", "hôm qua", "2026-11-30x"])
def test_a_day_that_is_not_a_date_is_not_found(client, make_user, day) -> None:  # type: ignore[no-untyped-def]
    client.force_login(make_user("ai"))
    assert client.get(f"/practice/daily/{day}/").status_code == 404
