"""A notice's text, rendered in the reader's language from its kind and params."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from moderation.models import Outcome
from notices import services
from notices.models import CASE_OUTCOMES, Notification, NotificationKind

pytestmark = pytest.mark.django_db


def test_the_case_outcomes_are_moderations_own_words() -> None:
    for language in ("vi", "en"):
        with translation.override(language):
            assert {key: str(word) for key, word in CASE_OUTCOMES.items()} == {
                o.value: str(o.label) for o in Outcome
            }


def test_an_amount_is_written_in_the_readers_language(make_user: Any) -> None:
    an = make_user("an")
    note = services.notify(an.pk, NotificationKind.COMPENSATED, params={"case": 3, "amount": 1500})
    with translation.override("en"):
        assert note.message == "You received a compensation of 1,500 xu for case #3."
    with translation.override("vi"):
        assert "1.500 xu" in Notification.objects.get(pk=note.pk).message


def test_a_resolved_case_names_its_outcome(make_user: Any) -> None:
    an = make_user("an")
    params = {"case": 4, "outcome": "upheld", "resolution": "Xin lỗi."}
    note = services.notify(an.pk, NotificationKind.CASE_RESOLVED, params=params)
    with translation.override("en"):
        assert note.message == "Your case #4 was resolved: Upheld. Xin lỗi."


def test_a_notice_from_a_player_is_renewed_while_unread_not_repeated(make_user: Any) -> None:
    an, binh = make_user("an"), make_user("binh", display_name="Bình")
    first = services.renew_or_notify(an, NotificationKind.TABLE_INVITE, binh, table_name="Một")
    again = services.renew_or_notify(an, NotificationKind.TABLE_INVITE, binh, table_name="Hai")
    assert again.pk == first.pk and again.table_name == "Hai"
    assert services.mark_notifications_read(an) == 1
    fresh = services.renew_or_notify(an, NotificationKind.TABLE_INVITE, binh, table_name="Ba")
    assert fresh.pk != first.pk and "Bình" in fresh.message
