"""Xu are written one way everywhere: grouped in the page's language, with a true minus."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ledger.formats import MINUS, Xu, format_signed_xu, format_xu

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    ("language", "value", "written"),
    [
        ("vi", 1000, "1.000"),
        ("en", 1000, "1,000"),
        ("vi", -1234567, "\u22121.234.567"),
        ("en", -5, "\u22125"),
        ("vi", 0, "0"),
    ],
)
def test_xu_are_grouped_in_the_language_with_a_true_minus(
    language: str, value: int, written: str
) -> None:
    with translation.override(language):
        assert format_xu(value) == written


def test_a_signed_amount_has_plus_for_a_gain_and_minus_for_a_loss() -> None:
    with translation.override("vi"):
        assert [format_signed_xu(n) for n in (1500, -1500, 0)] == ["+1.500", MINUS + "1.500", "0"]


def test_an_amount_in_a_lazy_message_is_written_in_the_language_it_is_read_in() -> None:
    amount = Xu(20_000)
    assert amount == 20_000
    with translation.override("en"):
        assert "%(x)s xu" % {"x": amount} == "20,000 xu"  # noqa: UP031 (as gettext formats)
    with translation.override("vi"):
        assert "%(x)s xu" % {"x": amount} == "20.000 xu"  # noqa: UP031 (as gettext formats)


BLOCK = re.compile(r"\{%\s*blocktranslate\b(.*?)%\}(.*?)\{%\s*endblocktranslate\s*%\}", re.S)
RAW = re.compile(r"\{\{\s*([^{}]+?)\s*\}\}\s*(</\w+>\s*)?xu\b")
FILTERED = re.compile(r"\|\s*(signed_)?xu\b")


def _unformatted_amounts(template: str) -> list[str]:
    """``{{ amount }} xu`` with no |xu filter, outside and inside {% blocktranslate %}."""
    outside = RAW.finditer(BLOCK.sub(" ", template))
    found = [m.group(0) for m in outside if not FILTERED.search(m.group(1))]
    for block in BLOCK.finditer(template):
        bound = dict(re.findall(r"(\w+)=(\S+)", block.group(1)))
        for match in RAW.finditer(block.group(2)):
            expression = bound.get(match.group(1), match.group(1))
            if not FILTERED.search(expression):
                found.append(match.group(0))
    return found


def test_the_amount_check_sees_both_forms() -> None:
    assert _unformatted_amounts("{{ t.amount }} xu") == ["{{ t.amount }} xu"]
    bad = "{% blocktranslate with x=t.amount %}{{ x }} xu{% endblocktranslate %}"
    good = "{% blocktranslate with x=t.amount|xu %}{{ x }} xu{% endblocktranslate %}"
    assert _unformatted_amounts(bad) == ["{{ x }} xu"]
    assert _unformatted_amounts(good) == []


def test_no_template_prints_an_amount_of_xu_without_the_xu_filter() -> None:
    """``{{ amount }} xu`` prints 10000 and -5: every amount goes through |xu or |signed_xu."""
    offenders = [
        f"{path.relative_to(ROOT)}: {found}"
        for path in ROOT.glob("**/templates/**/*.html")
        if ".venv" not in path.parts
        for found in _unformatted_amounts(path.read_text())
    ]
    assert offenders == []


def test_the_daily_bonus_message_groups_the_amount(player: Any) -> None:
    client = Client()
    client.force_login(player)
    response = client.post(reverse("ledger:daily_bonus"), {"next": "/"})
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Đã nhận thưởng hôm nay: +1.000 xu."
    ]


def test_the_statement_writes_losses_with_a_true_minus(player: Any, other_player: Any) -> None:
    from ledger import services

    services.hold(9, player, 400)
    services.hold(9, other_player, 400)
    services.settle_round(9, {player.pk: -400, other_player.pk: 400})
    client = Client()
    client.force_login(player)
    html = client.get(reverse("ledger:statement")).content.decode()
    assert MINUS + "400" in html
    assert not re.search(r">\s*-\d", html), "a hyphen used as a minus sign"
