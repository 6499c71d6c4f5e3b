"""The text policy: what every free-text field keeps of what a person typed.

Display names, usernames, table, tournament and schedule names, chat messages, reports,
disputes and staff notes all pass through ``clean_text`` on their write path (the
service), so a form, a command and a socket get the same answer:

- NFKC normalisation: full-width, mathematical and other compatibility forms become the
  letters they stand for (``ｆｕｃｋ`` is ``fuck``), and decomposed Vietnamese is
  composed (``Bình`` typed as ``i`` + a combining grave is the precomposed ``ì``);
  precomposed Vietnamese is unchanged.
- Invisible characters are removed: bidi controls (U+202E turns text around), zero-width
  characters, every Default_Ignorable_Code_Point, other format and control characters
  (a multi-line field keeps its newlines), private-use, unassigned and surrogate code
  points. A zero-width joiner stays only between two emoji (👨‍💻), and a variation
  selector only after a symbol or a digit (❤️, 1️⃣), where they are part of one picture.
- Characters that draw nothing but are letters or symbols to Unicode (U+3164 HANGUL
  FILLER, U+2800 BRAILLE PATTERN BLANK...) count as spaces, and spaces collapse.
- Refused, with a stable code: text that had characters and is blank once cleaned
  (``text_invisible``), more than ``MAX_MARKS`` combining marks on one letter
  (``text_marks``: every Vietnamese letter has at most two, ``ệ``), and text longer than
  the field's ``max_length`` after cleaning (``text_too_long``).

Look-alike names: ``skeleton`` is the Unicode TR39 skeleton, computed from the
confusables data that ``confusable_homoglyphs`` ships (Unicode's confusables.txt; see
requirements.txt for why that library), and ``name_key`` the casefolded key two names
share when they look alike (``Аn`` with a Cyrillic А and ``An``).
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from accounts.errors import E, TextRefused

MAX_MARKS = 3
"""Combining marks on one letter (counted decomposed): Vietnamese needs two (ệ = e ̂ ̣)."""

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt): code points that a
# renderer draws as nothing when it does not support them, so they can hide in a name.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Letters and symbols that draw an empty box of the width of a letter: shown as a space.
_BLANK = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # BRAILLE PATTERN BLANK
    "\U0001d159"  # MUSICAL SYMBOL NULL NOTEHEAD
    "\U00016fe4"  # KHITAN SMALL SCRIPT FILLER
)
_ZWJ = "\u200d"
_VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


def _is_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


def is_invisible(char: str) -> bool:
    """Drawn as nothing: a Default_Ignorable_Code_Point, or a format or control character."""
    return _is_ignorable(char) or unicodedata.category(char) in ("Cf", "Cc")


def _is_mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")


def _is_emoji(char: str) -> bool:
    return unicodedata.category(char) == "So" or ord(char) in _EMOJI_MODIFIERS


def _refused(template: Any, code: str, **params: Any) -> TextRefused:
    """A refusal whose message renders in the language active when it is read."""

    def message() -> str:
        return str(template) % params if params else str(template)

    return TextRefused(lazy(message, str)(), code=code, params=params, template=template)


def _strip_invisible(text: str, *, multiline: bool) -> str:
    kept: list[str] = []
    for index, char in enumerate(text):
        if char in "\r\n\u2028\u2029\x85":
            kept.append("\n" if multiline else " ")
            continue
        if char in "\t\x0b\x0c" or char in _BLANK:
            kept.append(" ")
            continue
        if char == _ZWJ:
            after = text[index + 1] if index + 1 < len(text) else ""
            if (
                kept
                and after
                and _is_emoji(after)
                and (_is_emoji(kept[-1]) or kept[-1] in _VARIATION_SELECTORS)
            ):
                kept.append(char)
            continue
        if char in _VARIATION_SELECTORS:
            if kept and (_is_emoji(kept[-1]) or kept[-1].isdigit() or kept[-1] in "#*"):
                kept.append(char)
            continue
        if _is_ignorable(char) or unicodedata.category(char) in _DROPPED_CATEGORIES:
            continue
        kept.append(char)
    return "".join(kept)


def _collapse(text: str, *, multiline: bool) -> str:
    if not multiline:
        return " ".join(text.split())
    lines = [" ".join(line.split()) for line in text.split("\n")]
    collapsed: list[str] = []
    for line in lines:
        if line or (collapsed and collapsed[-1]):  # at most one empty line in a row
            collapsed.append(line)
    return "\n".join(collapsed).strip("\n")


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in _VARIATION_SELECTORS


def _most_marks(text: str) -> int:
    most = run = 0
    for char in unicodedata.normalize("NFD", text):
        run = run + 1 if _is_mark(char) else 0
        most = max(most, run)
    return most


def clean_text(value: Any, *, max_length: int | None = None, multiline: bool = False) -> str:
    """``value`` as the site keeps it (see the module's docstring), or "" when nothing but
    spaces was typed (the caller decides whether the field may be empty).

    Raises TypeError when ``value`` is not a string, TextRefused when the text cannot be
    kept. The result is a fixed point: cleaning it again changes nothing.
    """
    if not isinstance(value, str):
        raise TypeError("text")
    # Surrogates (a lone one can come from JSON) cannot be normalised: they go first.
    text = "".join(c for c in value if not 0xD800 <= ord(c) <= 0xDFFF).replace("\r\n", "\n")
    text = unicodedata.normalize("NFKC", text)
    text = _collapse(_strip_invisible(text, multiline=multiline), multiline=multiline)
    # Removing a character can bring two others together that NFKC composes.
    text = unicodedata.normalize("NFKC", text)
    if not any(_visible(c) for c in text):
        if value.strip():
            raise _refused(
                _("This text is only invisible or blank characters: write something that shows."),
                "text_invisible",
            )
        return ""
    if _most_marks(text) > MAX_MARKS:
        raise _refused(
            _("Too many accents on one letter (at most %(n)s)."), "text_marks", n=MAX_MARKS
        )
    if max_length is not None and len(text) > max_length:
        raise _refused(_("At most %(n)s characters."), "text_too_long", n=max_length)
    return text


def clean_title(name: Any, error_class: Callable[..., E], too_long_or_empty: str | Promise) -> str:
    """The name someone gives a table, a schedule or a tournament: ``clean_text``'s, 1 to
    60 characters. A refusal comes as ``error_class`` (the text policy's code and message,
    else ``bad_name`` with ``too_long_or_empty``)."""
    try:
        kept = clean_text(name)  # the text policy: nothing invisible, no bidi control
    except TextRefused as exc:
        raise exc.as_error(error_class) from exc
    if not kept or len(kept) > 60:
        raise error_class(too_long_or_empty, code="bad_name")
    return kept


def hides_characters(value: str) -> bool:
    """``value`` has characters that ``clean_text`` would remove as invisible or show as a
    blank (not ordinary spaces): where a name is concerned, a reason to refuse it rather
    than keep it cleaned (accounts.services)."""
    text = unicodedata.normalize("NFKC", value)
    return _strip_invisible(text, multiline=False).split() != text.split()


# --- Look-alikes (Unicode TR39) -----------------------------------------------------------


def _confusables() -> dict[str, list[str]]:
    """confusable_homoglyphs' data: each character or string with the ones it is
    confusable with, both ways (its right-to-left entries wrapped in U+200E marks)."""
    from confusable_homoglyphs.confusables import confusables_data

    def plain(text: str) -> str:
        return text.replace("\u200e", "")

    return {
        plain(key): [plain(entry["c"]) for entry in entries]
        for key, entries in confusables_data.items()
    }


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt's mapping, each source character to its prototype.

    The library keeps each line of confusables.txt (source → prototype) in both directions;
    the direction comes back from the file's own shape: a source is one character, mapped to
    one prototype, and a prototype is never a source. So a character confusable with one
    other only is a source, unless that other is confusable with it alone: such a pair
    gets the lower code point as its prototype (which one does not matter to a skeleton:
    both get the same)."""
    graph = _confusables()
    mapping: dict[str, str] = {}
    for key, targets in graph.items():
        if len(key) != 1 or len(targets) != 1 or targets[0] == key:
            continue
        target = targets[0]
        if len(target) > 1 or len(graph.get(target, ())) > 1 or ord(key) > ord(target):
            mapping[key] = target
    return mapping


def skeleton(text: str) -> str:
    """The TR39 skeleton: NFD, each character replaced by its prototype, NFD again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What two names share when they look alike: the skeleton, casefolded (``An``, ``аn``,
    ``AN`` and ``Аn`` with a Cyrillic А), after the text policy's normalisation."""
    with contextlib.suppress(TextRefused):  # a refused name (an old row) still gets a key
        name = clean_text(name)
    return skeleton(skeleton(name).casefold())


@cache
def latin_lookalikes(char: str) -> frozenset[str]:
    """The lower-case ASCII letters a character is confusable with (Cyrillic ``о``: ``o``),
    from the same data, in both directions and through its other case; empty for none."""
    graph = _confusables()
    found: set[str] = set()
    for form in {char, char.lower(), char.upper()}:
        for other in [*graph.get(form, ()), skeleton(form)]:
            if len(other) == 1 and other.isascii() and other.isalpha():
                found.add(other.lower())
    return frozenset(found)
