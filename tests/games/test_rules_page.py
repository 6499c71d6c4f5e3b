"""/rules/: How to play, built from games.rules so it cannot disagree with the rules."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import guide
from games.rules import Category, Rules, category_of, eval5, parse_cards
from games.rules.hands import PRESET_NAMES
from games.rules.instant import INSTANT_NAMES, find_instant
from games.rules.presets import BONUS_KEYS, BONUS_NAMES

pytestmark = pytest.mark.django_db


def _section(page: str, preset: str) -> str:
    start = page.index(f'id="preset-{preset}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture
def page(client) -> str:  # type: ignore[no-untyped-def]
    response = client.get(reverse("games:rules"))  # no log-in needed
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_hand_of_the_preset_is_shown_strongest_first_with_an_example(page, preset) -> None:  # type: ignore[no-untyped-def]
    section = _section(page, preset)
    shown = re.findall(r'data-category="(\w+)"', section)
    expected = sorted(
        {category_of(eval5(parse_cards(c), preset)) for c in guide.HAND_EXAMPLES.values()},
        reverse=True,
    )
    assert shown == [c.key for c in expected]
    assert ("four_aces" in shown) == (preset == "portal")
    for category in expected:
        assert f"<b>{category.name_vi}</b>" in section


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_example_hand_is_the_hand_it_illustrates(preset: str) -> None:
    for row in guide.hand_ranking(preset):
        assert category_of(eval5(parse_cards(" ".join(row.codes)), preset)) == row.category


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_bonuses_scoops_and_instant_wins_match_the_presets_tables(page, preset) -> None:  # type: ignore[no-untyped-def]
    rules = Rules.preset(preset)
    section = _section(page, preset)
    for key in BONUS_KEYS:
        row = re.search(rf'data-bonus="{key}"><td>([^<]+)</td><td class="num">(\d+)</td>', section)
        assert row and row.groups() == (BONUS_NAMES[key][0], str(rules.bonus[key]))
    assert f"trả đối thủ đó ×{rules.scoop_one}" in section
    assert f"ít nhất {rules.scoop_all_min} đối thủ, trả mỗi người ×{rules.scoop_all}" in section
    shown = re.findall(r'data-instant="(\w+)"', section)
    assert shown == [kind for kind, units in rules.instant.items() if units > 0]
    for kind in shown:
        item = section[section.index(f'data-instant="{kind}"') :]
        assert f"<b>{INSTANT_NAMES[kind][0]}</b> · {rules.instant[kind]} đơn vị" in item


def test_every_instant_example_makes_its_kind_or_a_stronger_one() -> None:
    for preset in PRESET_NAMES:
        rules = Rules.preset(preset)
        order = list(rules.instant)
        for row in guide.instant_wins(preset):
            chi = [parse_cards(" ".join(c)) for c in row["chi"]] if row["chi"] else None
            found = find_instant(parse_cards(" ".join(row["codes"])), rules, chi)
            assert found is not None
            assert order.index(found.kind) <= order.index(row["kind"])


def test_the_page_is_in_english_for_an_english_reader(client, make_user) -> None:  # type: ignore[no-untyped-def]
    reader = make_user("reader", language="en")
    client.force_login(reader)
    page = client.get(reverse("games:rules")).content.decode()
    assert "How to play Mậu Binh" in page
    assert f"<b>{Category.STRAIGHT_FLUSH.name_en}</b>" in page
    assert f"<b>{Category.STRAIGHT_FLUSH.name_vi}</b>" not in page
    assert BONUS_NAMES["quads_chi1"][1] in page


def test_the_straight_flush_order_is_measured_from_the_engine(page) -> None:  # type: ignore[no-untyped-def]
    wheel, six_high = parse_cards("5C 4C 3C 2C AC"), parse_cards("6C 5C 4C 3C 2C")
    for preset in PRESET_NAMES:
        second = eval5(wheel, preset) > eval5(six_high, preset)
        note = _section(page, preset)
        assert ("rồi A-2-3-4-5" in note) == second
    assert "rồi A-2-3-4-5" in _section(page, "portal")  # docs/rules.md#five-card
