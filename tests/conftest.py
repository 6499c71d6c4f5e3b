from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from tests.support.services import (
    CHROMIUM_MISSING,
    CI,
    POSTGRES_MISSING,
    REDIS_MISSING,
    TEST_DATABASE_URL,
)

_MISSING = {"postgres": POSTGRES_MISSING, "redis": REDIS_MISSING, "browser": CHROMIUM_MISSING}


def _xdist_controller(config: pytest.Config) -> bool:
    """This process hands tests to pytest-xdist workers (``make test``: ``-n 2``)."""
    return getattr(config.option, "dist", "no") != "no" and not hasattr(config, "workerinput")


@pytest.hookimpl(trylast=True)  # after pytest-django has pointed Django at tests.settings
def pytest_configure(config: pytest.Config) -> None:
    if _xdist_controller(config):
        # collectstatic rewrites the manifest and the hashed JS/CSS: run once, before any
        # worker serves them (workers and the chaos run inherit the variable and skip it).
        from tests.support.processes import STATIC_COLLECTED, collect_static, site_env

        collect_static(site_env())
        os.environ[STATIC_COLLECTED] = "1"
    if POSTGRES_MISSING is None:
        # Each test database (one per xdist worker) is cloned from a migrated template,
        # made once for this set of migrations (by the controller, before its workers):
        # Django's migrate then finds nothing to do (tests.support.migrated).
        from django.conf import settings

        from tests.support.migrated import postgres_template

        test = settings.DATABASES["default"].setdefault("TEST", {})
        test["TEMPLATE"] = postgres_template(TEST_DATABASE_URL)


# Under xdist (``make test``: -n 3 --dist loadgroup) the long work starts first, each on
# one worker: the chaos run (tests/site/test_chaos.py, minutes of a stack of its own),
# the browser tests in two halves of about the same length (each half on one worker with
# a site and a Chromium of its own: one group of all of them alone ran 20 minutes under
# load), and the 3-minute arena. The rest goes to whichever worker is free.
FIRST_GROUPS = ("chaos", "browser", "browser-2", "browser-arena")
# The browser modules of the second half (by their measured length, 2 Dec 2026: about
# 530 s each way under load 8): the rest of tests/browser is the first.
SECOND_BROWSER_HALF = frozenset(
    {
        "test_phone_table",
        "test_quick_play",
        "test_social",
        "test_profiles",
        "test_table_layout",
        "test_notifications",
        "test_header_menu",
        "test_daily_hand",
        "test_pages",
        "test_security",
        "test_create_table_form",
        "test_hands_parity",
        "test_installable",
    }
)


def _group(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    return str(mark.args[0] if mark.args else mark.kwargs["name"]) if mark else None


def _loadgroup(config: pytest.Config) -> bool:
    """An xdist worker under --dist loadgroup (xdist sets the option in workers only)."""
    return bool(getattr(config.option, "loadgroup", False))


def pytest_itemcollected(item: pytest.Item) -> None:
    if not _loadgroup(item.config):
        return
    if "site" in getattr(item, "fixturenames", ()) and _group(item) is None:
        module = getattr(item, "module", None)
        name = module.__name__.rpartition(".")[2] if module is not None else ""
        half = "browser-2" if name in SECOND_BROWSER_HALF else "browser"
        item.add_marker(pytest.mark.xdist_group(half))


def _node_id_from_name(item: pytest.Item) -> None:
    """The node id its name says. schemathesis names each API operation's item
    ``test_x[GET /api/daily]``, but pytest 9 builds a node id from the function's original
    name and a parametrize callspec only, so the 19 operations shared one node id; and
    pytest-xdist, which schedules by node id, ran one of them under ``make test``."""
    original = getattr(item, "originalname", None)
    if original and item.name != original and item.nodeid.endswith(f"::{original}"):
        # What Node.__init__ computes without a node id given (pytest 9's NodeId: the
        # node id is no longer a string attribute, so schemathesis's own fix, setting
        # ``_nodeid``, does nothing).
        item._id = item.parent.id.child(item.name)  # type: ignore[union-attr]


@pytest.hookimpl(trylast=True)  # after pytest-django's order (transactional tests last)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip (or, under CI, fail) tests whose service is absent, with a one-line reason;
    every item its own node id; under xdist, the long-running groups first."""
    for item in items:
        _node_id_from_name(item)
    if _loadgroup(config):
        rank = {group: index for index, group in enumerate(FIRST_GROUPS)}
        items.sort(key=lambda item: rank.get(_group(item) or "", len(rank)))  # stable
    for item in items:
        for marker, reason in _MISSING.items():
            if reason and item.get_closest_marker(marker):
                if CI:
                    item.add_marker(pytest.mark.usefixtures("_service_required_in_ci"))
                    item.user_properties.append(("missing", reason))
                else:
                    item.add_marker(pytest.mark.skip(reason=reason))


# Under CI=true nothing may be skipped, for any reason (a skipif's missing tool as much as a
# missing service): the run fails, naming the skipped tests. Counted where the reports
# arrive, in the xdist controller too.
_skipped_in_ci: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if CI and report.skipped:
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        _skipped_in_ci.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session) -> None:
    if CI and _skipped_in_ci and not hasattr(session.config, "workerinput"):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if CI and _skipped_in_ci:
        terminalreporter.write_line(
            f"CI=true and {len(_skipped_in_ci)} test(s) skipped: the run fails", red=True
        )
        for line in _skipped_in_ci:
            terminalreporter.write_line(f"  {line}")


@pytest.fixture
def _service_required_in_ci(request: pytest.FixtureRequest) -> None:
    reasons = [value for key, value in request.node.user_properties if key == "missing"]
    pytest.fail(f"CI=true but a required service is missing: {'; '.join(reasons)}")


@pytest.fixture(autouse=True)
def _no_live_tables_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal pacing counts the live tables once every few seconds in each process
    (games.services.countdown.deal_rate): whether a test's step ran that count would hang
    on the clock. Every test starts with the count made (none live) for as long as it runs;
    a test of the adaptive rate counts afresh with ``forget_live_tables``."""
    import time

    from games.services import countdown

    monkeypatch.setattr(countdown, "LIVE_TABLES_TTL", 24 * 3600.0)
    monkeypatch.setattr(countdown, "_live", (time.monotonic(), 0))


@pytest.fixture(autouse=True)
def _cache_rolled_back_with_the_database() -> Iterable[None]:
    """Each test's database is rolled back; the in-process cache would not be. A key one test
    left (bots' "make room at table 7") would meet the next test's table 7, since SQLite
    gives a rolled-back id out again: the cache is emptied after every test. (A Redis cache,
    which a test's own server may use, is that server's and is namespaced per run.)"""
    yield
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for cache in caches.all(initialized_only=True):
        if isinstance(cache, LocMemCache):
            cache.clear()


@pytest.fixture
def password() -> str:
    return "a-long-Passw0rd!"


@pytest.fixture
def make_user(db: None, password: str):  # type: ignore[no-untyped-def]
    """Create a player through the sign-up service (so listeners like the ledger run)."""
    from accounts import services

    counter = {"n": 0}

    def make(username: str | None = None, **kwargs: object):  # type: ignore[no-untyped-def]
        counter["n"] += 1
        name = username or f"player{counter['n']}"
        return services.sign_up(username=name, password=password, **kwargs)  # type: ignore[arg-type]

    return make


BIGINT = 2**63 - 1


def _beyond_a_bigint(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -BIGINT - 1 <= value <= BIGINT
    if isinstance(value, list | tuple):
        return any(_beyond_a_bigint(item) for item in value)
    return False


@pytest.fixture
def huge_numbers_queried(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The queries run with a whole number beyond a bigint among their parameters, on any
    thread (a socket's database work runs on threads of its own): none should be, since
    an id from outside is bounded before it reaches the database (accounts.ids). SQLite
    cannot bind such a number (OverflowError: a 500); PostgreSQL compares it for nothing."""
    from django.db.backends import utils

    seen: list[str] = []
    original = utils.CursorWrapper._execute_with_wrappers

    def guarded(self: Any, sql: str, params: Any, many: bool, executor: Any) -> Any:
        if many and params is not None:
            params = list(params)
            batches: Iterable[Any] = params
        else:
            batches = [params]
        for batch in batches:
            values = batch.values() if isinstance(batch, dict) else (batch or ())
            if any(_beyond_a_bigint(value) for value in values):
                seen.append(sql[:300])
        return original(self, sql, params, many, executor)

    monkeypatch.setattr(utils.CursorWrapper, "_execute_with_wrappers", guarded)
    return seen


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """What ``games.events.publish`` was handed, as (group, payload), instead of sending it."""
    from games import events

    sent: list[tuple[str, dict[str, Any]]] = []

    def record(group: str, payload: dict[str, Any], **_: Any) -> None:
        sent.append((group, payload))

    monkeypatch.setattr(events, "publish", record)
    return sent


@pytest.fixture
def own_socket_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Table commands and handshakes on threads of this test's, whose connections are
    closed afterwards (an open one would keep the test database from being dropped)."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    from games import consumers

    pools = {
        name: ThreadPoolExecutor(max_workers=1)
        for name in ("_COMMAND_THREADS", "_HANDSHAKE_THREADS")
    }
    for name, pool in pools.items():
        monkeypatch.setattr(consumers, name, pool)
    yield
    for pool in pools.values():
        pool.submit(connections.close_all).result()
        pool.shutdown()
