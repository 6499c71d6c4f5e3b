"""The real stack for browser tests: daphne on a scratch SQLite file, Debian Chromium.

One site for the tests of this package (migrated, static files collected, two players
created through the sign-up service); every test opens its own browser contexts, and every
page's console errors and Content-Security-Policy violations fail the test that opened it.

The site and the browser last as long as this package's tests (they run together, on one
xdist worker under ``make test``) and no longer: Playwright's sync API keeps an event loop
running in the thread, and Django refuses database queries from a thread with a running
loop, so a database test after them in the same process would fail.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.migrated import copy_sqlite
from tests.support.processes import ROOT, collect_static, daphne, manage, server_env
from tests.support.services import CHROMIUM, CHROMIUM_ARGS

SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PASSWORD = "maubinh-Browser-42"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Issue 13's four sizes: every step of a table flow is shot at each (``shoot(..., SIZES)``).
SIZES = [
    {"width": 360, "height": 640},
    {"width": 390, "height": 844},
    {"width": 768, "height": 1024},
    {"width": 1366, "height": 768},
]

CSP_REPORTER = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile}:${e.lineNumber}`);
});
"""

CREATE_USERS = """
from accounts import services
for name, display in {users!r}:
    services.sign_up(username=name, password={password!r}, display_name=display)
"""


@dataclass
class Site:
    url: str
    env: dict[str, str]

    def manage(self, *args: str) -> str:
        done = manage(self.env, *args)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("site")
    # The four shared players open tables in many tests of one session: no per-person cap.
    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        LOG_LEVEL="WARNING",
        TABLES_OPEN_PER_USER="1000",
        TABLES_CREATED_PER_HOUR="1000",
        # Every visitor the tests sign up comes from 127.0.0.1: each gets the grant.
        SIGNUP_GRANTS_PER_ADDRESS_PER_DAY="1000",
        # Arenas (test_arena.py): a short wait for a third player, a short summary.
        ARENA_PAIR_WAIT_SECONDS="2",
        ARENA_SUMMARY_SECONDS="3",
        TOURNAMENT_REVEAL_SECONDS="2",
    )
    copy_sqlite(tmp / "db.sqlite3")  # migrated (tests.support.migrated)
    setup = Site("", env)
    collect_static(env)
    users = [("an", "An"), ("binh", "Bình"), ("dung", "Dũng"), ("em", "Em")]
    setup.manage("shell", "-c", CREATE_USERS.format(users=users, password=PASSWORD))
    with daphne(env, tmp / "daphne.log") as url:
        yield Site(url, env)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


FUNCTION = re.compile(r"^\s*(async\b|function\b|\(|[\w$]+\s*=>)")


def _without_eval(page: Any) -> None:
    """Playwright polls a wait_for_function *expression* with the page's eval(), which the
    site's Content-Security-Policy rightly refuses; as an arrow function it needs none."""
    original = page.wait_for_function

    def wait_for_function(expression: str, *args: Any, **kwargs: Any) -> Any:
        if not FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return original(expression, *args, **kwargs)

    page.wait_for_function = wait_for_function


@dataclass
class Pages:
    """Opens logged-in pages and collects their console errors."""

    site: Site
    browser: Any
    errors: list[str] = field(default_factory=list)
    contexts: list[Any] = field(default_factory=list)

    def new(
        self,
        viewport: dict[str, int] = DESKTOP,
        name: str = "",
        touch: bool = False,
        service_workers: str = "block",
    ) -> Any:
        # The site's service worker (maubinh_site/pwa.py) is blocked unless a test is about
        # it: requests it makes are not the page's, so page.route would not see them.
        context = self.browser.new_context(
            viewport=viewport, locale="vi-VN", has_touch=touch, is_mobile=touch,
            service_workers=service_workers,
        )  # fmt: skip
        # A wait returns as soon as it is met: its bound only says when to give up, and
        # must hold on a machine the whole suite loads (load average 15 on 2 cores
        # measured, 6 Dec 2026, when a 15 s bound ran out on an enabled-button wait).
        context.set_default_timeout(30_000)
        # Chromium reports a Content-Security-Policy violation on the console too; this
        # makes every one an error with its directive, so any test that meets one fails.
        context.add_init_script(CSP_REPORTER)
        self.contexts.append(context)
        page = context.new_page()
        _without_eval(page)
        label = name or f"page{len(self.contexts)}"
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{label}: {message.text}") if message.type == "error" else None
            ),
        )
        page.on("pageerror", lambda error: self.errors.append(f"{label}: {error}"))
        return page

    def login(
        self,
        username: str,
        viewport: dict[str, int] = DESKTOP,
        touch: bool = False,
        service_workers: str = "block",
    ) -> Any:
        page = self.new(viewport, username, touch, service_workers)
        page.goto(self.site.url + "/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(self.site.url + "/")
        return page

    def sign_up(
        self, username: str, viewport: dict[str, int] = DESKTOP, display_name: str = ""
    ) -> Any:
        """A new page on which ``username`` signs up (a player of the test's own: the shared
        ones may be seated elsewhere) and lands on the home page."""
        page = self.new(viewport, username)
        page.goto(self.site.url + "/accounts/signup/")
        page.fill("#id_username", username)
        if display_name:
            page.fill("#id_display_name", display_name)
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(self.site.url + "/")
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def table_frames(page: Any) -> list[dict[str, Any]]:
    """The frames the page's table sockets receive from now on, parsed, as they come."""
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda payload: frames.append(json.loads(payload)) if "/ws/tables/" in ws.url else None,
        ),
    )
    return frames


FAILURES = ROOT / "test-artifacts" / "failures"
_CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        item.stash[_CALL_FAILED] = True


def _shoot_failure(opened: Pages, test: str) -> None:
    """Every page still open when a test failed, as it looked then (test-artifacts/failures):
    a wait that ran out says what it waited for, the screenshot what there was instead."""
    FAILURES.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^\w.-]+", "-", test)[-150:]
    for c, context in enumerate(opened.contexts):
        for p, page in enumerate(context.pages):
            try:
                page.screenshot(path=str(FAILURES / f"{stem}-{c}-{p}.png"), full_page=True)
            except Exception:  # a page that crashed has nothing to show
                continue


@pytest.fixture
def pages(site: Site, browser: Any, request: pytest.FixtureRequest) -> Iterator[Pages]:
    opened = Pages(site, browser)
    yield opened
    if request.node.stash.get(_CALL_FAILED, False):
        _shoot_failure(opened, request.node.nodeid)
    opened.close()
    assert not opened.errors, "console errors:\n" + "\n".join(opened.errors)


# Two animation frames: the page has laid itself out again after a resize.
LAID_OUT = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.fixture
def shoot() -> Callable[..., None]:
    """Full-page screenshots of a step: at the page's own size (``name-<width>.png``), or at
    each of ``sizes`` (``name-<w>x<h>.png``) and then back to its own size, so a step played
    once is shot at the four sizes instead of the whole flow being played four times."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, sizes: list[dict[str, int]] | None = None) -> None:
        if sizes is None:
            width = page.viewport_size["width"]
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True)
            return
        own = page.viewport_size
        try:
            for size in sizes:
                page.set_viewport_size(size)
                page.evaluate(LAID_OUT)
                path = SCREENSHOTS / f"{name}-{size['width']}x{size['height']}.png"
                page.screenshot(path=str(path), full_page=True)
        finally:
            page.set_viewport_size(own)
            page.evaluate(LAID_OUT)

    return take


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations on the page as it is now."""
    # Evaluated over the DevTools protocol, not injected as an inline <script> (which the
    # site's Content-Security-Policy refuses, as it should).
    page.evaluate(AXE.read_text())
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


MARK_FOCUSED = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'none';
  if (el.dataset.kbSeen) return 'again';
  el.dataset.kbSeen = '1';
  return 'new';
}
"""
NOT_REACHED = """
() => {
  // checkVisibility also sees content hidden in a closed <details>.
  const visible = (el) => el.checkVisibility({checkVisibilityCSS: true});
  const selector = 'a[href], button, input, select, summary, textarea';
  const controls = [...document.querySelectorAll(selector)]
    .filter((el) => !el.disabled && visible(el) && !el.closest('dialog:not([open])'));
  const cardSeen = controls.some((el) => el.dataset.card && el.dataset.kbSeen);
  return controls
    .filter((el) => !el.dataset.kbSeen && !(el.dataset.card && cardSeen))
    .map((el) => el.outerHTML.slice(0, 120));
}
"""


def unreachable_by_keyboard(page: Any, limit: int = 200) -> list[str]:
    """Controls that Tab never reaches (the 13 cards are one tab stop, arrows move inside)."""
    page.evaluate(
        "document.querySelectorAll('[data-kb-seen]').forEach(e => delete e.dataset.kbSeen)"
    )
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(MARK_FOCUSED) == "again":
            break
    return page.evaluate(NOT_REACHED)
