"""A query compiled once returns, run after run, what its queryset would have returned."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import Count, Subquery
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from core.compiled import Compiled
from games import services
from games.models import Table

pytestmark = pytest.mark.django_db

TABLE_WITH_HOST = Compiled(lambda pk: Table.objects.select_related("host").filter(pk=pk))


@pytest.fixture
def tables(make_user):  # type: ignore[no-untyped-def]
    hosts = [make_user("an"), make_user("binh")]
    return [
        services.create_table(
            host, name=f"Bàn {k}", stake=10, rules_overrides={"reveal_seconds": k}
        )
        for k, host in enumerate(hosts, start=2)
    ]


def test_each_run_finds_the_row_its_arguments_name_with_its_related_row_and_decoded_json(
    tables,
):
    for expected in tables:
        reference = Table.objects.select_related("host").get(pk=expected.pk)
        with CaptureQueriesContext(connection) as queries:
            (found,) = TABLE_WITH_HOST.all(expected.pk)
            assert found.host.username == reference.host.username  # no query: it came along
        assert len(queries) == 1
        assert found.pk == expected.pk and found.name == reference.name
        assert (
            found.rules_overrides
            == reference.rules_overrides
            == {"reveal_seconds": expected.rules_overrides["reveal_seconds"]}
        )
        assert found.created_at == reference.created_at
        assert found._state.adding is False and found._state.db == "default"


def test_a_run_that_matches_nothing_returns_nothing(tables):
    assert TABLE_WITH_HOST.all(max(t.pk for t in tables) + 1) == []
    assert TABLE_WITH_HOST.first(max(t.pk for t in tables) + 1) is None


def test_arguments_go_where_the_queryset_put_them_a_subquery_included(tables):
    hosted = Compiled(
        lambda host_id, stake: Table.objects.filter(
            host=Subquery(User.objects.filter(pk=host_id).values("pk")), stake__gte=stake
        ),
        arity=2,
    )
    first, second = tables
    assert hosted.all(first.host_id, 10) == [first]
    assert hosted.all(second.host_id, 10) == [second]
    assert hosted.all(first.host_id, 11) == []
    with pytest.raises(TypeError):
        hosted.all(first.host_id)


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_a_locking_query_is_refused_outside_a_transaction_as_django_refuses_it(tables):
    locking = Compiled(lambda pk: Table.objects.select_for_update().filter(pk=pk))
    with transaction.atomic():
        assert locking.first(tables[0].pk) is not None
    with pytest.raises(TransactionManagementError):
        locking.first(tables[0].pk)


def test_a_queryset_it_cannot_replay_is_refused_at_its_first_run(tables):
    with pytest.raises(ValueError, match="plain model queryset"):
        Compiled(lambda pk: Table.objects.filter(pk=pk).annotate(n=Count("rounds"))).all(1)
    with pytest.raises(ValueError, match="plain model queryset"):
        Compiled(lambda pk: Table.objects.filter(pk=pk).values("name")).all(1)
    with pytest.raises(ValueError, match="once"):
        Compiled(lambda pk: Table.objects.filter(name="x")).all(1)
