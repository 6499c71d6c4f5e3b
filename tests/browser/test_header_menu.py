"""The header on a phone: a menu, nothing only a sideways scroll away; the queue on a phone."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import DESKTOP, PASSWORD, PHONE, SIZES, axe_violations

SMALL_PHONE = {"width": 360, "height": 640}

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"
OUTSIDE_THE_SCREEN = """
() => [...document.querySelectorAll('header *, main *')]
  .filter((el) => el.checkVisibility({checkVisibilityCSS: true}))
  .filter((el) => !el.closest('.table-scroll'))  // a wide table scrolls inside its own box
  .filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5);
  })
  .map((el) => el.outerHTML.slice(0, 100))
"""

MAKE_CASE = f"""
from django.contrib.auth.models import Group
from accounts import services as accounts
from accounts.models import User
from accounts.roles import MODERATORS
from games import services as games
from moderation import services as moderation
from tests.moderation.conftest import play_round

mod = accounts.sign_up(username="kiemduyet", password={PASSWORD!r}, display_name="Kiểm Duyệt")
mod.groups.add(Group.objects.get_or_create(name=MODERATORS)[0])
a = accounts.sign_up(
    username="tranh_chap_a", password={PASSWORD!r}, display_name="Một người có cái tên rất dài"
)
b = accounts.sign_up(username="tranh_chap_b", password={PASSWORD!r})
table = games.create_table(a, name="Bàn tranh chấp có tên dài", stake=10,
    rules_overrides={{"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5}})
round_ = play_round([a, b], table)
moderation.file_dispute(a, round_.pk, category="wrong_result", text="Kết quả sai")
"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=["360", "390"])
def test_the_header_folds_into_a_menu_on_a_phone(pages, shoot, viewport) -> None:  # type: ignore[no-untyped-def]
    page = pages.login("binh", viewport)
    for path in ("/lobby/", "/history/", "/xu/statement/", "/rules/", "/moderation/notifications/"):
        page.goto(pages.site.url + path)
        assert page.evaluate(OUTSIDE_THE_SCREEN) == [], path
        assert page.evaluate(NO_SIDEWAYS_SCROLL), f"{path} scrolls sideways"
    toggle = page.locator("[data-testid=menu-toggle]")
    nav = page.locator("#site-nav")
    assert toggle.is_visible() and nav.is_hidden()
    assert page.locator("[data-testid=header-balance]").is_visible()  # the wallet stays out
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    links = nav.locator("a, button")
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert nav.locator("[data-testid=my-cases-link]").is_visible()
    assert axe_violations(page) == []
    shoot(page, "header-menu-open", [viewport])
    page.keyboard.press("Escape")
    assert nav.is_hidden() and toggle.get_attribute("aria-expanded") == "false"
    nav_link = page.locator("#site-nav a[href='/xu/statement/']")
    toggle.click()
    nav_link.click()
    page.wait_for_url(re.compile(r".*/xu/statement/$"))


@pytest.mark.browser
def test_the_header_is_one_row_of_links_on_a_laptop(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    page = pages.login("binh", DESKTOP)
    assert page.locator("[data-testid=menu-toggle]").is_hidden()
    assert page.locator("#site-nav [data-testid=my-cases-link]").is_visible()
    assert page.locator("#site-nav [data-testid=rules-link]").is_visible()
    shoot(page, "header", SIZES)  # folded into the menu on the phones, one row from the tablet


@pytest.mark.browser
def test_the_moderators_queue_is_usable_on_a_phone(pages, shoot) -> None:  # type: ignore[no-untyped-def]
    pages.site.manage("shell", "-c", MAKE_CASE)
    page = pages.login("kiemduyet", SMALL_PHONE)
    page.goto(pages.site.url + "/moderation/")
    # This test's case (the browser tests share one site: another's report may be older).
    row = page.locator("[data-testid=queue] tbody tr", has_text="Kết quả sai")
    claim = row.locator("button[data-testid^=claim-]")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert page.evaluate(OUTSIDE_THE_SCREEN) == []
    assert "0 phút" in row.inner_text() and "Kết quả sai" in row.inner_text()
    box = claim.bounding_box()
    assert box and box["x"] + box["width"] <= SMALL_PHONE["width"] and box["height"] >= 32
    assert axe_violations(page) == []
    shoot(page, "moderation-queue", SIZES)
    claim.click()
    page.wait_for_url(re.compile(r".*/moderation/cases/\d+/$"))
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
