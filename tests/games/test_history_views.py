"""/history/ and /history/<id>/: my rounds; others' finished public rounds; cards only when over."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Round, RoundState
from games.rules import Category
from games.rules.instant import INSTANT_NAMES
from games.rules.presets import BONUS_NAMES
from tests.support.played import deal_for_two, run_timers
from tests.support.played import play_to_the_end as _play_to_the_end

pytestmark = pytest.mark.django_db


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


def test_a_round_has_the_same_number_in_the_history_its_page_and_the_statement(  # type: ignore[no-untyped-def]
    client, players, table
) -> None:
    # Issue 25: the history said #1, #2 where the statement said Ván #9, #10.
    round_ = _play_to_the_end(players, table)
    Round.objects.filter(pk=round_.pk).update(number=round_.pk + 7)  # its table's count differs
    client.force_login(players[0])
    history = client.get(reverse("games:history")).content.decode()
    assert f"<td>#{round_.pk}</td>" in history
    assert f"Ván #{round_.pk} ở bàn" in client.get(_detail(round_)).content.decode()
    assert f"Ván #{round_.pk}" in client.get(reverse("ledger:statement")).content.decode()


def test_a_finished_round_shows_everyones_cards_and_the_seeds(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    client.force_login(players[1])
    page = client.get(_detail(round_)).content.decode()
    assert round_.server_seed in page
    for rp in round_.players.all():
        assert f'data-suit="{rp.cards[0][-1]}"' in page
    assert reverse("ledger:statement") in page  # the link to the ledger
    assert page.count("data-delta=") == 2  # this round's hold and settlement postings


def test_a_finished_public_round_can_be_read_by_someone_who_did_not_play_it(
    client, players, table
) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    client.force_login(players[3])
    page = client.get(_detail(round_)).content.decode()
    assert round_.server_seed in page  # profiles link here: the cards are shown once over
    assert 'data-testid="file-dispute"' not in page  # only players dispute
    verify = client.post(reverse("games:verify", kwargs={"round_id": round_.pk}))
    assert verify.status_code == 404


def test_a_round_at_a_private_table_i_did_not_play_does_not_exist_for_me(
    client, players, table
) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    type(table).objects.filter(pk=table.pk).update(is_private=True)
    client.force_login(players[3])
    assert client.get(_detail(round_)).status_code == 404


def test_a_live_round_i_do_not_play_does_not_exist_for_me(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = deal_for_two(players, table)
    client.force_login(players[3])
    assert client.get(_detail(round_)).status_code == 404


def test_a_live_round_hides_the_other_players_cards(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = deal_for_two(players, table)
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


# --- Words: the round page in the reader's language, amounts written one way -------------

QUADS_HAND = [["AS", "AD", "AC", "AH", "2C"], ["KS", "KD", "7C", "8D", "9H"], ["QS", "QD", "3C"]]
TRIPS_HAND = [["3S", "3D", "3H", "4C", "5D"], ["6S", "6D", "8C", "TD", "JH"], ["2S", "4S", "7S"]]


def _play_dealt(players, table, hands) -> Round:  # type: ignore[no-untyped-def]
    """A two-player round where the hands are the given arrangements (a bonus, a scoop)."""
    round_ = deal_for_two(players, table)
    for player, hand in zip(players, hands, strict=False):
        # Test set-up only: replace the dealt cards so the hand is known.
        round_.players.filter(user=player).update(cards=[c for part in hand for c in part])
        services.submit_arrangement(player, round_.pk, hand)
    round_ = run_timers(round_)
    assert round_.state == RoundState.SETTLED
    return round_


def _visible_text(html: str) -> str:
    """The page's words: tags, scripts and attribute values removed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_the_english_round_page_names_hands_and_bonuses_in_english(  # type: ignore[no-untyped-def]
    client, players, table
) -> None:
    round_ = _play_dealt(players, table, [QUADS_HAND, TRIPS_HAND])
    players[0].preferred_language = "en"
    players[0].save(update_fields=["preferred_language"])
    client.force_login(players[0])
    text = _visible_text(client.get(_detail(round_)).content.decode())
    assert "Four of a kind in chi 1" in text
    assert "Four of a kind" in text
    vietnamese = [c.name_vi for c in Category] + [vi for vi, _en in BONUS_NAMES.values()]
    vietnamese += [vi for vi, _en in INSTANT_NAMES.values()]
    assert [name for name in vietnamese if re.search(rf"\b{re.escape(name)}\b", text)] == []


def test_units_are_signed_with_a_true_minus_and_the_right_plural(  # type: ignore[no-untyped-def]
    client, players, table
) -> None:
    round_ = _play_dealt(players, table, [QUADS_HAND, TRIPS_HAND])
    loser = players[1]
    loser.preferred_language = "en"
    loser.save(update_fields=["preferred_language"])
    client.force_login(loser)
    text = _visible_text(client.get(_detail(round_)).content.decode())
    units = round_.players.get(user=loser).units
    assert units < -1
    assert f"\u2212{-units} units" in text
    assert not re.search(r"(?<![\w-])-\d", text), "a hyphen used as a minus sign"


def test_a_finished_round_offers_a_dispute_and_says_until_when(client, players, table) -> None:  # type: ignore[no-untyped-def]
    round_ = _play_to_the_end(players, table)
    client.force_login(players[0])
    page = client.get(_detail(round_)).content.decode()
    assert reverse("moderation:file_dispute", kwargs={"round_id": round_.pk}) in page
    assert "Bạn có thể khiếu nại đến" in page  # the window, in the reader's language
    assert reverse("moderation:my_cases") in page


def test_a_round_past_the_dispute_window_says_so_instead_of_a_link(  # type: ignore[no-untyped-def]
    client, players, table, settings
) -> None:
    round_ = _play_to_the_end(players, table)
    Round.objects.filter(pk=round_.pk).update(settled_at=timezone.now() - timedelta(days=30))
    client.force_login(players[0])
    page = client.get(_detail(round_)).content.decode()
    assert reverse("moderation:file_dispute", kwargs={"round_id": round_.pk}) not in page
    assert "đã quá hạn" in page


def test_a_hand_played_for_its_owner_is_marked_tu_xep_in_the_history_and_the_round(  # type: ignore[no-untyped-def]
    client, players, table
) -> None:
    round_ = deal_for_two(players, table)
    busy = round_.players.get(user=players[1])
    services.submit_arrangement(
        players[1], round_.pk, [busy.cards[:5], busy.cards[5:10], busy.cards[10:]]
    )
    round_ = run_timers(round_)  # players[0] never touched their hand
    assert round_.players.get(user=players[0]).auto_arranged == "engine"

    client.force_login(players[0])
    assert client.get(reverse("games:history")).content.decode().count("Tự xếp") == 1
    client.force_login(players[1])
    assert "Tự xếp" not in client.get(reverse("games:history")).content.decode()
    text = _visible_text(client.get(_detail(round_)).content.decode())
    assert text.count("Tự xếp") == 1  # the other player's hand, as everyone sees the round
    assert "cách xếp tốt nhất, do hết giờ" in text
    players[1].preferred_language = "en"
    players[1].save(update_fields=["preferred_language"])
    text = _visible_text(client.get(_detail(round_)).content.decode())
    assert "Auto-arranged: the best arrangement, time ran out" in text


# --- Best in hindsight: against what the others played, as they played it ---------------

STRONG_HAND = [["9H", "TH", "JH", "QH", "KH"], ["7S", "7D", "7C", "7H", "2D"], ["5S", "5D", "5C"]]
PAIRS_HAND = [["AS", "AD", "KS", "KD", "3C"], ["QS", "QD", "8C", "9D", "4H"], ["JS", "TS", "6S"]]


def _hindsight_units(page: str) -> int:
    """The signed units in the "Best in hindsight" heading (a true minus, as written)."""
    found = re.search(r"Best in hindsight\s*<span class=\"pill\">([+\u2212]?\d+) unit", page)
    assert found is not None, "no best in hindsight on the page"
    return int(found.group(1).replace("\u2212", "-").replace("+", ""))


def test_the_best_in_hindsight_counts_a_player_who_left_as_they_left(  # type: ignore[no-untyped-def]
    client, players, table
) -> None:
    """binh leaves after chi 1 and forfeits the stronger chi 2 and 3: the arrangement an
    played is one the hindsight considers, against binh as binh left, so it scores at
    least what an won (against binh's full hand every arrangement of an's would lose all
    three chi and be scooped)."""
    round_ = deal_for_two(players, table)
    for player, hand in zip(players, [PAIRS_HAND, STRONG_HAND], strict=False):
        # Test set-up only: replace the dealt cards so the hand is known.
        round_.players.filter(user=player).update(cards=[c for part in hand for c in part])
        services.submit_arrangement(player, round_.pk, hand)
    for _ in range(3):
        round_.refresh_from_db()
        if round_.revealed >= 1:
            break
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=5))
        services.advance_round(round_.pk, round_.state, round_.phase)
    assert (round_.state, round_.revealed) == (RoundState.SHOWDOWN, 1)
    services.stand(players[1])  # binh leaves with chi 1 shown
    round_ = run_timers(round_)
    assert round_.players.get(user=players[1]).left_after_chi == 1
    won = round_.players.get(user=players[0]).units
    players[0].preferred_language = "en"
    players[0].save(update_fields=["preferred_language"])
    client.force_login(players[0])
    assert _hindsight_units(client.get(_detail(round_)).content.decode()) >= won
