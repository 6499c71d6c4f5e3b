"""The interactive docs at /api/docs/ load swagger-ui from the site's own static files."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_the_interactive_docs_use_no_cdn(client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources)
    assert all(s.startswith("/") and not s.startswith("//") for s in sources), sources
    assert "cdn" not in html.lower()


def test_the_openapi_document_is_served_at_api_openapi_json(client) -> None:
    document = client.get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.")
    assert "/api/account" in document["paths"]
    assert document["components"]["securitySchemes"]
