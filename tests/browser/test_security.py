"""The pages under the site's Content-Security-Policy, and one sit per click intent."""

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
