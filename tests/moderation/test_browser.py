"""A moderator resolves a dispute end to end in Chromium (daphne on the test database)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ledger import selectors as ledger_selectors
from moderation.models import Dispute, StaffAction
from tests.moderation.conftest import play_round
from tests.support import live
from tests.support.processes import ROOT, daphne, server_env
from tests.support.services import CHROMIUM, CHROMIUM_ARGS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

SHOTS = ROOT / "test-artifacts" / "screenshots" / "moderation"


@pytest.fixture
def server(tmp_path: Path) -> Any:
    # No REDIS_URL: the in-memory channel layer and broker are enough for HTTP pages.
    env = server_env(DATABASE_URL=live.test_database_url(), LANGUAGE_CODE="vi")
    with daphne(env, tmp_path / "daphne.log") as base:
        yield base


def _log_in(page: Any, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_a_moderator_resolves_a_dispute_end_to_end_in_chromium(
    server: str,
    players: list[Any],
    moderator: Any,
    table: Any,
    password: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM reads in between
    # are still plain synchronous calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    round_ = play_round(players, table)
    an = players[0]
    balance = ledger_selectors.balance(an)
    SHOTS.mkdir(parents=True, exist_ok=True)

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            player = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
            _log_in(player, server, "an", password)
            player.goto(f"{server}/moderation/rounds/{round_.pk}/dispute/")
            player.select_option("#category", "wrong_result")
            player.fill("#text", "Tôi nghĩ chi 2 bị tính sai.")
            player.screenshot(path=SHOTS / "01-player-files-dispute.png", full_page=True)
            player.click("[data-testid=file-dispute]")
            player.wait_for_selector("[data-testid=case-status]")
            case = Dispute.objects.get()

            staff = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            _log_in(staff, server, "mod", password)
            staff.goto(f"{server}/moderation/")
            staff.wait_for_selector(f"tr[data-case='{case.pk}']")
            staff.screenshot(path=SHOTS / "02-queue.png", full_page=True)
            staff.click(f"[data-testid=claim-{case.pk}]")
            staff.wait_for_selector("[data-testid=open-replay]")
            staff.click("[data-testid=open-replay]")
            staff.wait_for_selector("[data-testid=timeline] li[data-kind=settled]")
            assert "✔" in staff.inner_text("[data-testid=verify]")
            staff.click("[data-testid=settle-again]")
            staff.wait_for_selector("[data-testid=paid-correctly]")
            staff.screenshot(path=SHOTS / "03-replay-and-settle-again.png", full_page=True)
            staff.click("[data-testid=back-to-case]")
            staff.fill("[data-testid=comp-amount]", "250")
            staff.fill("[data-testid=comp-reason]", "Trễ mạng khi so bài")
            staff.click("[data-testid=compensate]")
            staff.wait_for_selector("[data-testid=compensation]")
            staff.select_option("[data-testid=outcome]", "upheld")
            staff.fill("[data-testid=resolution]", "Bạn được bồi thường 250 xu. Xin lỗi!")
            staff.click("[data-testid=resolve]")
            staff.wait_for_selector("[data-testid=case-resolution]")
            staff.screenshot(path=SHOTS / "04-case-resolved.png", full_page=True)

            player.goto(f"{server}/moderation/notifications/")
            assert player.inner_text("[data-testid=inbox-unread]") == "4"  # the one inbox
            assert "250" in player.inner_text("[data-testid=notifications]")
            player.screenshot(path=SHOTS / "05-player-notifications.png", full_page=True)
            player.goto(f"{server}/moderation/cases/{case.pk}/")
            assert "Xin lỗi" in player.inner_text("[data-testid=case-resolution]")
            player.screenshot(path=SHOTS / "06-player-sees-resolution.png", full_page=True)
        finally:
            browser.close()

    case.refresh_from_db()
    assert (case.status, case.outcome) == ("resolved", "upheld")
    assert ledger_selectors.balance(an) == balance + 250
    assert set(StaffAction.objects.values_list("action", flat=True)) == {
        "claim",
        "view_replay",
        "compensate",
        "resolve",
    }
