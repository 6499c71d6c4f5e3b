"""Private tables and friends in real browsers: two and three people, each in a context."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.conftest import DESKTOP, PASSWORD, Pages, axe_violations

TABLE_URL = re.compile(r".*/tables/(\d+)/$")


def _people(pages: Pages, *names: str) -> None:
    """Fresh players for this test alone (the session's shared ones keep their seats)."""
    script = "from accounts import services\n" + "".join(
        f"services.sign_up(username={name!r}, password={PASSWORD!r})\n" for name in names
    )
    pages.site.manage("shell", "-c", script)


def _open_private_table(page: Any, name: str) -> int:
    page.goto(_base(page) + "/lobby/")
    page.fill("#id_name", name)
    page.check("#id_is_private")
    page.click("#create-button")
    page.wait_for_url(TABLE_URL)
    match = TABLE_URL.match(page.url)
    assert match is not None
    return int(match.group(1))


def _base(page: Any) -> str:
    scheme, _empty, host = page.url.split("/", 3)[:3]
    return f"{scheme}//{host}"


def _new_link(page: Any, table_id: int) -> str:
    page.goto(f"{_base(page)}/tables/{table_id}/host/")
    page.click("[data-testid=invite-new]")
    url: str = page.locator("[data-testid=invite-url]").first.input_value()
    return url


def _forget_expected_refusals(pages: Pages) -> None:
    """The browser logs a page served with 403/410 as a console error: here it is the point."""
    pages.errors[:] = [
        e for e in pages.errors if "status of 403" not in e and "status of 410" not in e
    ]


def test_a_friend_invited_by_link_sits_and_a_stranger_sees_no_private_table(pages: Pages) -> None:
    _people(pages, "host1", "guest1", "stranger1")
    host = pages.login("host1")
    table_id = _open_private_table(host, "Nhà riêng của Host")
    host.click("[data-testid=host-tools-link]")
    host.click("[data-testid=invite-new]")
    link = host.locator("[data-testid=invite-url]").first.input_value()
    assert "/invite/" in link
    assert axe_violations(host) == []

    guest = pages.login("guest1")
    guest.goto(link)
    assert "Nhà riêng của Host" in guest.locator("h1").inner_text()
    assert guest.locator("[data-testid=invite-rules]").is_visible()
    assert axe_violations(guest) == []
    guest.click("[data-testid=invite-sit]")
    guest.wait_for_url(re.compile(rf".*/tables/{table_id}/$"))
    guest.wait_for_function(
        "document.querySelectorAll('#opponents .seat:not(.seat-empty)').length === 1"
    )

    stranger = pages.login("stranger1")
    assert stranger.locator(f".table-card[data-id='{table_id}']").count() == 0
    assert "Nhà riêng của Host" not in stranger.locator("#table-list").inner_text()
    stranger.goto(f"{pages.site.url}/tables/{table_id}/")
    assert stranger.locator("[data-testid=private-table]").is_visible()
    _forget_expected_refusals(pages)


def test_a_visitor_opening_the_link_signs_up_and_lands_back_at_the_table(pages: Pages) -> None:
    _people(pages, "host2")
    host = pages.login("host2")
    table_id = _open_private_table(host, "Bàn mời khách")
    link = _new_link(host, table_id)

    visitor = pages.new(DESKTOP, "visitor")
    visitor.goto(link)
    visitor.click("[data-testid=invite-signup]")
    visitor.fill("#id_username", "newcomer2")
    visitor.fill("#id_password1", PASSWORD)
    visitor.fill("#id_password2", PASSWORD)
    visitor.locator("main form button[type=submit]").click()
    visitor.wait_for_url(link)  # back at the invite, now logged in
    visitor.click("[data-testid=invite-sit]")
    visitor.wait_for_url(re.compile(rf".*/tables/{table_id}/$"))


def test_a_revoked_link_is_refused(pages: Pages) -> None:
    _people(pages, "host3", "guest3")
    host = pages.login("host3")
    table_id = _open_private_table(host, "Bàn thu hồi")
    link = _new_link(host, table_id)
    host.click("[data-testid=invite-revoke]")
    host.wait_for_selector("[data-testid=invite-url]", state="detached")

    guest = pages.login("guest3")
    guest.goto(link)
    assert guest.locator("[data-testid=invite-refused]").is_visible()
    assert axe_violations(guest) == []
    _forget_expected_refusals(pages)


def test_a_friend_request_is_accepted_and_join_takes_the_friend_to_the_table(
    pages: Pages,
) -> None:
    _people(pages, "friend4a", "friend4b")
    asker = pages.login("friend4a")
    asker.goto(pages.site.url + "/social/friends/")
    asker.fill("#friend-username", "friend4b")
    asker.click("[data-testid=add-friend]")
    asker.wait_for_selector("[data-testid=outgoing-requests]")

    friend = pages.login("friend4b")
    assert friend.locator("[data-testid=inbox-unread]").inner_text() == "1"  # the one inbox
    friend.click("[data-testid=friends-link]")
    assert axe_violations(friend) == []
    friend.click("[data-testid=accept-request]")
    friend.wait_for_selector("[data-friend=friend4a]")

    asker.goto(pages.site.url + "/lobby/")
    asker.fill("#id_name", "Bàn của bạn")
    asker.click("#create-button")
    asker.wait_for_url(TABLE_URL)
    match = TABLE_URL.match(asker.url)
    assert match is not None

    friend.goto(pages.site.url + "/social/friends/")
    friend.click("[data-friend=friend4a] [data-testid=join-friend]")
    friend.wait_for_url(re.compile(rf".*/tables/{match.group(1)}/$"))
    friend.wait_for_selector("#felt")


def test_an_invitation_to_my_table_reaches_a_friend_with_a_link(pages: Pages) -> None:
    _people(pages, "host5", "friend5")
    host = pages.login("host5")
    friend = pages.login("friend5")
    friend.goto(pages.site.url + "/social/friends/")
    friend.fill("#friend-username", "host5")
    friend.click("[data-testid=add-friend]")
    host.goto(pages.site.url + "/social/friends/")
    host.click("[data-testid=accept-request]")
    table_id = _open_private_table(host, "Nhà Host năm")
    host.goto(pages.site.url + "/social/friends/")
    host.click("[data-friend=friend5] [data-testid=invite-friend]")

    friend.goto(pages.site.url + "/social/notifications/")
    assert axe_violations(friend) == []
    friend.click("[data-testid=notification-link]")
    friend.click("[data-testid=invite-sit]")
    friend.wait_for_url(re.compile(rf".*/tables/{table_id}/$"))
