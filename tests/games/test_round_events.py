import pytest
from django.db import DatabaseError, connection, transaction

from games.models import RoundEvent
from tests.support.played import deal_for_two

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _a_round(players, table):
    return deal_for_two(players, table)


def test_the_database_refuses_to_edit_the_round_event_log(players, table):
    round_ = _a_round(players, table)
    event = RoundEvent.objects.filter(round=round_).first()
    assert event is not None
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_roundevent SET kind = 'forged' WHERE id = %s", [event.pk])


def test_the_database_refuses_to_delete_from_the_round_event_log(players, table):
    round_ = _a_round(players, table)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_roundevent WHERE round_id = %s", [round_.pk])
    assert RoundEvent.objects.filter(round=round_).count() >= 3


def test_the_deal_is_logged_with_its_commitment_and_each_players_cards(players, table):
    round_ = _a_round(players, table)
    kinds = list(RoundEvent.objects.filter(round=round_).values_list("kind", flat=True))
    assert kinds == ["deal", "cards", "cards"]
    deal = RoundEvent.objects.get(round=round_, kind="deal")
    assert deal.data["commitment"] == round_.server_seed_hash
