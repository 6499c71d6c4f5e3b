from __future__ import annotations

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def share(value: float | None) -> str:
    """A share as a percentage in the page's language (42,5 % / 42.5%), or a dash."""
    if value is None:
        return "—"
    return f"{number_format(round(value * 100, 1), 1)}%"
