"""Two players talk at a table in two browsers: messages both ways (as text, never markup),
a quick phrase in the reader's language, a reaction over the sender's seat, a report that
reaches the moderators' queue with the talk around it, and a mute that survives a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PASSWORD, PHONE, axe_violations

SET_UP = f"""
from django.contrib.auth.models import Group
from accounts import services as accounts
from accounts.roles import MODERATORS
from games import services as games

mod = accounts.sign_up(username="kiem_chat", password={PASSWORD!r}, display_name="Kiểm Chat")
mod.groups.add(Group.objects.get_or_create(name=MODERATORS)[0])
a = accounts.sign_up(username="noi_a", password={PASSWORD!r}, display_name="Ánh")
b = accounts.sign_up(username="noi_b", password={PASSWORD!r}, display_name="Bảo")
table = games.create_table(
    a, name="Bàn trò chuyện", stake=10, rules_overrides={{"start_seconds": 60}}
)
games.sit(a, table.pk)
games.sit(b, table.pk)
print(table.pk)
"""


SAID = """(text) => [...document.querySelectorAll('#chat-log .chat-text')]
  .some((n) => n.textContent === text)"""


def _log(page: Any) -> Any:
    return page.locator("#chat-log")


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.locator("#chat-form button[type=submit]").click()
    page.wait_for_function(SAID, arg=text)


@pytest.mark.browser
def test_two_players_talk_react_report_and_mute(pages: Any, shoot: Any) -> None:
    table_id = pages.site.manage("shell", "-c", SET_UP).strip().splitlines()[-1]
    url = f"{pages.site.url}/tables/{table_id}/"
    anh, bao = pages.login("noi_a", DESKTOP), pages.login("noi_b", PHONE)
    for page in (anh, bao):
        page.goto(url)
        page.wait_for_selector("#table-page[data-state=live]")
    anh.wait_for_selector("#chat:visible")
    # On a phone the chat folds into the bar's button, so the table keeps the screen.
    assert bao.locator("#chat").is_hidden()
    bao.click("#chat-toggle")
    bao.wait_for_selector("#chat:visible")
    assert bao.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    markup = "Chào Bảo <b>in đậm?</b> <img src=x>"
    _say(anh, markup)
    heard = bao.locator("#chat-log .chat-line").last
    heard.locator(".chat-text", has_text="in đậm").wait_for()
    assert heard.locator(".chat-text").text_content() == markup
    assert bao.locator("#chat-log b, #chat-log img").count() == 0  # text, never markup

    _say(bao, "Chào Ánh, chơi vui nhé")
    bao.locator("#chat-phrases [data-phrase=good_luck]").click()
    anh.locator("#chat-log .chat-phrase", has_text="Chúc may mắn!").wait_for()  # in Vietnamese
    bao.locator("#chat-reactions [data-reaction=wow]").click()
    anh.locator("#felt .reaction-float", has_text="😮").wait_for()
    shoot(anh, "table-talk-desktop")
    shoot(bao, "table-talk-phone")
    assert axe_violations(anh) == []
    assert axe_violations(bao) == []

    # Ánh reports Bảo's greeting: the case carries it and the talk around it.
    line = anh.locator("#chat-log .chat-line", has_text="chơi vui nhé")
    line.locator("[data-action=report]").click()
    anh.fill("#chat-report-text", "Thử báo cáo")
    anh.click("#chat-report-send")
    anh.locator("#toast", has_text="kiểm duyệt").wait_for()

    # Ánh mutes Bảo: Bảo's lines go, and what Bảo says next never arrives, even after a reload.
    line.locator("[data-action=mute]").click()
    anh.wait_for_function("!document.querySelector('#chat-log .chat-phrase')")
    _say(bao, "Ánh có nghe không?")
    _say(anh, "Yên tĩnh quá")
    bao.locator("#chat-log .chat-text", has_text="Yên tĩnh quá").wait_for()
    assert _log(anh).locator(".chat-text", has_text="nghe không").count() == 0
    anh.reload()
    anh.wait_for_selector("#chat:visible")
    anh.locator("#chat-log .chat-text", has_text="Yên tĩnh quá").wait_for()
    assert _log(anh).locator(".chat-name", has_text=re.compile("^Bảo$")).count() == 0
    assert _log(anh).locator(".chat-name", has_text=re.compile("^Ánh$")).count() == 2
    assert anh.locator("#chat-muted [data-unmute]").count() == 1

    moderator = pages.login("kiem_chat", DESKTOP)
    moderator.goto(pages.site.url + "/moderation/")
    row = moderator.locator("tr", has_text="Trò chuyện xúc phạm").first
    row.locator("a").first.click()
    moderator.wait_for_url(re.compile(r".*/moderation/cases/\d+/$"))
    evidence = moderator.locator("[data-testid=chat-evidence] li")
    texts = evidence.all_inner_texts()
    assert any("in đậm" in t for t in texts)
    reported = moderator.locator("[data-testid=reported-line]")
    assert "chơi vui nhé" in reported.inner_text()
    shoot(moderator, "table-talk-case")
    assert axe_violations(moderator) == []
