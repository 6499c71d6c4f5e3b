"""The client's address as the site sees it (the sign-up grant's limit, moderation's
address signal)."""

from __future__ import annotations

import ipaddress

from django.http import HttpRequest

UNKNOWN = "0.0.0.0"
"""An address that cannot be read counts as one address of its own."""


def client_address(request: HttpRequest) -> str | None:
    """The peer daphne saw, or None when it is not an IP address. Behind a proxy, daphne's
    ``--proxy-headers`` puts the client's address there (docs/deploy.md)."""
    value = request.META.get("REMOTE_ADDR") or ""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def address_group(address: str | None) -> str:
    """The addresses one person is taken to hold: an IPv4 address, or the /64 network of an
    IPv6 one (a home or phone is given a whole /64 and may use any address in it)."""
    if not address:
        return UNKNOWN
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return UNKNOWN
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))
    return str(parsed)
