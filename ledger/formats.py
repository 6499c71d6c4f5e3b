"""How an amount of xu is written, everywhere: grouped in the page's language, a true minus.

``format_xu(-1234)`` is ``−1.234`` in Vietnamese and ``−1,234`` in English; the sign is
U+2212 MINUS SIGN, never a hyphen. ``format_signed_xu`` adds ``+`` for a gain.
"""

from __future__ import annotations

from typing import Any

from django.utils import formats

MINUS = "\u2212"


def format_xu(value: Any) -> str:
    """A whole number of xu grouped by thousands in the active language ("" if not a number).

    Django's Vietnamese locale sets no NUMBER_GROUPING, so floatformat would not group.
    """
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    separator = str(formats.get_format("THOUSAND_SEPARATOR"))
    grouped = f"{abs(number):,}".replace(",", separator)
    return MINUS + grouped if number < 0 else grouped


def format_signed_xu(value: Any) -> str:
    """Like ``format_xu`` with ``+`` on a gain: +1.000, −200, 0."""
    text = format_xu(value)
    return "+" + text if text and int(value) > 0 else text


class Xu(int):
    """An amount of xu that prints itself with ``format_xu`` in the language active then.

    Pass it as a parameter of a lazily translated message (``"%(balance)s xu"``) so the
    number is grouped like the words around it; it is still an ``int`` everywhere else.
    """

    def __str__(self) -> str:
        return format_xu(int(self))
