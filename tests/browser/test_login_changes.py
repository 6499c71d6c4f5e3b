"""A table page when its player's login changes: a new password in another tab keeps this
browser at the table; logging out elsewhere in the browser says so."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import PASSWORD


def _at_a_table(pages: Any, username: str) -> Any:
    page = pages.sign_up(username)
    page.fill("#id_name", f"Bàn của {username}")
    page.fill("#id_stake", "10")
    # Private: the table stays after the test (its player logged out), and no other test's
    # quick join may land at it.
    page.check("#id_is_private")
    page.click("#create-button")
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.wait_for_selector("#me .seat-head")
    return page


@pytest.mark.browser
def test_changing_the_password_in_another_tab_keeps_the_table_tab_playing(
    pages,
) -> None:  # type: ignore[no-untyped-def]
    # The change moves the browser's login to a new session key: the table's socket, opened
    # with the old one, is closed, and the page tries once more with the cookie as it is.
    table = _at_a_table(pages, "doi_mat_khau")
    opened: list[str] = []
    table.on("websocket", lambda ws: opened.append(ws.url) if "/ws/tables/" in ws.url else None)
    settings = table.context.new_page()
    settings.goto(pages.site.url + "/accounts/password/change/")
    new = "another-Passw0rd!"
    settings.fill("#id_old_password", PASSWORD)
    settings.fill("#id_new_password1", new)
    settings.fill("#id_new_password2", new)
    settings.locator("main form button[type=submit]").click()
    settings.wait_for_url(re.compile(r".*/done/$"))
    table.wait_for_function("() => document.querySelector('#reconnect-banner').hidden")
    table.wait_for_timeout(500)
    assert table.locator("#reconnect-banner").is_hidden()
    assert len(opened) == 1  # the one try with the new session
    sit_reply = table.evaluate("() => document.querySelector('#me .seat-head') !== null")
    assert sit_reply


@pytest.mark.browser
def test_logging_out_in_another_tab_tells_the_table_tab_it_is_logged_out(
    pages,
) -> None:  # type: ignore[no-untyped-def]
    table = _at_a_table(pages, "dang_xuat")
    other = table.context.new_page()
    other.goto(pages.site.url + "/")
    other.locator("form[action$='/accounts/logout/'] button").first.click()
    # Tried once more a second later (the cookie is gone now too), then said.
    table.wait_for_function(
        "() => document.querySelector('#reconnect-text').textContent.includes('đăng xuất')"
    )
    assert table.locator("#reconnect-banner").is_visible()
