"""No stale or confusing state at the table, and how it feels: what a player sees when they
join after a round, send their cards, wait for the others and read the summary; the sounds
and their mute switch; the deal and flip animations, and none under reduced motion.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.browser.conftest import CREATE_USERS, DESKTOP, PASSWORD, PHONE, SIZES, axe_violations
from tests.browser.test_table_layout import IDS
from tests.support.scripted import MINE, open_scripted_table, send

GONE = 555_555  # a player who sat at seat 0 last round and has left since


def arrange_all(page: Any) -> None:
    for row, codes in (("1", MINE[:5]), ("2", MINE[5:10]), ("3", MINE[10:])):
        for code in codes:
            page.locator(f'#me button.pcard[data-card="{code}"]').click()
        page.click(f"#row-{row}-button")


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_joining_after_a_round_never_shows_its_result_on_your_seat(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    size = f"{viewport['width']}x{viewport['height']}"
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, f"Bàn vào sau {size}")
    # Last round someone else played from seat 0 and lost 90 xu; I now sit there.
    round_ = table.settled_round(with_me=False)
    ghost = {"position": 0, "user": GONE, "submitted": True, "status": "playing", "hold": 540}
    round_["players"].insert(0, ghost)
    row = copy.deepcopy(round_["summary"]["players"][0])
    row.update(position=0, user=GONE, name="Người Cũ", xu=-90, balance=4510)
    round_["summary"]["players"].insert(0, row)
    send(ws, table.snapshot(round_, start_at=None))
    page.wait_for_selector("#summary:visible")
    shoot(page, f"states-{size}-joined-after-a-round", [viewport])

    assert page.locator("#me .seat-head .delta").count() == 0
    assert page.locator("#me .row-result:not(:empty)").count() == 0
    assert page.locator("#me .seat-head .badge").inner_text() == "Đang chờ"
    assert page.locator("#summary").get_attribute("data-played") == "no"
    assert "Ván trước" in page.locator("#summary-title").inner_text()
    assert "Ván trước" in page.locator("#phase-title").inner_text()
    assert page.locator("#summary tr.is-you").count() == 0
    assert axe_violations(page) == []


@pytest.mark.browser
def test_a_summary_you_played_in_is_this_round(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, _ = open_scripted_table(pages, "em", PHONE, "Bàn ván của tôi")
    send(ws, table.snapshot(table.settled_round(with_me=True)))
    page.wait_for_selector("#summary:visible")
    assert page.locator("#summary").get_attribute("data-played") == "yes"
    assert page.locator("#summary-title").inner_text().startswith("Ván 1")
    assert page.locator("#me .seat-head .delta").inner_text() == "+90 xu"
    shoot(page, "states-summary-you-played-in", SIZES)


@pytest.mark.browser
def test_the_sent_toast_ends_when_the_showdown_starts_and_no_one_waits_for_zero(  # type: ignore[no-untyped-def]
    pages, shoot
) -> None:
    page, ws, table, received = open_scripted_table(pages, "em", PHONE, "Bàn gửi bài")
    send(ws, table.snapshot(None), *table.round_started())
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    arrange_all(page)
    page.click("#submit")
    page.wait_for_selector("#toast.show")
    assert "vẫn có thể đổi" in page.locator("#toast").inner_text()
    assert any(m.get("type") == "submit" for m in received)
    # Everyone is done, my own "submitted" last: never "waiting for 0 players".
    send(ws, table.submitted(1), table.submitted(2), table.submitted(3))
    page.wait_for_function("document.querySelector('#submit').textContent.includes('✓')")
    shoot(page, "states-everyone-sent", SIZES)
    waiting = page.locator("#phase-next").inner_text()
    assert " 0 " not in waiting
    assert "Mọi người đã xong" in waiting
    send(ws, table.submitted(0))
    assert " 0 " not in page.locator("#phase-next").inner_text()

    send(ws, table.reveal(1))
    page.wait_for_selector("#steps li.current")
    page.wait_for_selector("#toast:not(.show)", timeout=1000)
    shoot(page, "states-showdown-toast-gone", SIZES)


@pytest.mark.browser
def test_the_summary_stays_until_the_next_deal_with_its_countdown(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, _ = open_scripted_table(pages, "em", PHONE, "Bàn tổng kết")
    send(ws, table.snapshot(None), *table.round_started())
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    send(ws, table.reveal(1), table.reveal(2), table.reveal(3), table.settled())
    page.wait_for_selector("#summary:visible")
    assert page.locator("#summary-next").inner_text() == ""  # no countdown yet: no promise
    send(ws, table.countdown(6))
    page.wait_for_function(
        "/bắt đầu sau [56] giây/.test(document.querySelector('#summary-next').textContent)"
    )
    page.wait_for_function(
        "/bắt đầu sau [34] giây/.test(document.querySelector('#summary-next').textContent)"
    )
    assert page.locator("#summary").is_visible()
    # Shot once the countdown was seen moving: four sizes take longer than its 6 s.
    shoot(page, "states-summary-countdown", SIZES)
    table.round_id, table.number = 78, 2
    send(ws, *table.round_started())
    page.wait_for_selector("#summary", state="hidden")
    assert page.locator("#phase-title").inner_text().startswith("Ván 2")


@pytest.fixture(scope="module")
def listener(site: Any) -> str:
    """A player of their own: the test mutes them on their account, for every later page."""
    site.manage("shell", "-c", CREATE_USERS.format(users=[("thanh", "Thanh")], password=PASSWORD))
    return "thanh"


@pytest.mark.browser
def test_sounds_follow_the_game_and_mute_is_remembered_on_every_device(  # type: ignore[no-untyped-def]
    pages, listener
) -> None:
    page, ws, table, _ = open_scripted_table(pages, listener, PHONE, "Bàn âm thanh")
    send(ws, table.snapshot(None))
    page.wait_for_selector("#table-page[data-state=live]")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    page.click("#four-color")  # a first touch lets the page make sound
    # Arrow functions, not expressions: the site's CSP refuses the eval an expression needs.
    sound = "document.querySelector('#table-page').dataset.lastSound"

    send(ws, *table.round_started(deadline=12))
    page.wait_for_function(f"() => {sound} === 'deal'")
    page.wait_for_function(f"() => {sound} === 'tick'", timeout=8000)  # the last 10 s
    send(ws, table.reveal(1))
    page.wait_for_function(f"() => {sound} === 'reveal'")
    send(ws, table.reveal(2), table.reveal(3), table.settled(my_xu=90))
    page.wait_for_function(f"() => {sound} === 'win'")
    # The next round I lose.
    table.round_id, table.number = 78, 2
    send(ws, *table.round_started(), table.reveal(1), table.reveal(2), table.reveal(3))
    page.wait_for_function(f"() => {sound} === 'reveal'")
    send(ws, table.settled(my_xu=-90))
    page.wait_for_function(f"() => {sound} === 'loss'")

    with page.expect_response(lambda r: r.url.endswith("/accounts/sound/")) as saved:
        toggle.click()
    assert saved.value.status == 200
    assert toggle.get_attribute("aria-pressed") == "false"
    page.reload()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"

    # Another device (a browser context with nothing stored): muted from the start, silent.
    laptop = pages.login(listener, DESKTOP)
    laptop.goto(page.url)
    laptop.wait_for_selector("#table-page[data-state=live]")
    assert laptop.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    assert laptop.evaluate(f"() => localStorage.getItem('maubinh:sound:{table.me}')") == "off"
    # Switched back on there, the phone's next page has sound again.
    with laptop.expect_response(lambda r: r.url.endswith("/accounts/sound/")):
        laptop.locator("#sound-toggle").click()
    page.reload()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"


@pytest.mark.browser
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_deal_and_the_flip_move_unless_reduced_motion_is_asked(pages, motion) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, _ = open_scripted_table(pages, "em", PHONE, f"Bàn chuyển động {motion}")
    page.emulate_media(reduced_motion=motion)
    send(ws, table.snapshot(None), *table.round_started())
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    animated = page.evaluate(
        "() => getComputedStyle(document.querySelector('#tray .pcard')).animationName"
    )
    send(ws, table.reveal(1))
    page.wait_for_selector("#steps li.current")
    flips = page.locator("#opponents .mini-row.flip").count()
    if motion == "reduce":
        assert animated == "none"
        assert flips == 0
    else:
        assert animated == "deal-in"
        assert flips == 3


@pytest.mark.browser
def test_the_summary_offers_a_dispute_and_only_other_players_seats_a_report(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    page, ws, table, _ = open_scripted_table(pages, "em", PHONE, "Bàn khiếu nại")
    send(ws, table.snapshot(table.settled_round(with_me=True)))
    page.wait_for_selector("#summary:visible")
    dispute = page.locator("#summary a.dispute-link")
    assert dispute.inner_text() == "Khiếu nại"
    assert dispute.get_attribute("href").endswith(f"/rounds/{table.round_id}/dispute/")
    reports = page.locator("#opponents .seat a.report-link")
    assert reports.count() == len(table.others)
    assert f"/report/{table.others[0]}/?table={table.table}" in reports.first.get_attribute("href")
    assert page.locator("#me a.report-link").count() == 0
    shoot(page, "states-summary-dispute-and-reports", SIZES)
