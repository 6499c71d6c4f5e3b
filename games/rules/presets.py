"""The rules in force at a table: a preset plus house rules.

The presets are docs/rules.md#showdown and #instant, the house rules #house-rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from games.rules.errors import RulesConfigError

RULES_VERSION = 1
"""Bumped whenever settlement of the same input could change; stored with every round."""

BONUS_KEYS = (
    "trips_chi3",
    "full_house_chi2",
    "quads_chi1",
    "quads_chi2",
    "straight_flush_chi1",
    "straight_flush_chi2",
)
BONUS_NAMES: dict[str, tuple[str, str]] = {
    "trips_chi3": ("Sám chi cuối", "Three of a kind in chi 3"),
    "full_house_chi2": ("Cù lũ chi giữa", "Full house in chi 2"),
    "quads_chi1": ("Tứ quý chi đầu", "Four of a kind in chi 1"),
    "quads_chi2": ("Tứ quý chi giữa", "Four of a kind in chi 2"),
    "straight_flush_chi1": ("Thùng phá sảnh chi đầu", "Straight flush in chi 1"),
    "straight_flush_chi2": ("Thùng phá sảnh chi giữa", "Straight flush in chi 2"),
}
"""The name of each bonus hand, (Vietnamese, English), in the order of ``BONUS_KEYS``."""
DEFAULT_BONUS = {
    "trips_chi3": 3,
    "full_house_chi2": 2,
    "quads_chi1": 4,
    "quads_chi2": 8,
    "straight_flush_chi1": 5,
    "straight_flush_chi2": 10,
}
# Instant-win payouts in strength order, strongest first (section 6).
PORTAL_INSTANT = {
    "dragon_flush": 26,
    "dragon": 13,
    "five_pairs_trips": 6,
    "six_pairs": 3,
    "three_flushes": 3,
    "three_straights": 3,
}
CLASSIC_INSTANT = {
    "dragon": 13,
    "three_straight_flushes": 10,
    "all_one_color": 8,
    "twelve_one_color": 4,
    "five_pairs_trips": 6,
    "six_pairs": 3,
    "four_trips": 3,
    "three_quads": 3,
    "three_flushes": 3,
    "three_straights": 3,
}

# Section 9 limits, inclusive.
BONUS_RANGE = (1, 20)
INSTANT_RANGE = (0, 52)
LIMITS = {
    "scoop_one": (1, 6),
    "scoop_all": (1, 6),
    "scoop_all_min": (1, 3),
    "start_seconds": (5, 60),
    "arrange_seconds": (30, 180),
    "reveal_seconds": (2, 10),
}
ON_TIMEOUT = ("auto", "foul")
"""What an unsubmitted hand plays at the deadline (section 8): its last complete legal draft or
the engine's best arrangement (``auto``), or nothing: binh lủng (``foul``)."""
OVERRIDE_KEYS = ("bonus", "instant", *LIMITS, "quads_split", "on_timeout")


def _frozen(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Rules:
    """Everything settlement needs to know about a table's rules; immutable."""

    name: str
    """The preset these rules start from: ``"portal"`` or ``"classic"``."""
    bonus: Mapping[str, int] = field(default_factory=lambda: _frozen(DEFAULT_BONUS))
    instant: Mapping[str, int] = field(default_factory=lambda: _frozen(PORTAL_INSTANT))
    """Instant-win payouts in units, strongest kind first; 0 disables a kind."""
    scoop_one: int = 1
    scoop_all: int = 3
    scoop_all_min: int = 1
    quads_split: bool = True
    """A four of a kind also counts as two pairs and as a three of a kind for instant wins."""
    on_timeout: str = "auto"
    """``auto`` or ``foul``: what the table plays for a hand not submitted in time (section 8).
    Settlement never reads it: the table applies it before settling (docs/rules.md)."""
    start_seconds: int = 9
    arrange_seconds: int = 80
    reveal_seconds: int = 5
    version: int = RULES_VERSION

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The unmodified rules of preset ``name`` (``"portal"`` or ``"classic"``)."""
        if name == "portal":
            return cls("portal")
        if name == "classic":
            return cls(
                "classic",
                instant=_frozen(CLASSIC_INSTANT),
                scoop_one=2,
                scoop_all=3,
                scoop_all_min=2,
            )
        raise RulesConfigError(
            f"unknown preset {name!r} (known: portal, classic)", "preset_unknown"
        )

    def __hash__(self) -> int:
        return hash(self.to_json())

    def with_overrides(self, overrides: Mapping[str, Any]) -> Rules:
        """A copy with section-9 overrides applied; raises ``RulesConfigError`` naming a bad key."""
        if not isinstance(overrides, Mapping):
            raise RulesConfigError("rules overrides must be an object", "rules_not_object")
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key == "bonus":
                changes["bonus"] = _frozen(
                    {**self.bonus, **_table(key, value, BONUS_KEYS, BONUS_RANGE)}
                )
            elif key == "instant":
                changes["instant"] = _frozen(
                    {
                        **self.instant,
                        **_table(key, value, tuple(self.instant), INSTANT_RANGE),
                    }
                )
            elif key in LIMITS:
                changes[key] = _number(key, value, LIMITS[key])
            elif key == "quads_split":
                if not isinstance(value, bool):
                    raise RulesConfigError(
                        f"rule 'quads_split' must be true or false, got {value!r}",
                        "rule_value",
                    )
                changes[key] = value
            elif key == "on_timeout":
                if value not in ON_TIMEOUT:
                    raise RulesConfigError(
                        f"rule 'on_timeout' must be 'auto' or 'foul', got {value!r}",
                        "rule_value",
                    )
                changes[key] = value
            else:
                raise RulesConfigError(
                    f"unknown rule key {key!r} (known: {', '.join(OVERRIDE_KEYS)})",
                    "rule_key_unknown",
                )
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.name,
            "version": self.version,
            "bonus": dict(self.bonus),
            "instant": dict(self.instant),
            "scoop_one": self.scoop_one,
            "scoop_all": self.scoop_all,
            "scoop_all_min": self.scoop_all_min,
            "quads_split": self.quads_split,
            "on_timeout": self.on_timeout,
            "start_seconds": self.start_seconds,
            "arrange_seconds": self.arrange_seconds,
            "reveal_seconds": self.reveal_seconds,
        }

    def to_json(self) -> str:
        """A canonical JSON text of the rules, stored with every round for audits."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild rules from ``to_dict`` output (validated like overrides)."""
        if not isinstance(data, Mapping) or "preset" not in data:
            raise RulesConfigError(
                "stored rules must be an object with a 'preset'", "rules_not_object"
            )
        version = data.get("version", RULES_VERSION)
        if version != RULES_VERSION:
            raise RulesConfigError(f"unsupported rules version {version!r}", "rules_version")
        overrides = {k: v for k, v in data.items() if k not in ("preset", "version")}
        return cls.preset(data["preset"]).with_overrides(overrides)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RulesConfigError(f"stored rules are not JSON: {exc}", "rules_not_json") from exc
        return cls.from_dict(data)

    def instant_payout(self, kind: str) -> int:
        return self.instant.get(kind, 0)


def _number(key: str, value: Any, limits: tuple[int, int]) -> int:
    low, high = limits
    # bool is an int subclass; True is not a valid multiplier.
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesConfigError(
            f"rule {key!r} must be a whole number from {low} to {high}, got {value!r}",
            "rule_value",
        )
    return value


def _table(
    name: str, value: Any, known: tuple[str, ...], limits: tuple[int, int]
) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesConfigError(f"rule {name!r} must be an object", "rule_value")
    table: dict[str, int] = {}
    for key, amount in value.items():
        if key not in known:
            raise RulesConfigError(
                f"unknown rule key '{name}.{key}' (known: {', '.join(known)})",
                "rule_key_unknown",
            )
        table[key] = _number(f"{name}.{key}", amount, limits)
    return table


def max_loss(rules: Rules) -> int:
    """The most units one opponent can win from one player in a round (section 7)."""
    b = rules.bonus
    b1 = max(1, b["quads_chi1"], b["straight_flush_chi1"])
    b2 = max(1, b["full_house_chi2"], b["quads_chi2"], b["straight_flush_chi2"])
    b3 = max(1, b["trips_chi3"])
    chi_total = (b1 + b2 + b3) * max(rules.scoop_one, rules.scoop_all)
    return max(max(rules.instant.values(), default=0), chi_total)


def cap_per_opponent(rules: Rules, stake: int, balance: int, n_players: int) -> int:
    """The most xu a player can pay any one opponent: min(max_loss × stake, balance // (n − 1))."""
    if n_players < 2:
        raise RulesConfigError("a round needs at least 2 players", "players_count")
    return min(max_loss(rules) * stake, max(balance, 0) // (n_players - 1))


def hold_amount(rules: Rules, stake: int, balance: int, n_players: int) -> int:
    """The xu reserved from a player's balance at the deal: the cap times the opponents."""
    return cap_per_opponent(rules, stake, balance, n_players) * (n_players - 1)
