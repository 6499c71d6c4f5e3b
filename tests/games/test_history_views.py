"""/history/ and /history/<id>/: players see only rounds they played, cards only when over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Round, RoundState

pytestmark = pytest.mark.django_db


def _play_to_the_end(players, table) -> Round:  # type: ignore[no-untyped-def]
    services.sit(players[0], table.pk)
    services.sit(players[1], table.pk)
    round_ = services.start_round(players[0], table.pk)
    for rp in round_.players.select_related("user"):
        services.submit_arrangement(
            rp.user, round_.pk, [rp.cards[:5], rp.cards[5:10], rp.cards[10:]]
        )
    for _ in range(6):
        round_.refresh_from_db()
        if round_.state == RoundState.SETTLED:
            break
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        services.advance_round(round_.pk, round_.state, round_.phase)
    round_.refresh_from_db()
    return round_


def _detail(round_: Round) -> str:
    return reverse("games:round_detail", kwargs={"round_id": round_.pk})


def test_the_list_shows_my_rounds_with_their_result(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    client.force_login(players[0])
    page = client.get(reverse("games:history")).content.decode()
    assert _detail(round_) in page
    client.force_login(players[2])
    page = client.get(reverse("games:history")).content.decode()
    assert _detail(round_) not in page


def test_a_finished_round_shows_everyones_cards_and_the_seeds(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    client.force_login(players[1])
    page = client.get(_detail(round_)).content.decode()
    assert round_.server_seed in page
    for rp in round_.players.all():
        assert f'data-suit="{rp.cards[0][-1]}"' in page
    assert reverse("ledger:statement") in page  # the link to the ledger
    assert page.count("data-delta=") == 2  # this round's hold and settlement postings


def test_a_round_i_did_not_play_does_not_exist_for_me(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    client.force_login(players[3])
    assert client.get(_detail(round_)).status_code == 404
    verify = client.post(reverse("games:verify", kwargs={"round_id": round_.pk}))
    assert verify.status_code == 404


def test_a_live_round_hides_the_other_players_cards(client, players, table) -> None:  # type: ignore[no-untyped-def]
    services.sit(players[0], table.pk)
    services.sit(players[1], table.pk)
    round_ = services.start_round(players[0], table.pk)
    theirs = round_.players.get(user=players[1])
    client.force_login(players[0])
    page = client.get(_detail(round_)).content.decode()
    assert round_.server_seed not in page
    assert "round-player" not in page
    assert all(f'aria-label="{code}"' not in page for code in theirs.cards)


def test_verify_confirms_a_finished_deal(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    client.force_login(players[0])
    reply = client.post(reverse("games:verify", kwargs={"round_id": round_.pk})).json()
    assert reply["ok"] is True
