"""The benchmark's gauge (games.querycount): timers counted by how late they started."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from games import querycount


def test_a_lateness_falls_in_the_first_bucket_it_does_not_pass():
    assert querycount.late_bucket(-3) == "10"  # early (clocks): on time
    assert querycount.late_bucket(10) == "10"
    assert querycount.late_bucket(10.5) == "25"
    assert querycount.late_bucket(999) == "1000"
    assert querycount.late_bucket(4_999) == "5000"
    assert querycount.late_bucket(60_000) == "inf"


def test_a_timer_task_that_started_late_is_counted_in_its_bucket_and_one_without_eta_is_not():
    querycount._totals.clear()
    eta = (datetime.now(UTC) - timedelta(milliseconds=300)).isoformat()
    late = SimpleNamespace(name="games.advance_round", request=SimpleNamespace(eta=eta))
    prompt = SimpleNamespace(name="games.sweep", request=SimpleNamespace(eta=None))
    querycount._task_started("1", late, args=(1, "showdown", 2))
    querycount._task_started("2", prompt)
    assert querycount._totals == {"late:games.advance_round:500": [1, 0]}
    querycount._task_ended("1", late, args=(1, "showdown", 2))
    querycount._task_ended("2", prompt)
    assert querycount._totals["games.advance_round (no change)"] == [1, 0]
    querycount._totals.clear()


def test_a_showdown_that_writes_only_through_one_with_statement_is_counted_as_the_showdown():
    """A step's last writes are one ``WITH … AS (UPDATE …)`` statement (games.services.writes):
    the gauge counted such a showdown as a timer that changed nothing."""
    querycount._totals.clear()
    task = SimpleNamespace(name="games.advance_round", request=SimpleNamespace(eta=None))
    querycount._task_started("1", task, args=(1, "arranging", 1))
    for sql in (
        'SELECT "games_round"."id" FROM "games_round" FOR NO KEY UPDATE',
        'WITH w0 AS (UPDATE "games_round" SET "state" = v."state") SELECT 1',
    ):
        querycount._count(lambda *args: None, sql, (), False, None)
    querycount._task_ended("1", task, args=(1, "arranging", 1))
    assert querycount._totals == {"showdown": [1, 2]}
    querycount._totals.clear()
