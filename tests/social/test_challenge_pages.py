"""The player page's "Thách đấu" form and the inbox's accept / decline buttons."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Seat
from social import services
from social.models import Challenge, ChallengeState

pytestmark = pytest.mark.django_db


def _card(user) -> str:  # type: ignore[no-untyped-def]
    return reverse("profiles:profile", kwargs={"user_id": user.pk})


def test_the_player_page_offers_a_challenge_in_vietnamese_by_default(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    page = client.get(_card(binh)).content.decode()
    assert reverse("social:challenge", kwargs={"user_id": binh.pk}) in page
    assert "Thách đấu" in page


def test_a_challenge_sent_from_the_player_page_returns_to_it_and_offers_to_withdraw(
    client, people
) -> None:
    an, binh, _chi = people
    client.force_login(an)
    response = client.post(
        reverse("social:challenge", kwargs={"user_id": binh.pk}),
        {"stake": "10", "preset": "classic", "next": _card(binh)},
    )
    assert response["Location"] == _card(binh)
    made = Challenge.objects.get(challenger=an, challenged=binh)
    assert (made.stake, made.preset, made.state) == (10, "classic", "open")
    page = client.get(_card(binh)).content.decode()
    assert reverse("social:cancel_challenge", kwargs={"challenge_id": made.pk}) in page


def test_the_page_form_refuses_what_the_create_table_form_refuses(client, people) -> None:
    an, binh, _chi = people
    client.force_login(an)
    client.post(
        reverse("social:challenge", kwargs={"user_id": binh.pk}),
        {"stake": "0", "preset": "portal", "next": _card(binh)},
    )
    assert not Challenge.objects.exists()


def test_the_inbox_accepts_a_challenge_and_goes_to_the_table(client, people) -> None:
    an, binh, _chi = people
    made = services.challenge(an, binh, preset="portal", stake=10)
    client.force_login(binh)
    inbox = client.get(reverse("inbox")).content.decode()
    accept = reverse("social:accept_challenge", kwargs={"challenge_id": made.pk})
    assert accept in inbox
    response = client.post(accept)
    made.refresh_from_db()
    assert made.state == ChallengeState.ACCEPTED
    assert response["Location"] == reverse("games:table", kwargs={"table_id": made.table_id})
    assert Seat.objects.filter(table_id=made.table_id).count() == 2
    assert accept not in client.get(reverse("inbox")).content.decode()  # answered


def test_the_inbox_declines_a_challenge_in_english_too(client, people) -> None:
    an, binh, _chi = people
    made = services.challenge(an, binh, preset="portal", stake=10)
    binh.preferred_language = "en"
    binh.save(update_fields=["preferred_language"])
    client.force_login(binh)
    inbox = client.get(reverse("inbox")).content.decode()
    assert "challenges you to a heads-up table" in inbox
    client.post(reverse("social:decline_challenge", kwargs={"challenge_id": made.pk}))
    made.refresh_from_db()
    assert made.state == ChallengeState.DECLINED
