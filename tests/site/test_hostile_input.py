"""No input gives a 500: every URL pattern of every app, every role, a fixed corpus of
hostile values.

Each URL is requested with every query parameter any view reads set to one hostile value,
and (when it takes a POST) with every field of its forms set to it too; then each form
of the page is sent as the page fills it, one field at a time hostile (the host tools'
``action=release`` with ``user`` far beyond a bigint); id and integer path arguments also
get values beyond a bigint. Any 5xx fails, listed with what caused it, and so does any
query that a number beyond a bigint reaches (``huge_numbers_queried``): ids from outside
are bounded before the database (accounts.ids), whatever the database.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from ledger.models import Account, Transfer
from moderation import services as moderation
from tests.moderation.conftest import _staff, play_round
from tests.support.played import quick_table

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

HOSTILE = [
    "a\x00b",
    "²",  # str.isdigit() says yes, int() says no
    "-1",
    "99999999999999999999",  # beyond a bigint
    "x" * 3000,
]
BAD_ENCODING = "%ff%fe%c3%28"
# Every query parameter a view of this site or the Django admin reads.
QUERY_NAMES = [
    "status", "category", "table", "user", "older_than_hours", "page", "q", "round",
    "actor", "next", "case", "settle_again", "kind", "o", "p", "e", "all", "language",
    "_changelist_filters", "position", "amount", "reason", "hours", "outcome", "per_payment",
    "per_day", "period", "preset", "action", "invite", "username", "avatar", "day", "chi",
    "sound", "ref", "name", "players", "buy_in", "minutes", "spectators", "word_filter",
]  # fmt: skip
HUGE_IDS = ["99999999999999999999999", "9223372036854775808"]  # 23 digits; 2**63
FIELD = re.compile(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"')
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S | re.I)
INPUT = re.compile(r"<(input|select|textarea)\b([^>]*)>", re.I)
ATTRIBUTE = re.compile(r'\b(name|value|action|method|type)="([^"]*)"', re.I)
# One field hostile, the others as the page fills them.
FIELD_HOSTILE = [*HUGE_IDS, "-1", "0", "²", "x" * 3000, "a\x00b"]
CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


def _patterns(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def _paths(route: str, ids: dict[str, Any]) -> tuple[str, list[str]]:
    """The route with real ids, and (if it has any) with every id or integer beyond a bigint."""
    if "(?P<app_label>" in route:
        return "/admin/ledger/", []
    real = "/" + CONVERTER.sub(lambda m: str(ids.get(m.group(2), 1)), route)
    huge = [
        "/"
        + CONVERTER.sub(
            lambda m, h=value: h if m.group(1) in ("int", "id") else str(ids.get(m.group(2), 1)),
            route,
        )
        for value in HUGE_IDS
    ]
    return real, [path for path in huge if path != real]


def _forms(html: str, page: str) -> list[tuple[str, dict[str, str]]]:
    """Each POST form of a page: where it posts, and its fields as the page fills them."""
    found = []
    for head, body in FORM.findall(html):
        attributes = {k.lower(): v for k, v in ATTRIBUTE.findall(head)}
        if attributes.get("method", "").lower() != "post":
            continue
        target = attributes.get("action") or page
        fields: dict[str, str] = {}
        for _tag, attrs in INPUT.findall(body):
            named = {k.lower(): v for k, v in ATTRIBUTE.findall(attrs)}
            name = named.get("name")
            if not name or name == "csrfmiddlewaretoken" or named.get("type") == "file":
                continue
            if named.get("type") in ("checkbox", "radio") and name in fields:
                continue
            fields[name] = named.get("value", "")
        if fields and target.startswith("/") and "logout" not in target:
            found.append((target.replace("&amp;", "&"), fields))
    return found


@pytest.fixture
def world(make_user: Any) -> dict[str, Any]:
    from games import services as games
    from games.services import duplicate, private
    from social import services as social
    from tournaments.arena import services as arena
    from tournaments.sitandgo import services as tournaments

    players = [make_user(name) for name in ("an", "binh", "chi")]
    moderator = _staff(make_user, "mod", moderator=True)
    admin = _staff(make_user, "admin", admin=True)
    table = quick_table(players[0], name="Bàn")
    round_ = play_round(players, table)
    case = moderation.file_dispute(players[0], round_.pk, category="other", text="?")
    moderation.claim(moderator, case.pk)
    pending = moderation.compensate(moderator, case.pk, amount=100_000, reason="big")
    # A private table whose host has a hold and a guest seated: the host tools' forms.
    host, guest, friend = make_user("host"), make_user("guest"), make_user("friend")
    entrant, arena_entrant = make_user("entrant"), make_user("arena")
    private_table = games.create_table(host, name="Riêng", stake=10, is_private=True)
    games.sit(host, private_table.pk)
    private.sit_by_invite(guest, private.create_invite(host, private_table.pk).token)
    private.hold_seat(host, private_table.pk, friend)
    sit_and_go = tournaments.create_sit_and_go(entrant, name="Giải", players=4, buy_in=0)
    arena.create_arena(arena_entrant, name="Đấu trường", minutes=10, buy_in=0)
    schedule = duplicate.create_schedule(name="Lịch", boards=1)
    request = social.send_friend_request(players[1], players[0])
    ids = {
        "round_id": round_.pk,
        "table_id": table.pk,
        "user_id": players[1].pk,
        "dispute_id": case.pk,
        "compensation_id": pending.pk,
        "transfer_id": Transfer.objects.order_by("pk").first().pk,  # type: ignore[union-attr]
        "account_id": Account.objects.order_by("pk").first().pk,  # type: ignore[union-attr]
        "object_id": players[1].pk,
        "uidb64": "MQ",
        "token": "x-y",
        "tournament_id": sit_and_go.pk,
        "schedule_id": schedule.pk,
        "request_id": request.pk,
        "version": 1,
        "index": 1,
    }
    roles = {
        "anonymous": None,
        "player": players[0],
        "host": host,
        "moderator": moderator,
        "admin": admin,
    }
    # The host walks their table's pages only, with the private table's id.
    overrides = {"host": {"table_id": private_table.pk}}
    return {"ids": ids, "roles": roles, "overrides": overrides}


def _full_corpus(role: str, route: str) -> bool:
    """Where a role's requests reach code of their own; elsewhere one GET shows the answer.

    Views parse their parameters the same for every role that gets past the permission
    check: players (and visitors) cover the site, moderators and admins the pages only
    they reach.
    """
    if role in ("anonymous", "player"):
        return not route.startswith("admin/")
    if role == "host":
        return route.startswith("tables/")
    if role == "moderator":
        return route.startswith("moderation/")
    return route.startswith(("moderation/", "admin/"))


ADMIN_VIEWS = re.compile(r"^admin/(\w+/\w+/(<path:object_id>/(change/)?)?$|ledger/|$)")


def _send(client: Client, path: str, value: str | None, fields: list[str] | None) -> int:
    """GET with every query parameter set to the value; POST the same as form fields too."""
    if value is None:  # undecodable bytes, sent raw
        query = "&".join(f"{n}={BAD_ENCODING}" for n in QUERY_NAMES)
        body = "&".join(f"{n}={BAD_ENCODING}" for n in fields or [])
    else:
        query = urlencode(dict.fromkeys(QUERY_NAMES, value))
        body = urlencode(dict.fromkeys(fields or [], value))
    if fields is None:
        return int(client.get(f"{path}?{query}").status_code)
    return int(
        client.post(
            f"{path}?{query}", body, content_type="application/x-www-form-urlencoded"
        ).status_code
    )


def test_no_hostile_value_in_any_parameter_of_any_url_gives_a_5xx_or_reaches_the_database(
    world: dict[str, Any], huge_numbers_queried: list[str]
) -> None:
    started = time.monotonic()
    routes = sorted(
        route
        for route in set(_patterns(get_resolver().url_patterns))
        if not route.startswith("admin/") or ADMIN_VIEWS.match(route)
    )
    failures: list[str] = []
    requests = 0
    for role, user in world["roles"].items():
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        ids = {**world["ids"], **world["overrides"].get(role, {})}
        for route in routes:
            if route.startswith("admin/") and role != "admin":
                continue  # the Django admin answers everyone else with its login page
            if role == "host" and not _full_corpus(role, route):
                continue
            real, huge = _paths(route, ids)
            for path in huge:  # ids out of any range: one GET and one empty POST
                for fields in (None, []):
                    requests += 1
                    if (status := _send(client, path, "", fields)) >= 500:
                        failures.append(f"{role} {path} {fields}: {status}")
            page = client.get(real)
            requests += 1
            if page.status_code >= 500:
                failures.append(f"{role} GET {real}: {page.status_code}")
                continue
            if not _full_corpus(role, route):
                continue
            ok_page = page.status_code == 200 and not page.streaming
            html = page.content.decode(errors="replace") if ok_page else ""
            fields = None
            if page.status_code == 405 or 'method="post"' in html:
                named = {n for n in FIELD.findall(html) if n != "csrfmiddlewaretoken"}
                fields = sorted({*named, *QUERY_NAMES})
            for value in [*HOSTILE, None]:
                requests += 1
                if (status := _send(client, real, value, fields)) >= 500:
                    failures.append(f"{role} {real} = {value!r:.30} {fields and 'POST'}: {status}")
                if "logout" in route and user is not None:
                    client.force_login(user)
            if route.startswith("admin/"):
                continue  # Django's own forms
            for target, filled in _forms(html, real):
                for name in filled:
                    for value in FIELD_HOSTILE:
                        requests += 1
                        status = client.post(target, {**filled, name: value}).status_code
                        if status >= 500:
                            failures.append(f"{role} POST {target} {name}={value!r:.30}: {status}")
    elapsed = time.monotonic() - started
    print(f"{requests} requests in {elapsed:.1f} s")
    assert not failures, "\n".join(failures)
    assert not huge_numbers_queried, "\n".join(sorted(set(huge_numbers_queried)))
