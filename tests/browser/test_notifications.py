"""Browser notifications and the one inbox (issue 25 item 12): off by default and never
asked for on page load; turned on by the player's own click (the browser asks then); shown
only while the tab is in the background: the deal, the last seconds, a new notice in the
inbox, whose unread count in the header is live."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import CREATE_USERS, PASSWORD, SIZES, axe_violations
from tests.support.scripted import open_scripted_table, send

# A stand-in for the browser's Notification (headless Chromium shows none) that records
# what the page asks, and a tab that the test puts in the background or brings back.
FAKE = """
window.__notes = []; window.__asked = 0; window.__hidden = false;
class FakeNotification extends EventTarget {
  static permission = 'default';
  static requestPermission() { window.__asked += 1; FakeNotification.permission = 'granted';
    return Promise.resolve('granted'); }
  constructor(title, options) { super(); window.__notes.push({title, body: options.body}); }
  close() {}
}
window.Notification = FakeNotification;
Object.defineProperty(document, 'visibilityState',
  {get: () => window.__hidden ? 'hidden' : 'visible', configurable: true});
"""
BACKGROUND = "() => { window.__hidden = true; }"


def notes(page: Any) -> list[dict[str, str]]:
    return list(page.evaluate("window.__notes"))


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [SIZES[1], SIZES[3]], ids=["390x844", "1366x768"])
def test_the_table_notifies_a_player_in_another_tab_only_once_they_turned_it_on(  # type: ignore[no-untyped-def]
    pages, viewport
) -> None:
    page, ws, table, _ = open_scripted_table(pages, "em", viewport, "Bàn báo")
    page.context.add_init_script(FAKE)
    page.reload()
    from tests.support.scripted import reopened

    ws = reopened(page, ws)
    switch = page.locator(".table-tools [data-notify-switch]")
    switch.wait_for()
    assert switch.get_attribute("aria-pressed") == "false"  # off by default
    assert page.evaluate("window.__asked") == 0  # never asked on load
    page.evaluate(BACKGROUND)
    send(ws, table.snapshot(None), *table.round_started())
    page.wait_for_function("document.querySelectorAll('#me button.pcard').length === 13")
    assert notes(page) == []  # off: nothing, though the tab is in the background

    page.evaluate("() => { window.__hidden = false; }")
    switch.click()
    page.wait_for_function("document.querySelector('.table-tools [data-notify-switch]')"
                           ".getAttribute('aria-pressed') === 'true'")  # fmt: skip
    assert page.evaluate("window.__asked") == 1  # asked once, after the click
    assert axe_violations(page) == []
    page.evaluate(BACKGROUND)
    table.round_id, table.number = 78, 2
    send(ws, *table.round_started())
    page.wait_for_function("window.__notes.length === 1")
    assert notes(page)[0]["title"] == "Bài đã chia"
    # The last seconds, in the background: what the deadline will do.
    table.round_id, table.number = 79, 3
    send(ws, *table.round_started(deadline=8))
    page.wait_for_function("window.__notes.some((n) => n.title.startsWith('Còn'))")
    warning = next(n for n in notes(page) if n["title"].startswith("Còn"))
    assert "xếp giúp" in warning["body"]


@pytest.mark.browser
def test_the_inbox_count_is_live_and_a_new_notice_reaches_a_background_tab(pages) -> None:  # type: ignore[no-untyped-def]
    site = pages.site
    site.manage(
        "shell", "-c", CREATE_USERS.format(users=[("hop1", "Hộp Một"), ("hop2", "Hộp Hai")],
                                           password=PASSWORD),
    )  # fmt: skip
    page = pages.login("hop1", SIZES[1])
    page.context.add_init_script(FAKE)
    page.goto(site.url + "/inbox/")
    assert page.locator("[data-testid=inbox-unread]").is_hidden()
    page.wait_for_function(
        "!!localStorage.getItem(`maubinh:inbox-seen:${document.body.dataset.user}`)"
    )
    page.click("[data-notify-switch]")
    page.wait_for_function("document.querySelector('[data-notify-switch]')"
                           ".getAttribute('aria-pressed') === 'true'")  # fmt: skip
    assert axe_violations(page) == []
    page.evaluate(BACKGROUND)
    site.manage(
        "shell", "-c",
        "from accounts.models import User; from social import services; "
        "services.send_friend_request(User.objects.get(username='hop2'),"
        " User.objects.get(username='hop1'))",
    )  # fmt: skip
    # The next poll (every 20 s) brings the count and the notice, without a reload.
    page.wait_for_function(
        "document.querySelector('[data-testid=inbox-unread]').textContent === '1'",
        timeout=45_000,
    )
    page.wait_for_function("window.__notes.length === 1", timeout=45_000)
    assert "Hộp Hai" in notes(page)[0]["body"]
