"""Pages on their own: keyboard reach, English, and the reconnecting banner."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, axe_violations, unreachable_by_keyboard


@pytest.mark.browser
def test_every_lobby_control_is_reachable_by_keyboard(pages) -> None:  # type: ignore[no-untyped-def]
    for viewport in (DESKTOP, PHONE):
        page = pages.login("dung", viewport)
        page.locator(".house-rules summary").click()  # open the house rules too
        assert unreachable_by_keyboard(page) == []


@pytest.mark.browser
def test_a_live_lobby_update_leaves_a_keyboard_user_where_they_were(pages) -> None:  # type: ignore[no-untyped-def]
    # Players of the test's own, at a table of its own.
    host = pages.sign_up("chunha", DESKTOP)
    host.fill("#id_name", "Bàn giữ chỗ")
    host.click("#create-button")
    host.wait_for_url(re.compile(r".*/tables/\d+/$"))
    host.wait_for_selector("#me .seat-head")
    table_id = re.search(r"/tables/(\d+)/$", host.url).group(1)  # type: ignore[union-attr]

    watcher = pages.sign_up("banphim", DESKTOP)
    row = f".table-card[data-id='{table_id}']"
    watcher.locator(f"{row} .table-link").focus()
    watcher.evaluate("window.focusedBefore = document.activeElement")

    guest = pages.sign_up("khachden", PHONE)
    guest.goto(host.url)
    guest.click("#sit-button")
    guest.wait_for_selector("#me .seat-head")
    # The row shows the second player, and the link the keyboard user was on still has focus.
    watcher.wait_for_function(
        f"document.querySelector(\"{row} [data-fact=players] dd\").textContent.startsWith('2/')"
    )
    assert watcher.evaluate("document.activeElement === window.focusedBefore")
    assert watcher.evaluate("document.activeElement.isConnected")
    guest.click("#leave-button")
    guest.click("#leave-confirm")
    host.click("#leave-button")
    host.click("#leave-confirm")
    host.wait_for_url(re.compile(r".*/lobby/$"))


@pytest.mark.browser
def test_the_interface_switches_to_english(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    # A player of its own: the language is kept on the account, and a shared player may be
    # seated at another test's table.
    page = pages.sign_up("tienganh", PHONE)
    assert page.locator("html").get_attribute("lang") == "vi"
    assert page.locator("#lobby-title").inner_text() == "Các bàn"
    page.locator("[data-testid=menu-toggle]").click()  # a phone: the links are in the menu
    page.locator(".lang-switch button[value=en]").click()
    page.wait_for_selector("html[lang=en]")
    assert page.locator("#lobby-title").inner_text() == "Tables"
    page.fill("#id_name", "English table")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_selector("#me .seat-head")  # the creator sits at once
    assert page.locator("#phase-title").inner_text() == "Waiting for another player"
    assert page.locator("#leave-button").inner_text() == "Leave table"
    assert axe_violations(page) == []
    shoot(page, "table-waiting-en")
    page.click("#leave-button")
    assert "costs nothing" in page.locator("#leave-cost").inner_text()
    page.click("#leave-confirm")
    page.wait_for_url(re.compile(r".*/lobby/$"))
    page.locator("[data-testid=menu-toggle]").click()
    page.locator(".lang-switch button[value=vi]").click()
    page.wait_for_selector("html[lang=vi]")


@pytest.mark.browser
def test_a_dropped_connection_shows_a_banner_and_recovers(pages) -> None:  # type: ignore[no-untyped-def]
    sockets: list[Any] = []

    def relay(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page = pages.new(DESKTOP, "dung")
    page.route_web_socket(re.compile(r".*/ws/tables/\d+/$"), relay)
    page.goto(pages.site.url + "/accounts/login/")
    page.fill("#id_username", "dung")
    page.fill("#id_password", "maubinh-Browser-42")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(pages.site.url + "/")
    page.fill("#id_name", "Bàn mất mạng")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_selector("#me .seat-head")  # the creator sits at once
    assert page.locator("#reconnect-banner").is_hidden()
    sockets[-1].close(code=4000, reason="network gone")
    page.wait_for_selector("#reconnect-banner:visible")
    page.wait_for_selector("#reconnect-banner", state="hidden", timeout=15_000)
    assert len(sockets) >= 2, "the page opened a new socket"
    assert page.locator("#me .seat-head .name").inner_text() == "Dũng"  # state restored
    page.click("#leave-button")
    page.click("#leave-confirm")
    page.wait_for_url(re.compile(r".*/lobby/$"))
