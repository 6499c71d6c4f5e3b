"""A challenge in real browsers: sent from the player page's "Thách đấu" form, accepted in
the inbox, both players at its table; the page and the inbox axe-clean."""

from __future__ import annotations

import re

from tests.browser.conftest import Pages, axe_violations
from tests.browser.test_social import _people

TABLE_URL = re.compile(r".*/tables/(\d+)/$")


def test_a_challenge_from_the_player_page_is_accepted_in_the_inbox(pages: Pages) -> None:
    _people(pages, "thach1", "nhan1")
    found = pages.site.manage(
        "shell",
        "-c",
        "from accounts.models import User; print(User.objects.get(username='nhan1').pk)",
    )
    challenged_id = int(found.strip().splitlines()[-1])
    challenger = pages.login("thach1")
    challenger.goto(f"{pages.site.url}/players/{challenged_id}/")
    challenger.click("[data-testid=challenge]")  # opens the small form
    assert axe_violations(challenger) == []
    challenger.fill("#challenge-stake", "10")
    challenger.select_option("#challenge-preset", "classic")
    challenger.click("[data-testid=send-challenge]")
    challenger.wait_for_selector("[data-testid=cancel-challenge]")

    challenged = pages.login("nhan1")
    challenged.goto(f"{pages.site.url}/inbox/")
    challenged.wait_for_selector("[data-testid=accept-challenge]")
    assert axe_violations(challenged) == []
    challenged.click("[data-testid=accept-challenge]")
    challenged.wait_for_url(TABLE_URL)
    challenged.wait_for_selector("#felt")
    match = TABLE_URL.match(challenged.url)
    assert match is not None
    challenger.goto(f"{pages.site.url}/tables/{match.group(1)}/")
    challenger.wait_for_selector("#felt")  # a private table that lets its challenger in
