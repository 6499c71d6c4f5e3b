"""Template helpers for ledger pages."""

from __future__ import annotations

from django import template
from django.urls import NoReverseMatch, reverse

from ledger.formats import format_signed_xu, format_xu

register = template.Library()

# The games app names its round page with this URL name (one int argument: the round
# id); until it exists, statements show the round number without a link.
ROUND_URL_NAME = "games:round_detail"


@register.simple_tag
def round_url(round_id: int | None) -> str:
    """The round's page, or "" while the games app does not provide one."""
    if round_id is None:
        return ""
    try:
        return reverse(ROUND_URL_NAME, args=[round_id])
    except NoReverseMatch:
        return ""


@register.filter
def xu(value: int | None) -> str:
    """A whole number of xu in the page's language: 10.000 / 10,000, −200."""
    return format_xu(value)


@register.filter
def signed_xu(value: int | None) -> str:
    """Xu with a sign: +1.000, −200, 0."""
    return format_signed_xu(value)
