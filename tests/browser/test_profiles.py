"""Profiles, statistics and leaderboards in a browser: reachable, readable, axe-clean."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PASSWORD, PHONE, axe_violations

# A small history in the site's database, recorded as the scheduled task records it. Its
# player is one of this file's own (Phương): the shared players play in other browser tests
# too, and their rounds would count on the profile.
HISTORY = """
from datetime import timedelta
from django.utils import timezone
from accounts import services as accounts
from accounts.models import User
from profiles import services
from tests.profiles.conftest import History, chi_pair, instant_pair

users = {u.username: u for u in User.objects.filter(username__in=["binh", "dung", "em"])}
binh, dung, em = users["binh"], users["dung"], users["em"]
an = accounts.sign_up(username="phuong", password=%r, display_name="Phương")
history = History(None)
now = timezone.now()
history.round([an, binh, dung, em], [30, -10, -10, -10],
              pairs=[chi_pair(0, 1, [0, 0, 0], scoop="one"), chi_pair(0, 2, [0, 2, 0])])
history.round([an, binh], [-20, 20], pairs=[chi_pair(0, 1, [1, 1, 1])], fouls=(0,),
              at=now - timedelta(days=2))
history.round([an, dung], [60, -60], pairs=[instant_pair(0, 1, 0)],
              instants={0: "six_pairs"}, at=now - timedelta(days=9))
services.record_settled_rounds()
print(an.pk)
"""


@pytest.fixture(scope="module")
def an_id(site: Any) -> int:
    """Phương's id, once her history is recorded."""
    return int(site.manage("shell", "-c", HISTORY % PASSWORD).strip().splitlines()[-1])


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (120, 80), "orange").save(out, format="PNG")
    return out.getvalue()


@pytest.mark.browser
def test_a_profile_shows_the_figures_and_links_its_rounds(pages: Any, an_id: int) -> None:
    for viewport in (DESKTOP, PHONE):
        page = pages.login("binh", viewport)
        page.goto(f"{pages.site.url}/players/{an_id}/")
        assert page.locator("[data-testid=display-name]").inner_text() == "Phương"
        assert page.locator("[data-testid=rounds]").inner_text() == "3"
        assert page.locator("[data-testid=net-all]").inner_text() == "+70"
        assert page.locator("[data-testid=avatar]").evaluate("img => img.naturalWidth") > 0
        links = page.locator("[data-testid=recent-rounds] a")
        assert links.count() == 3
        assert axe_violations(page) == []
        if viewport is PHONE:  # nothing wider than the screen
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        links.first.click()  # the newest round (binh's too): its history page opens
        page.wait_for_url(re.compile(r".*/history/\d+/$"))


@pytest.mark.browser
def test_the_leaderboards_rank_players_and_show_my_place(pages: Any, an_id: int) -> None:
    for viewport in (DESKTOP, PHONE):
        page = pages.login("em", viewport)
        page.goto(f"{pages.site.url}/leaderboards/?period=all")
        # The site is shared with other browser tests, whose players may rank too: Phương is
        # on the board, in rank order, whoever else played.
        rows = [
            r.split("\t")
            for r in page.locator("[data-testid=board-net] tbody tr").all_inner_texts()
        ]
        names = [cells[1].strip() for cells in rows]
        assert "Phương" in names
        ranks = [int(cells[0]) for cells in rows]
        assert ranks == sorted(ranks)
        assert page.locator("[data-testid=board-net] tr.me").count() == 1  # em is ranked
        assert axe_violations(page) == []
        # Exactly "Phương": other players of the shared site may have names containing it.
        page.locator("[data-testid=board-net]").get_by_role(
            "link", name="Phương", exact=True
        ).first.click()
        page.wait_for_url(f"{pages.site.url}/players/{an_id}/")


@pytest.mark.browser
def test_my_statistics_and_avatar_pages(pages: Any, an_id: int, tmp_path: Any) -> None:
    page = pages.login("phuong", DESKTOP)
    page.locator("[data-testid=my-profile-link]").click()
    page.wait_for_url(f"{pages.site.url}/players/{an_id}/")
    page.goto(f"{pages.site.url}/me/stats/")
    assert page.locator("[data-testid=net-chart] polyline").count() == 1
    assert page.locator("[data-testid=rounds-chart] rect.bar").count() == 30
    assert axe_violations(page) == []
    # Issue 25: on a phone the charts' labels were about 7 px tall.
    page.set_viewport_size(PHONE)
    heights = page.eval_on_selector_all(
        ".chart text", "ts => ts.map((t) => t.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 11, heights
    page.set_viewport_size(DESKTOP)
    page.goto(f"{pages.site.url}/me/avatar/")
    assert axe_violations(page) == []
    before = page.locator("img.avatar").first.get_attribute("src")
    page.locator("input[name=avatar][value='3']").check()
    page.get_by_role("button", name=re.compile("Dùng ảnh này")).click()
    page.wait_for_url(f"{pages.site.url}/players/{an_id}/")
    after = page.locator("[data-testid=avatar]").get_attribute("src")
    assert after != before
    picture = tmp_path / "me.png"
    picture.write_bytes(_png())
    page.goto(f"{pages.site.url}/me/avatar/")
    page.set_input_files("#picture", str(picture))
    page.get_by_role("button", name=re.compile("^Gửi$")).click()
    page.wait_for_url(f"{pages.site.url}/players/{an_id}/")
    image = page.locator("[data-testid=avatar]")
    assert image.evaluate("img => img.naturalWidth") == 256
    phone = pages.login("phuong", PHONE)
    phone.goto(f"{pages.site.url}/me/stats/")
    assert axe_violations(phone) == []
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
