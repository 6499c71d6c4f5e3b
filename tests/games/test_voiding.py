"""Voiding a round returns every stake through the ledger and tells the table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.urls import reverse
from django.utils import timezone

from games import events, services
from games.errors import RoundError
from games.models import Round, RoundEvent, RoundState
from games.services import showdown
from ledger import selectors as ledger_selectors
from ledger import services as ledger_services
from ledger.errors import InvalidSettlement
from ledger.models import RoundClosure

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch):  # type: ignore[no-untyped-def]
    """Every event sent to a table, in order."""
    out: list[dict] = []
    monkeypatch.setattr(events, "to_table", lambda table_id, payload, **_: out.append(payload))
    return out


@pytest.fixture
def seated(players, table):  # type: ignore[no-untyped-def]
    for player in players[:3]:
        services.sit(player, table.pk)
    return players[:3]


def _balances(users):  # type: ignore[no-untyped-def]
    return [ledger_selectors.balance(user) for user in users]


def _to_settlement(round_: Round) -> None:
    """Run the round's timer steps up to the last one (the settlement)."""
    for _step in range(5):
        round_.refresh_from_db()
        if round_.is_finished:
            return
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        services.advance_round(round_.pk, round_.state, round_.phase)


def test_voiding_a_round_returns_every_stake_and_tells_the_table(seated, table, sent):
    before = _balances(seated)
    round_ = services.start_round(seated[0], table.pk)
    assert _balances(seated) != before  # the stakes are held
    services.void_round(round_.pk, reason=services.VoidReason.STAFF, by=seated[0])
    round_.refresh_from_db()
    assert round_.state == RoundState.CANCELLED
    assert _balances(seated) == before
    assert RoundClosure.objects.get(round_id=round_.pk).outcome == "voided"
    voided = [e for e in sent if e["type"] == "voided"]
    assert len(voided) == 1
    assert voided[0]["reason"] == "staff"
    assert {p["balance"] for p in voided[0]["players"]} == set(before)
    assert RoundEvent.objects.filter(round=round_, kind="voided").exists()
    call_command("ledger_check")


def test_a_voided_round_ignores_its_pending_timers(seated, table):
    round_ = services.start_round(seated[0], table.pk)
    services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.advance_round(round_.pk, "arranging", 1) is None
    assert services.sweep_due_rounds() == 0 or Round.objects.get(pk=round_.pk).is_finished


def test_the_next_round_is_counted_down_after_a_void(seated, table):
    round_ = services.start_round(seated[0], table.pk)
    services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    table.refresh_from_db()
    assert table.start_at is not None


def test_a_round_that_is_over_cannot_be_voided(seated, table):
    round_ = services.start_round(seated[0], table.pk)
    services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    with pytest.raises(RoundError) as refused:
        services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    assert refused.value.code == "round_over"


def test_a_settlement_the_ledger_refuses_voids_the_round_instead_of_retrying_for_ever(
    seated, table, sent, monkeypatch
):
    before = _balances(seated)
    round_ = services.start_round(seated[0], table.pk)

    def refuse(round_id, deltas):  # type: ignore[no-untyped-def]
        raise InvalidSettlement(detail="the amounts do not add up to zero")

    monkeypatch.setattr(ledger_services, "settle_round", refuse)  # what xu tables call
    _to_settlement(round_)
    round_.refresh_from_db()
    assert round_.state == RoundState.CANCELLED
    assert _balances(seated) == before
    assert [e["reason"] for e in sent if e["type"] == "voided"] == ["settlement_failed"]
    assert not [e for e in sent if e["type"] == "settled"]
    versions = [e["version"] for e in sent]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    call_command("ledger_check")


def test_a_settlement_that_fails_after_the_ledger_paid_leaves_nothing_of_it_and_voids(
    seated, table, sent, monkeypatch
):
    # The ledger pays, then the summary fails: the step rolls back whole (the payouts, the
    # round's results, its log), and the round is voided in a transaction of its own.
    before = _balances(seated)
    round_ = services.start_round(seated[0], table.pk)

    def broken_summary(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise ValueError("a summary that cannot be built")

    monkeypatch.setattr(showdown, "summary_payload", broken_summary)
    _to_settlement(round_)
    round_.refresh_from_db()
    assert round_.state == RoundState.CANCELLED
    assert round_.settlement is None
    assert _balances(seated) == before
    kinds = list(RoundEvent.objects.filter(round=round_).values_list("kind", flat=True))
    assert "settled" not in kinds and kinds[-1] == "voided"
    assert [e["reason"] for e in sent if e["type"] == "voided"] == ["settlement_failed"]
    assert not [e for e in sent if e["type"] == "settled"]
    assert [c.outcome for c in RoundClosure.objects.filter(round_id=round_.pk)] == ["voided"]
    call_command("ledger_check")


def test_a_transient_database_fault_in_settlement_is_retried_not_voided(seated, table, monkeypatch):
    round_ = services.start_round(seated[0], table.pk)

    def lose_connection(table, round_):  # type: ignore[no-untyped-def]
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(showdown, "settle", lose_connection)
    with pytest.raises(OperationalError):
        _to_settlement(round_)
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN


def test_the_history_of_a_voided_round_says_so(seated, table, client):
    round_ = services.start_round(seated[0], table.pk)
    services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    client.force_login(seated[1])
    page = client.get(reverse("games:round_detail", args=[round_.pk]))
    assert page.status_code == 200
    assert b'data-testid="round-voided"' in page.content
    listing = client.get(reverse("games:history"))
    assert round_.number and listing.status_code == 200


def test_a_snapshot_after_a_void_shows_the_voided_round(seated, table):
    from games.selectors import table_snapshot

    round_ = services.start_round(seated[0], table.pk)
    services.void_round(round_.pk, reason=services.VoidReason.STAFF)
    table.refresh_from_db()
    snap = table_snapshot(table, seated[0])
    assert snap["round"]["state"] == "cancelled"
    assert snap["round"]["voided"]["reason"] == "staff"
