"""A request the site refuses before any view (a NUL character: maubinh_site.badinput)
is answered to a program in the API's error shape, not with a page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_nul_in_an_operation_s_query_is_refused_in_the_api_s_error_shape(
    make_user, token_for, api_client
) -> None:
    client = api_client(token_for(make_user(), "export"))
    response = client.get("/rounds/export", preset="portal\x00")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "malformed"


def test_a_nul_sent_to_a_page_still_gets_the_page(client) -> None:
    response = client.get("/api/tokens/", {"q": "\x00"})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
