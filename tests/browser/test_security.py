"""The pages under the site's Content-Security-Policy, one sit per click intent, and a page
that catches up on a lost broadcast (what its socket sends)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_every_page_sends_a_csp_its_scripts_satisfy(pages) -> None:  # type: ignore[no-untyped-def]
    em = pages.login("em")
    base = pages.site.url
    for path in ["/", "/xu/statement/", "/history/", "/accounts/profile/", "/moderation/cases/"]:
        response = em.goto(base + path)
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
    em.goto(base + "/xu/statement/")
    em.select_option("#kind", index=1)  # the select sends its form without an inline handler
    em.wait_for_url(re.compile(r".*kind=.+"))
    # Violations and console errors fail this test through the pages fixture.


def test_a_double_click_on_sit_sends_one_sit(pages) -> None:  # type: ignore[no-untyped-def]
    em = pages.sign_up("hai_lan")
    sent: list[str] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(str(payload)))

    em.on("websocket", watch)
    em.fill("#id_name", "Bàn bấm đúp")
    em.fill("#id_stake", "10")
    em.uncheck("#id_sit_down")  # the lobby seats its creator by default: sit from the table
    em.click("#create-button")
    em.wait_for_url(re.compile(r".*/tables/\d+/$"))
    em.wait_for_selector("#sit-button")
    em.dblclick("#sit-button")
    em.wait_for_selector("#me .seat-head")
    em.wait_for_timeout(300)
    assert sum('"type":"sit"' in frame for frame in sent) == 1


LOST_BROADCAST = """
from django.db.models import F
from games.models import Table
Table.objects.filter(pk={table}).update(version=F("version") + 1)
print("{{}}")
"""


def test_a_page_behind_a_lost_broadcast_asks_for_a_snapshot_after_its_next_ping(
    pages, site
) -> None:  # type: ignore[no-untyped-def]
    em = pages.sign_up("mat_tin")
    sent: list[str] = []
    received: list[str] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(str(payload)))
        ws.on("framereceived", lambda payload: received.append(str(payload)))

    em.on("websocket", watch)
    em.clock.install()  # the page's 15 s ping and 3 s look-again, moved on by the test
    em.fill("#id_name", "Bàn mất tin")
    em.fill("#id_stake", "10")
    em.uncheck("#id_sit_down")
    em.click("#create-button")
    em.wait_for_url(re.compile(r".*/tables/\d+/$"))
    em.wait_for_selector("#sit-button")
    table = int(em.url.rstrip("/").rsplit("/", 1)[1])

    def pinged() -> int:
        return sum('"table_version"' in frame for frame in received)

    def snapshots_asked() -> int:
        return sum('"type":"snapshot"' in frame.replace(" ", "") for frame in sent)

    # In step: a ping's reply changes nothing.
    em.clock.fast_forward(16_000)
    _wait_until(em, lambda: pinged() == 1)
    em.clock.fast_forward(4_000)
    em.wait_for_timeout(300)
    asked = snapshots_asked()
    # A change committed whose broadcast was lost (nothing was sent to the page).
    site.manage("shell", "-c", LOST_BROADCAST.format(table=table))
    em.clock.fast_forward(16_000)
    _wait_until(em, lambda: pinged() == 2)
    em.wait_for_timeout(300)
    assert snapshots_asked() == asked  # not yet: an event may still be on its way
    em.clock.fast_forward(4_000)
    _wait_until(em, lambda: snapshots_asked() == asked + 1)


def _wait_until(page: Any, condition: Any, seconds: float = 15) -> None:
    for _ in range(int(seconds * 10)):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page never got there")
