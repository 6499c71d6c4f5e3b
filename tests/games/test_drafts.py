"""Drafts and the deadline (docs/rules.md#timing): a hand not submitted in time is played for
its owner (its last complete legal draft, else the engine's best), or is binh lủng at a
table that chose ``on_timeout`` = ``foul``; the summary names each scoop once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import events, services
from games.errors import GameError, NotFound
from games.models import Round, RoundEvent, RoundPlayer, RoundState
from games.rules import format_cards, parse_cards
from games.rules.arrange import suggest
from games.selectors import summary_payload, table_snapshot
from ledger import selectors as ledger_selectors
from tests.support.arranging import naive_arrangement

pytestmark = pytest.mark.django_db


def _table(host, **rules):  # type: ignore[no-untyped-def]
    return services.create_table(
        host,
        name="Bàn hẹn giờ",
        stake=10,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, **rules},
    )


def _deal(players, table, n=2):  # type: ignore[no-untyped-def]
    for p in players[:n]:
        services.sit(p, table.pk)
    return services.start_round(players[0], table.pk)


def _seat(round_, user) -> RoundPlayer:  # type: ignore[no-untyped-def]
    return round_.players.get(user=user)


def _to_the_showdown(round_):  # type: ignore[no-untyped-def]
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    services.advance_round(round_.pk, RoundState.ARRANGING, 1)
    round_.refresh_from_db()
    assert round_.state == RoundState.SHOWDOWN
    return round_


def _settle(round_):  # type: ignore[no-untyped-def]
    for _step in range(6):
        round_.refresh_from_db()
        if round_.state == RoundState.SETTLED:
            return round_
        Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        services.advance_round(round_.pk, round_.state, round_.phase)
    raise AssertionError("the round did not settle")


def _foul(cards: list[str]) -> list[list[str]]:
    """The weakest five in chi 1 and the strongest five in chi 2: binh lủng."""
    best = naive_arrangement(cards)
    return [best[2] + best[1][:2], best[0], best[1][2:]]


def _engine_best(cards: list[str], rules, opponents: int) -> list[list[str]]:  # type: ignore[no-untyped-def]
    best = suggest(parse_cards(cards), rules, n=0, opponents=opponents)[0]
    return [format_cards(part) for part in best.chi]


def test_a_draft_is_stored_but_is_not_a_submission(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    table.refresh_from_db()
    version = table.version
    services.save_draft(players[0], round_.pk, naive_arrangement(mine.cards))
    mine.refresh_from_db()
    table.refresh_from_db()
    assert mine.draft is not None and mine.submitted_at is None and mine.arrangement is None
    assert table.version == version  # nobody is told: a draft is private and changes nothing
    assert not RoundEvent.objects.filter(round=round_, kind="submit").exists()


def test_a_player_who_never_touches_the_hand_plays_the_engines_best_and_settles_exactly(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    before = {p.pk: ledger_selectors.balance(p) for p in players[:3]}
    round_ = _deal(players, table, 3)
    for user in players[1:3]:
        services.submit_arrangement(user, round_.pk, naive_arrangement(_seat(round_, user).cards))
    round_ = _to_the_showdown(round_)
    idle = _seat(round_, players[0])
    assert idle.auto_arranged == "engine"
    assert idle.arrangement == _engine_best(idle.cards, round_.rules, 2)
    logged = RoundEvent.objects.get(round=round_, kind="auto_arranged")
    assert logged.data == {"position": idle.position, "by": "engine", "chi": idle.arrangement}
    round_ = _settle(round_)
    outcome = next(p for p in round_.settlement["players"] if p["id"] == str(idle.position))
    assert outcome["foul"] is False
    for rp in round_.players.select_related("user"):
        assert ledger_selectors.balance(rp.user) - before[rp.user_id] == rp.xu
    summary = summary_payload(round_)
    row = next(r for r in summary["players"] if r["position"] == idle.position)
    assert row["auto_arranged"] == "engine"


def test_a_complete_legal_draft_is_what_the_player_plays_at_the_deadline(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    services.save_draft(players[0], round_.pk, _foul(mine.cards))
    draft = naive_arrangement(mine.cards)
    services.save_draft(players[0], round_.pk, draft)  # the last complete draft counts
    round_ = _to_the_showdown(round_)
    mine.refresh_from_db()
    assert mine.auto_arranged == "draft"
    assert [sorted(p) for p in mine.arrangement] == [sorted(p) for p in draft]
    logged = RoundEvent.objects.filter(round=round_, kind="auto_arranged")
    assert {e.data["position"]: e.data["by"] for e in logged} == {
        mine.position: "draft",
        1: "engine",
    }
    showdown = RoundEvent.objects.get(round=round_, kind="showdown").data
    assert showdown["unarranged"] == []
    assert showdown["auto_arranged"] == {str(mine.position): "draft", "1": "engine"}


def test_a_foul_last_draft_is_not_played_the_engines_best_is(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    services.save_draft(players[0], round_.pk, naive_arrangement(mine.cards))
    services.save_draft(players[0], round_.pk, _foul(mine.cards))  # the last draft is binh lủng
    _to_the_showdown(round_)
    mine.refresh_from_db()
    assert mine.auto_arranged == "engine"
    assert mine.arrangement == _engine_best(mine.cards, round_.rules, 1)


def test_a_forged_or_incomplete_draft_is_refused_and_the_last_good_one_stays(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    good = naive_arrangement(mine.cards)
    services.save_draft(players[0], round_.pk, good)
    other = _seat(round_, players[1])
    forged = [good[0], good[1], [*good[2][:2], other.cards[0]]]
    with pytest.raises(GameError) as refused:
        services.save_draft(players[0], round_.pk, forged)
    assert refused.value.code == "card_not_dealt"
    with pytest.raises(GameError) as short:
        services.save_draft(players[0], round_.pk, [good[0], good[1], good[2][:2]])
    assert short.value.code == "chi_size"
    mine.refresh_from_db()
    assert [sorted(p) for p in mine.draft] == [sorted(p) for p in good]


def test_sending_the_same_draft_again_is_harmless(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    draft = naive_arrangement(mine.cards)
    services.save_draft(players[0], round_.pk, draft)
    events = RoundEvent.objects.filter(round=round_).count()
    for _again in range(3):
        services.save_draft(players[0], round_.pk, draft)
    assert RoundEvent.objects.filter(round=round_).count() == events
    mine.refresh_from_db()
    assert mine.submitted_at is None


def test_a_draft_from_someone_not_in_the_round_or_from_another_table_is_refused(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    with pytest.raises(NotFound) as stranger:
        services.save_draft(players[3], round_.pk, naive_arrangement(mine.cards))
    assert stranger.value.code == "not_in_round"
    elsewhere = _table(players[2])
    with pytest.raises(NotFound):
        services.save_draft(
            players[0], round_.pk, naive_arrangement(mine.cards), table_id=elsewhere.pk
        )
    mine.refresh_from_db()
    assert mine.draft is None


def test_a_draft_after_the_deadline_is_refused(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(GameError) as late:
        services.save_draft(players[0], round_.pk, naive_arrangement(mine.cards))
    assert late.value.code == "too_late"


def test_a_reconnecting_player_gets_their_draft_back_and_nobody_else_sees_it(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    draft = naive_arrangement(mine.cards)
    services.save_draft(players[0], round_.pk, draft)
    table.refresh_from_db()
    snapshot = table_snapshot(table, players[0])
    assert [sorted(p) for p in snapshot["round"]["you"]["draft"]] == [sorted(p) for p in draft]
    assert snapshot["round"]["you"]["arrangement"] is None
    other = table_snapshot(table, players[1])
    assert other["round"]["you"]["draft"] is None
    watcher = table_snapshot(table, players[3])
    assert watcher["round"]["you"] is None
    assert "draft" not in str(watcher["round"]["players"])


def test_a_submitted_hand_is_played_as_submitted_whatever_the_draft_says_after(players):  # type: ignore[no-untyped-def]
    table = _table(players[0])
    round_ = _deal(players, table, 3)
    mine = _seat(round_, players[0])
    submitted = naive_arrangement(mine.cards)
    services.submit_arrangement(players[0], round_.pk, submitted)
    services.save_draft(players[0], round_.pk, _foul(mine.cards))
    _to_the_showdown(round_)
    mine.refresh_from_db()
    assert mine.auto_arranged == ""
    assert [sorted(p) for p in mine.arrangement] == [sorted(p) for p in submitted]


def test_at_a_foul_table_an_unsubmitted_hand_is_binh_lung_as_before(players):  # type: ignore[no-untyped-def]
    table = _table(players[0], on_timeout="foul")
    round_ = _deal(players, table)
    mine = _seat(round_, players[0])
    services.save_draft(players[0], round_.pk, naive_arrangement(mine.cards))
    services.submit_arrangement(
        players[1], round_.pk, naive_arrangement(_seat(round_, players[1]).cards)
    )
    round_ = _settle(_to_the_showdown(round_))
    mine.refresh_from_db()
    assert mine.arrangement is None and mine.auto_arranged == ""
    assert not RoundEvent.objects.filter(round=round_, kind="auto_arranged").exists()
    outcome = next(p for p in round_.settlement["players"] if p["id"] == str(mine.position))
    assert outcome["foul"] is True and outcome["chi_lost"] == 3


def test_a_scoop_is_named_once_and_every_breakdown_adds_up_to_the_ledger(players):  # type: ignore[no-untyped-def]
    # Four players at a foul table; one never submits: binh lủng, scooped by all three.
    table = _table(players[0], on_timeout="foul")
    before = {p.pk: ledger_selectors.balance(p) for p in players}
    round_ = _deal(players, table, 4)
    for user in players[1:]:
        services.submit_arrangement(user, round_.pk, naive_arrangement(_seat(round_, user).cards))
    round_ = _settle(_to_the_showdown(round_))
    loser = _seat(round_, players[0])
    summary = summary_payload(round_)
    losers = [line["loser"] for line in summary["scoops"]]
    assert len(losers) == len(set(losers))  # each scooped player is named once
    [scoop] = [line for line in summary["scoops"] if line["loser"] == loser.position]
    assert (scoop["loser"], scoop["kind"], scoop["x"]) == (loser.position, "all", 3)
    assert sorted(scoop["by"]) == sorted(p.position for p in round_.players.all() if p != loser)
    for row in summary["players"]:
        parts = row["breakdown"]
        total = parts["instant"] + sum(parts["chi"]) + parts["scoop"] + parts["cap"]
        user = next(u for u in players if u.pk == row["user"])
        assert total == row["xu"] == ledger_selectors.balance(user) - before[user.pk]
    mine = next(r for r in summary["players"] if r["position"] == loser.position)
    assert mine["breakdown"]["scoop"] == 2 * sum(mine["breakdown"]["chi"])  # ×3 = chi + 2 × chi


def test_the_owner_of_a_hand_played_for_them_is_sent_what_was_played_and_nobody_else(  # type: ignore[no-untyped-def]
    players, monkeypatch, django_capture_on_commit_callbacks
):
    table = _table(players[0])
    round_ = _deal(players, table)
    sent: list[tuple[str, dict]] = []  # type: ignore[type-arg]
    monkeypatch.setattr(events, "_send", lambda group, payload, *_: sent.append((group, payload)))
    with django_capture_on_commit_callbacks(execute=True):
        _to_the_showdown(round_)
    private = [(g, p) for g, p in sent if p["type"] == "submission"]
    assert {g for g, _p in private} == {
        events.private_group(table.pk, players[0].pk),
        events.private_group(table.pk, players[1].pk),
    }
    table.refresh_from_db()
    for group, payload in private:
        user = players[0] if group == events.private_group(table.pk, players[0].pk) else players[1]
        seat = _seat(round_, user)
        assert payload["chi"] == seat.arrangement and payload["auto_arranged"] == "engine"
        assert payload["version"] == table.version  # the reveal's: applied right after it
    reveal = next(p for _g, p in sent if p["type"] == "reveal")
    assert reveal["auto_arranged"] == {"0": "engine", "1": "engine"}
