"""The site as an app on a phone (issue 25 item 11): a stranger sees a real table and can
try a hand without an account; a web app manifest with icons; a service worker that keeps
only the offline page and static files, so without a network any page says the table needs
a connection, and no player's page is ever stored."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import SIZES, axe_violations
from tests.browser.test_table_layout import IDS

CACHED = """async () => {
  const out = [];
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    for (const request of await cache.keys()) out.push(new URL(request.url).pathname);
  }
  return out;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_a_stranger_sees_a_real_table_and_can_try_a_hand_without_an_account(  # type: ignore[no-untyped-def]
    pages, shoot, viewport
) -> None:
    page = pages.new(viewport, "stranger", service_workers="allow")
    page.goto(pages.site.url + "/")
    table = page.locator("[data-testid=welcome-table]")
    assert table.is_visible()
    assert table.locator(".seat").count() == 3
    assert table.locator(".pcard").count() == 52  # four hands of 13, face up
    assert "{#" not in page.locator("body").inner_text()  # no template comment shows
    shoot(page, f"welcome-{viewport['width']}x{viewport['height']}", [viewport])
    assert axe_violations(page) == []
    page.click("[data-testid=try-practice]")
    page.wait_for_url(re.compile(r".*/practice/$"))
    page.wait_for_selector("#tray button.pcard")
    assert page.locator("#arrange-form button.pcard").count() == 13


@pytest.mark.browser
def test_the_site_is_installable_and_offline_says_the_table_needs_a_connection(pages) -> None:  # type: ignore[no-untyped-def]
    page = pages.login("an", SIZES[1], service_workers="allow")
    manifest_url = page.locator("link[rel=manifest]").get_attribute("href")
    manifest: dict[str, Any] = page.evaluate(f"fetch({manifest_url!r}).then((r) => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        status = page.evaluate(f"fetch({icon['src']!r}).then((r) => r.status)")
        assert status == 200, icon
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
    page.wait_for_function("!!navigator.serviceWorker.controller")  # clients.claim()
    page.goto(pages.site.url + "/lobby/")
    page.wait_for_selector("#quick-play")
    cached = page.evaluate(CACHED)
    assert "/offline/" in cached
    # Nothing but the offline page and static files: no page a player saw, no API answer.
    assert [p for p in cached if p != "/offline/" and not p.startswith("/static/")] == []

    page.context.set_offline(True)
    page.goto(pages.site.url + "/lobby/")
    assert "cần kết nối" in page.locator("main").inner_text()
    assert "an" not in page.locator("header").inner_text().lower().split()  # nobody's header
    page.context.set_offline(False)
