"""Words the player reads: plurals right in both languages, one word per idea, no raw units.

Every plural entry of every catalogue is rendered for 0, 1 and n in Vietnamese and English;
Django's own unit words (``timesince``) have no Vietnamese, so templates must not use them.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import ngettext

ROOT = Path(__file__).resolve().parent.parent.parent
SKIP = {".venv", "staticfiles", "test-artifacts", "node_modules"}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
# One word for one idea in Vietnamese: the left one must not appear, the right one is used.
SYNONYMS = {"bồi hoàn": "bồi thường", "cổng game": "phổ biến"}


def _catalogues(language: str, domain: str = "django") -> list[Path]:
    found = ROOT.glob(f"**/locale/{language}/LC_MESSAGES/{domain}.po")
    return sorted(p for p in found if not SKIP & set(p.parts))


def _plural_entries(po: Path) -> list[tuple[str, str]]:
    """(msgid, msgid_plural) of every live plural entry, via msgattrib (unwrapped)."""
    out = subprocess.run(
        ["msgattrib", "--no-obsolete", "--no-wrap", str(po)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pairs = re.findall(r'^msgid "(.*)"\nmsgid_plural "(.*)"$', out, re.M)
    return [(_unquote(a), _unquote(b)) for a, b in pairs]


def _unquote(text: str) -> str:
    return text.replace('\\"', '"').replace("\\\\", "\\")


PLURALS = sorted({entry for po in _catalogues("vi") for entry in _plural_entries(po)})


def test_the_catalogues_have_plural_entries() -> None:
    assert len(PLURALS) > 5


@pytest.mark.parametrize(("singular", "plural"), PLURALS)
@pytest.mark.parametrize("n", [0, 1, 7])
def test_every_plural_reads_right_for_zero_one_and_many(singular: str, plural: str, n: int) -> None:
    names = set(PLACEHOLDER.findall(singular)) | set(PLACEHOLDER.findall(plural))
    values = dict.fromkeys(names, n)
    with translation.override("en"):
        english = ngettext(singular, plural, n)
        wrong = plural if n == 1 else singular
        assert english != wrong or singular == plural, f"English for {n}: {english!r}"
        english % values  # the placeholders fit
    with translation.override("vi"):
        vietnamese = ngettext(singular, plural, n)
        assert vietnamese not in {singular, plural}, f"no Vietnamese for {singular!r}"
        assert set(PLACEHOLDER.findall(vietnamese)) == names, vietnamese
        vietnamese % values


def test_templates_do_not_use_djangos_untranslated_unit_words() -> None:
    """``timesince``/``timeuntil`` print "1 minute" on a Vietnamese page; use ``age``."""
    offenders = [
        str(path.relative_to(ROOT))
        for path in ROOT.glob("**/templates/**/*.html")
        if not SKIP & set(path.parts) and re.search(r"\|\s*time(since|until)", path.read_text())
    ]
    assert offenders == []


@pytest.mark.parametrize("po", _catalogues("vi") + _catalogues("vi", "djangojs"), ids=str)
def test_one_vietnamese_word_for_one_idea(po: Path) -> None:
    text = subprocess.run(
        ["msgattrib", "--no-obsolete", "--no-wrap", str(po)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.lower()
    strings = "\n".join(line for line in text.splitlines() if line.startswith("msgstr"))
    assert [word for word in SYNONYMS if word in strings] == []
