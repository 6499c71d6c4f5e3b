"""The collusion signals among one tournament's entrants and its own rounds
(``moderation.collusion.tournament_findings``, the answer to
``games.signals.collusion_check_requested``): deliberate fouls, shared addresses, chip
dumping, each with its thresholds; house bots and this machine's own address never count."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services as games
from games.models import Round, RoundState, Table
from games.signals import collusion_check_requested
from moderation.collusion import DUMP_MIN_ROUNDS, FOUL_MIN, tournament_findings
from moderation.models import SeatIP, UserIP
from tests.support.arranging import naive_arrangement

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _foul(cards: list[str]) -> list[list[str]]:
    best = naive_arrangement(cards)
    return [best[2] + best[1][:2], best[0], best[1][2:]]


def play(
    players: list[Any], table: Table, rounds: int, foulers: list[Any], *, sit: bool = True
) -> list[int]:
    """Everyone seated plays ``rounds`` rounds; the foulers send a binh lủng in each."""
    for p in players if sit else ():
        games.sit(p, table.pk)
    played = []
    for _ in range(rounds):
        round_ = games.start_round(players[0], table.pk)
        for rp in round_.players.select_related("user"):
            chi = _foul(rp.cards) if rp.user in foulers else naive_arrangement(rp.cards)
            games.submit_arrangement(rp.user, round_.pk, chi)
        for _step in range(8):
            round_.refresh_from_db()
            if round_.state == RoundState.SETTLED:
                break
            past = timezone.now() - timedelta(seconds=1)
            Round.objects.filter(pk=round_.pk).update(deadline=past)
            games.advance_round(round_.pk, round_.state, round_.phase)
        assert round_.state == RoundState.SETTLED
        played.append(round_.pk)
    return played


def _ids(players: list[Any]) -> list[int]:
    return [p.pk for p in players]


def test_three_accounts_fouling_every_round_for_a_fourth_fire_fouls_and_chip_dumping(
    players, table
):
    rounds = play(players, table, DUMP_MIN_ROUNDS, players[1:])
    findings = tournament_findings(_ids(players), rounds)
    signals = {(f["signal"], tuple(f["users"])) for f in findings}
    for cheat in players[1:]:
        assert ("fouls", (cheat.pk,)) in signals
        assert ("chip_dumping", (cheat.pk, players[0].pk)) in signals
    assert not any(f["signal"] == "fouls" and players[0].pk in f["users"] for f in findings)
    fouls = next(f for f in findings if f["signal"] == "fouls")
    assert (fouls["fouls"], fouls["rounds"]) == (DUMP_MIN_ROUNDS, DUMP_MIN_ROUNDS)


def test_one_round_short_of_the_threshold_fires_no_chip_dumping(players, table):
    rounds = play(players, table, DUMP_MIN_ROUNDS - 1, players[1:])
    assert not [
        f for f in tournament_findings(_ids(players), rounds) if f["signal"] == "chip_dumping"
    ]


def test_rounds_of_three_count_half_towards_chip_dumping(players, table):
    """With one other opponent to lose to, honest losses spread far less (in 13 % of honest
    5-round three-handed tournaments the old count fired): a round of three counts half."""
    three = players[:3]
    rounds = play(three, table, 2 * DUMP_MIN_ROUNDS - 1, three[1:])
    assert not [
        f for f in tournament_findings(_ids(three), rounds) if f["signal"] == "chip_dumping"
    ]
    rounds += play(three, table, 1, three[1:], sit=False)
    signals = {(f["signal"], tuple(f["users"])) for f in tournament_findings(_ids(three), rounds)}
    for cheat in three[1:]:
        assert ("chip_dumping", (cheat.pk, three[0].pk)) in signals


def test_honest_rounds_fire_nothing(players, table):
    rounds = play(players, table, 5, [])
    assert tournament_findings(_ids(players), rounds) == []


def test_a_foul_now_and_then_is_not_deliberate(players, table):
    rounds = play(players, table, FOUL_MIN - 1, players[1:2])
    assert not [f for f in tournament_findings(_ids(players), rounds) if f["signal"] == "fouls"]


def test_house_bots_never_count(players, table):
    from accounts.models import User

    rounds = play(players, table, DUMP_MIN_ROUNDS, players[1:])
    User.objects.filter(pk__in=_ids(players[1:])).update(is_bot=True)
    assert tournament_findings(_ids(players), rounds) == []


def test_entrants_seen_from_one_address_are_found_but_not_on_this_machines_own(players, table):
    rounds = play(players[:2], table, 1, [])
    UserIP.objects.create(user=players[2], ip="203.0.113.9")
    UserIP.objects.create(user=players[3], ip="203.0.113.9")
    SeatIP.objects.create(user=players[0], table=table, ip="127.0.0.1")
    SeatIP.objects.create(user=players[1], table=table, ip="127.0.0.1")
    assert tournament_findings(_ids(players), rounds) == [
        {"signal": "shared_address", "users": sorted(_ids(players[2:]))}
    ]
    SeatIP.objects.create(user=players[1], table=table, ip="198.51.100.4")
    SeatIP.objects.create(user=players[0], table=table, ip="198.51.100.4")
    found = tournament_findings(_ids(players), rounds)
    assert {"signal": "shared_address", "users": sorted(_ids(players[:2]))} in found
    # Addresses seen at tables outside the tournament do not count.
    assert tournament_findings(_ids(players[:2]), []) == []


def test_the_question_is_answered_through_the_games_signal(players, table):
    rounds = play(players, table, DUMP_MIN_ROUNDS, players[1:])
    answers = collusion_check_requested.send(sender=None, user_ids=_ids(players), round_ids=rounds)
    found = [finding for _receiver, answer in answers if answer for finding in answer]
    assert found == tournament_findings(_ids(players), rounds)
