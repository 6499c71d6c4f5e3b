"""Every page's header and the site's loose ends: menu, links, badge, favicon, admin title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def header(client, make_user) -> str:  # type: ignore[no-untyped-def]
    client.force_login(make_user("an"))
    html = client.get(reverse("games:history")).content.decode()
    return html[html.index('<header class="site-header"') : html.index("</header>")]


def test_the_header_links_to_my_disputes_and_how_to_play(header: str) -> None:
    assert f'href="{reverse("moderation:my_cases")}" data-testid="my-cases-link"' in header
    assert f'href="{reverse("games:rules")}"' in header


def test_the_header_has_a_menu_button_for_phones(header: str) -> None:
    assert 'aria-controls="site-nav"' in header and 'aria-expanded="false"' in header
    assert 'id="site-nav"' in header


def test_the_unread_count_is_styled_on_every_page_not_only_the_games() -> None:
    """The badge lives in site.css (every page), not only in games.css ("Thông báo4")."""
    css = (ROOT / "static/css/site.css").read_text()
    rule = re.search(r"(^|\n)[^{}]*\.badge[^{}]*\{([^}]*)\}", css)
    assert rule and "background" in rule.group(2) and "padding" in rule.group(2)


def test_favicon_ico_leads_to_the_icon(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")


def test_the_admin_is_titled_for_the_site_in_vietnamese(client, make_user) -> None:  # type: ignore[no-untyped-def]
    admin = make_user("quan_tri")
    admin.is_staff = admin.is_superuser = True
    admin.save(update_fields=["is_staff", "is_superuser"])
    client.force_login(admin)
    html = client.get(reverse("admin:index")).content.decode()
    assert "Quản trị Mậu Binh Online" in html
    assert "Django" not in re.sub(r"<(script|link|meta)[^>]*>", "", html.split("<body")[1])
