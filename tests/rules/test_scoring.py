"""Settlement details the vectors don't show: validation, error codes and the rich result."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.cards import parse_card, parse_cards
from games.rules.errors import ArrangementError, RoundInputError, RulesConfigError
from games.rules.presets import Rules
from games.rules.scoring import (
    PlayerInput,
    Status,
    round_from_json,
    settle,
    settle_json,
    validate_arrangement,
)

P_CHI = [["AS", "AC", "KS", "KC", "2S"], ["QS", "QC", "JS", "JC", "3S"], ["TD", "TH", "4S"]]
Q_CHI = [["AD", "AH", "9S", "9C", "2D"], ["QD", "QH", "8S", "8C", "3D"], ["TS", "7S", "6S"]]
P_CARDS = [c for part in P_CHI for c in part]
Q_CARDS = [c for part in Q_CHI for c in part]


def round_with(**player_q: Any) -> dict[str, Any]:
    return {
        "preset": "portal",
        "stake": 10,
        "players": [{"id": "p", "chi": P_CHI}, {"id": "q", **player_q}],
    }


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (round_with(chi=Q_CHI[:2]), "chi_count"),
        (round_with(chi=[Q_CHI[0], Q_CHI[1] + ["5C"], Q_CHI[2][:2]]), "chi_size"),
        (round_with(cards=Q_CARDS[:12], status="unarranged"), "cards_count"),
        (round_with(cards=[*Q_CARDS[:12], "AD"], status="unarranged"), "card_duplicate"),
        (round_with(cards=[*Q_CARDS[:12], "ZZ"], status="unarranged"), "card_unknown"),
        (round_with(cards=[*Q_CARDS[:12], "AS"], status="unarranged"), "card_held_twice"),
        (round_with(chi=Q_CHI, cards=[*Q_CARDS[:12], "5C"]), "chi_not_permutation"),
        (round_with(chi=Q_CHI, status="gone"), "status"),
        (round_with(chi=Q_CHI, status="left", left_after_chi=3), "left_after_chi"),
        (round_with(chi=Q_CHI, left_after_chi=1), "left_after_chi"),
        (round_with(cards=Q_CARDS), "chi_missing"),
        (round_with(chi=Q_CHI, status="unarranged"), "chi_unexpected"),
        (round_with(chi=Q_CHI, cap=-1), "cap"),
        (round_with(chi=Q_CHI, colour="red"), "player_key_unknown"),
        ({**round_with(chi=Q_CHI), "stake": 0}, "stake"),
        ({**round_with(chi=Q_CHI), "table": 1}, "round_key_unknown"),
        ({"preset": "portal", "players": [{"id": "p", "chi": P_CHI}]}, "players_count"),
        (
            {"preset": "portal", "players": [{"id": "p", "chi": P_CHI}, {"id": "p", "chi": Q_CHI}]},
            "player_id",
        ),
    ],
)
def test_malformed_rounds_are_rejected_with_a_code(data: dict[str, Any], code: str) -> None:
    with pytest.raises(RoundInputError) as info:
        round_from_json(data)
    assert info.value.code == code
    assert str(info.value)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({**round_with(chi=Q_CHI), "preset": "vegas"}, "preset_unknown"),
        ({**round_with(chi=Q_CHI), "rules": {"ante": 1}}, "rule_key_unknown"),
        ({**round_with(chi=Q_CHI), "rules": {"scoop_all": 9}}, "rule_value"),
    ],
)
def test_bad_rules_are_rejected_with_a_code(data: dict[str, Any], code: str) -> None:
    with pytest.raises(RulesConfigError) as info:
        round_from_json(data)
    assert info.value.code == code


def test_the_round_preset_wins_over_the_default() -> None:
    rules, _, _ = round_from_json({**round_with(chi=Q_CHI), "preset": "classic"}, "portal")
    assert rules.name == "classic"
    rules, _, _ = round_from_json(
        {k: v for k, v in round_with(chi=Q_CHI).items() if k != "preset"}, "classic"
    )
    assert rules.name == "classic"


def test_validate_arrangement_returns_cards_and_accepts_a_foul() -> None:
    dealt = parse_cards(P_CARDS)
    foul = [P_CHI[1], P_CHI[0], P_CHI[2]]
    chi = validate_arrangement(dealt, foul)
    assert chi[0] == parse_cards(P_CHI[1])


@pytest.mark.parametrize(
    ("chi", "code"),
    [
        ([P_CHI[0], P_CHI[1]], "chi_count"),
        ([P_CHI[0][:4], P_CHI[1] + [P_CHI[0][4]], P_CHI[2]], "chi_size"),
        ([P_CHI[0], P_CHI[1], ["TD", "TH", "TS"]], "card_not_dealt"),
        ([P_CHI[0], P_CHI[1], ["TD", "TH", "TD"]], "card_duplicate"),
        ([P_CHI[0], P_CHI[1], ["TD", "TH", "XX"]], "card_unknown"),
    ],
)
def test_validate_arrangement_rejects_forged_cards_and_wrong_counts(
    chi: list[list[str]], code: str
) -> None:
    with pytest.raises(ArrangementError) as info:
        validate_arrangement(parse_cards(P_CARDS), chi)
    assert info.value.code == code


def test_validate_arrangement_accepts_card_ints() -> None:
    dealt = parse_cards(P_CARDS)
    chi = [dealt[:5], dealt[5:10], dealt[10:]]
    assert validate_arrangement(dealt, chi) == (dealt[:5], dealt[5:10], dealt[10:])


def test_settlement_reports_hands_chi_detail_and_counts() -> None:
    result = settle_json(round_with(chi=Q_CHI))
    p, q = result["players"]
    assert p["hands"][0] == {
        "category": "two_pair",
        "name_vi": "Thú",
        "name_en": "Two pair",
        "cards": ["AS", "AC", "KS", "KC", "2S"],
    }
    assert (p["chi_won"], p["chi_lost"], q["chi_won"], q["chi_lost"]) == (3, 0, 0, 3)
    assert q["scooped"] == "all" and p["scooped"] is None
    detail = result["pairs"][0]["chi_detail"]
    assert detail[2] == {"winner": "p", "units": 1, "bonus": None, "reason": "compare"}


def test_a_player_without_arrangement_shows_no_hands() -> None:
    result = settle_json(round_with(cards=Q_CARDS, status="unarranged"))
    assert result["players"][1]["hands"] is None
    assert result["pairs"][0]["chi_detail"][0]["reason"] == "foul"


def test_forfeited_chi_say_so() -> None:
    result = settle_json(round_with(chi=Q_CHI, status="left", left_after_chi=1))
    reasons = [c["reason"] for c in result["pairs"][0]["chi_detail"]]
    assert reasons == ["compare", "forfeit", "forfeit"]


def test_settle_takes_python_objects_and_names_results_by_id() -> None:
    p = PlayerInput.make("p", chi=P_CHI)
    q = PlayerInput.make("q", cards=Q_CARDS, status=Status.UNARRANGED, cap=50)
    settlement = settle(Rules.preset("portal"), 10, [p, q])
    assert settlement.player("q").units == -9
    assert settlement.player("q").xu == -50
    assert settlement.pairs[0].capped


def test_settle_rejects_a_card_held_by_two_players() -> None:
    p = PlayerInput.make("p", chi=P_CHI)
    q = PlayerInput.make("q", cards=[*Q_CARDS[:12], "AS"], status="unarranged")
    with pytest.raises(RoundInputError, match="AS"):
        settle(Rules.preset("portal"), 10, [p, q])


def test_player_input_accepts_card_ints() -> None:
    q = PlayerInput.make("q", cards=[parse_card(c) for c in Q_CARDS], status="unarranged")
    assert len(q.cards) == 13
