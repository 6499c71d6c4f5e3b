"""Ids from outside are bounded to what the database holds (accounts.ids)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django import forms
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from accounts.ids import MAX_ID, IdField, parse_id


@pytest.mark.parametrize("value", [1, "1", "42", MAX_ID, str(MAX_ID), "0012"])
def test_a_row_id_is_read(value: Any) -> None:
    assert parse_id(value) == int(value)


@pytest.mark.parametrize(
    "value",
    [0, -1, MAX_ID + 1, 10**23, "99999999999999999999999", "9223372036854775808", "-1", "²",
     "١٢", "1.5", 1.5, True, None, "", " 1", "1e3", [], "0x10"],
)  # fmt: skip
def test_what_cannot_be_a_row_id_is_none(value: Any) -> None:
    assert parse_id(value) is None


def test_the_path_converter_refuses_an_id_beyond_a_bigint() -> None:
    assert resolve(f"/players/{MAX_ID}/").kwargs == {"user_id": MAX_ID}
    for path in ("/players/9223372036854775808/", "/players/99999999999999999999999/",
                 "/players/0/", "/tables/²/"):  # fmt: skip
        with pytest.raises(Resolver404):
            resolve(path)
    with pytest.raises(NoReverseMatch):
        reverse("profiles:profile", kwargs={"user_id": "x"})


class _Form(forms.Form):
    user = IdField()


def test_the_form_field_gives_a_form_error_in_the_users_language() -> None:
    from django.utils import translation

    assert _Form({"user": "12"}).is_valid()
    with translation.override("vi"):
        form = _Form({"user": "99999999999999999999999"})
        assert not form.is_valid()
        assert form.errors["user"] == ["Mục này không tồn tại."]
    assert not _Form({"user": "-1"}).is_valid()
    assert not _Form({"user": "²"}).is_valid()


def test_every_url_pattern_takes_ids_through_the_bounded_converter() -> None:
    from django.urls import URLPattern, URLResolver, get_resolver

    from maubinh_site.routing import websocket_urlpatterns

    def routes(patterns: list[Any], prefix: str = "") -> list[str]:
        found = []
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                found += routes(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                found.append(prefix + str(pattern.pattern))
        return found

    everything = routes(get_resolver().url_patterns) + routes(websocket_urlpatterns)
    unbounded = [r for r in everything if re.search(r"<int:\w+_id>", r)]
    assert unbounded == []
    assert any("<id:table_id>" in r for r in everything)
