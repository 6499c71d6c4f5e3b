"""Presets, overrides within section 9, JSON round trip, max_loss and the escrow cap."""

from __future__ import annotations

import pytest

from games.rules.errors import RulesConfigError
from games.rules.presets import Rules, cap_per_opponent, hold_amount, max_loss


def test_presets_carry_the_scoop_figures_of_section_5() -> None:
    portal, classic = Rules.preset("portal"), Rules.preset("classic")
    assert (portal.scoop_one, portal.scoop_all, portal.scoop_all_min) == (1, 3, 1)
    assert (classic.scoop_one, classic.scoop_all, classic.scoop_all_min) == (2, 3, 2)


def test_instant_kinds_are_listed_strongest_first() -> None:
    assert list(Rules.preset("portal").instant)[:2] == ["dragon_flush", "dragon"]
    classic = list(Rules.preset("classic").instant)
    assert classic.index("twelve_one_color") < classic.index("five_pairs_trips")


def test_unknown_preset_is_rejected() -> None:
    with pytest.raises(RulesConfigError) as info:
        Rules.preset("vegas")
    assert info.value.code == "preset_unknown"


def test_overrides_replace_only_the_given_values() -> None:
    rules = Rules.preset("portal").with_overrides({"bonus": {"trips_chi3": 6}, "scoop_all": 2})
    assert rules.bonus["trips_chi3"] == 6
    assert rules.bonus["quads_chi2"] == 8
    assert rules.scoop_all == 2
    assert Rules.preset("portal").bonus["trips_chi3"] == 3


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"bonus": {"trips_chi3": 0}}, "bonus.trips_chi3"),
        ({"bonus": {"trips_chi3": 21}}, "bonus.trips_chi3"),
        ({"bonus": {"trips_chi1": 3}}, "bonus.trips_chi1"),
        ({"instant": {"dragon": 53}}, "instant.dragon"),
        ({"instant": {"four_trips": 3}}, "instant.four_trips"),  # a classic-only kind
        ({"scoop_one": 7}, "scoop_one"),
        ({"scoop_all": 0}, "scoop_all"),
        ({"scoop_all_min": 4}, "scoop_all_min"),
        ({"scoop_all_min": 2.0}, "scoop_all_min"),
        ({"scoop_all": True}, "scoop_all"),
        ({"arrange_seconds": 20}, "arrange_seconds"),
        ({"reveal_seconds": 11}, "reveal_seconds"),
        ({"start_seconds": 61}, "start_seconds"),
        ({"stake": 100}, "stake"),
        ({"on_timeout": "skip"}, "on_timeout"),
        ({"on_timeout": True}, "on_timeout"),
        ({"quads_split": 1}, "quads_split"),
    ],
)
def test_overrides_outside_section_9_name_the_key(overrides: dict[str, object], named: str) -> None:
    with pytest.raises(RulesConfigError, match=named):
        Rules.preset("portal").with_overrides(overrides)


def test_zero_instant_payout_is_allowed_and_disables_the_kind() -> None:
    assert (
        Rules.preset("portal").with_overrides({"instant": {"six_pairs": 0}}).instant["six_pairs"]
        == 0
    )


def test_rules_round_trip_through_json() -> None:
    rules = Rules.preset("classic").with_overrides(
        {
            "bonus": {"quads_chi2": 12},
            "instant": {"dragon": 20},
            "scoop_one": 3,
            "quads_split": False,
            "on_timeout": "foul",
        }
    )
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_json(rules.to_json()).to_json() == rules.to_json()


def test_max_loss_of_portal_defaults_is_54_units() -> None:
    assert max_loss(Rules.preset("portal")) == 54


def test_max_loss_is_the_largest_instant_payout_when_that_is_larger() -> None:
    assert max_loss(Rules.preset("portal").with_overrides({"instant": {"dragon_flush": 52}})) == 54
    fewer = Rules.preset("portal").with_overrides({"instant": {"dragon_flush": 52}, "scoop_all": 2})
    assert max_loss(fewer) == 52  # (5 + 10 + 3) x 2 = 36 < 52
    small = Rules.preset("portal").with_overrides(
        {"bonus": dict.fromkeys(Rules.preset("portal").bonus, 1), "scoop_all": 1}
    )
    assert max_loss(small) == 26


def test_cap_is_the_smaller_of_max_loss_and_an_even_share_of_the_balance() -> None:
    portal = Rules.preset("portal")
    assert cap_per_opponent(portal, 100, 1_000_000, 4) == 5400
    assert cap_per_opponent(portal, 100, 1000, 4) == 333
    assert hold_amount(portal, 100, 1000, 4) == 999
    assert hold_amount(portal, 100, 1_000_000, 2) == 5400


def test_an_unsent_hand_is_played_for_its_owner_by_default_and_foul_is_a_table_choice() -> None:
    assert Rules.preset("portal").on_timeout == "auto"
    assert Rules.preset("classic").on_timeout == "auto"
    strict = Rules.preset("portal").with_overrides({"on_timeout": "foul"})
    assert strict.on_timeout == "foul"
    assert strict.to_dict()["on_timeout"] == "foul"
