"""Row ids from outside (a path, a form, a query, a socket message), bounded to what the
database holds: a positive bigint. One mechanism for every place that takes one:

- ``IdConverter``, the ``<id:...>`` path converter (registered in ``accounts.apps``): a
  path whose id is beyond a bigint does not resolve, so it is a 404 before any view runs;
- ``IdField``, the form field: a value beyond it is a form error in the user's language;
- ``parse_id``, for a view or a service that reads an id without a form (a socket's JSON).

A huge number never reaches a query: SQLite cannot bind one (OverflowError) and
PostgreSQL compares it as a numeric, for nothing.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

MAX_ID = 2**63 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_id(value: Any) -> int | None:
    """``value`` as a row id (an int, or a string of ASCII digits), or None if it cannot be
    one: not a whole number, not positive, or beyond a bigint."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _DIGITS.fullmatch(value):
        number = int(value)
    else:
        return None
    return number if 1 <= number <= MAX_ID else None


class IdConverter:
    """``<id:name>``: ASCII digits, at most a bigint (``int``'s converter takes any length)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(value)  # the pattern does not match: 404
        return number

    def to_url(self, value: Any) -> str:
        return str(int(value))


class IdField(forms.IntegerField):
    """A row id in a form: a whole number from 1 to the largest bigint."""

    default_error_messages = {
        "invalid": _("This does not point to anything that exists."),
        "min_value": _("This does not point to anything that exists."),
        "max_value": _("This does not point to anything that exists."),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        kwargs.setdefault("widget", forms.HiddenInput)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = parse_id(value.strip() if isinstance(value, str) else value)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number
