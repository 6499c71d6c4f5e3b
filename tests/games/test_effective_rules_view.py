"""The create form's rules box shows the rules of the table being made: each preset with the
house rules typed so far, computed by games.rules, the code that makes the table."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.rules import Rules
from games.rules.presets import BONUS_KEYS

pytestmark = pytest.mark.django_db

BASICS = {"name": "Bàn luật riêng", "stake": "10", "seats": "4"}
# House rules as the form's fields hold them, and the same rules as games.rules overrides.
COMBINATIONS = [
    ({}, {}),
    (
        {"arrange_seconds": "120", "scoop_one": "4", "on_timeout": "foul"},
        {"arrange_seconds": 120, "scoop_one": 4, "on_timeout": "foul"},
    ),
    (
        {
            "start_seconds": "5",
            "reveal_seconds": "10",
            "scoop_all": "6",
            "scoop_all_min": "3",
            "bonus_quads_chi1": "20",
            "bonus_trips_chi3": "1",
            "on_timeout": "auto",
        },
        {
            "start_seconds": 5,
            "reveal_seconds": 10,
            "scoop_all": 6,
            "scoop_all_min": 3,
            "bonus": {"quads_chi1": 20, "trips_chi3": 1},
        },
    ),
]
IDS = ["nothing typed", "timer scoop and strict", "every kind of rule"]


class RulesBox(HTMLParser):
    """The numbers the box shows, per preset: ``{"portal": {"scoop_one": "1", ...}}``."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: dict[str, dict[str, str]] = {}
        self.preset: str | None = None
        self.rule: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        preset, rule = found.get("data-preset"), found.get("data-rule")
        if preset:
            self.preset = preset
            self.shown[preset] = {}
        elif rule and self.preset:
            self.rule = rule
            if "data-value" in found:
                self.shown[self.preset][rule] = found["data-value"] or ""

    def handle_data(self, data: str) -> None:
        if self.rule and self.preset and self.rule not in self.shown[self.preset]:
            self.shown[self.preset][self.rule] = data.strip()

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self.rule = None


def shown(html: str) -> dict[str, dict[str, str]]:
    box = RulesBox()
    box.feed(html[html.index('data-testid="effective-rules"') :])
    return box.shown


def expected(rules: Rules) -> dict[str, str]:
    values = {
        key: str(getattr(rules, key))
        for key in (
            "scoop_one",
            "scoop_all",
            "scoop_all_min",
            "start_seconds",
            "arrange_seconds",
            "reveal_seconds",
        )
    }
    values |= {f"bonus.{key}": str(rules.bonus[key]) for key in BONUS_KEYS}
    return values | {"on_timeout": rules.on_timeout}


def box_for(client: Client, fields: dict[str, str]) -> str:
    response = client.get(reverse("games:effective_rules"), fields)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("fields", "overrides"), COMBINATIONS, ids=IDS)
def test_the_box_shows_what_games_rules_makes_of_the_house_rules_for_each_preset(  # type: ignore[no-untyped-def]
    client, players, fields, overrides
) -> None:
    client.force_login(players[0])
    page = shown(box_for(client, fields))
    for name in ("portal", "classic"):
        assert page[name] == expected(Rules.preset(name).with_overrides(overrides)), name


@pytest.mark.parametrize(("fields", "overrides"), COMBINATIONS, ids=IDS)
@pytest.mark.parametrize("preset", ["portal", "classic"])
def test_a_table_opened_with_the_form_gets_the_rules_its_box_showed(  # type: ignore[no-untyped-def]
    client, players, fields, overrides, preset
) -> None:
    client.force_login(players[0])
    fields = {**BASICS, "preset": preset, **fields}
    promised = shown(box_for(client, fields))[preset]
    response = client.post(reverse("games:create_table"), fields)
    assert response.status_code == 302
    assert expected(Table.objects.get(name=BASICS["name"]).rules) == promised


def test_the_lobby_shows_the_presets_own_rules_before_anything_is_typed(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    page = shown(client.get(reverse("games:lobby")).content.decode())
    for name in ("portal", "classic"):
        assert page[name] == expected(Rules.preset(name))


def test_a_rule_not_valid_yet_is_left_out_and_named(client, players) -> None:  # type: ignore[no-untyped-def]
    client.force_login(players[0])
    html = box_for(client, {"arrange_seconds": "200", "scoop_one": "2", "bonus_quads_chi2": "²"})
    page = shown(html)
    assert page["portal"]["arrange_seconds"] == "80"  # the preset's, as create_table would
    assert page["portal"]["scoop_one"] == "2"
    assert page["portal"]["bonus.quads_chi2"] == "8"
    missing = html[html.index('data-testid="rules-not-applied"') :]
    missing = missing[: missing.index("</p>")]
    assert "Thời gian xếp bài (giây)" in missing
    assert 'href="#id_arrange_seconds"' in missing and 'href="#id_bonus_quads_chi2"' in missing
    assert "id_scoop_one" not in missing


@pytest.mark.parametrize(
    ("language", "auto", "strict"),
    [
        ("vi", "được xếp giúp", "bài không gửi kịp giờ là binh lủng"),
        ("en", "played for its owner", "a hand not sent in time is binh lủng"),
    ],
)
def test_the_box_says_in_words_what_happens_when_time_runs_out(  # type: ignore[no-untyped-def]
    client, players, language: str, auto: str, strict: Any
) -> None:
    players[0].preferred_language = language
    players[0].save(update_fields=["preferred_language"])
    client.force_login(players[0])
    assert auto in box_for(client, {})
    html = box_for(client, {"on_timeout": "foul"})
    assert strict in html and auto not in html


def test_a_visitor_gets_no_rules_box(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get(reverse("games:effective_rules"), {"arrange_seconds": "90"})
    assert response.status_code == 302
