"""Names cannot impersonate or hide: display names and usernames are unique by look."""

from __future__ import annotations

import threading
import unicodedata
from typing import Any

import pytest
from django.db import connection, connections
from django.urls import reverse

from accounts import services
from accounts.errors import AccountError
from accounts.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

BINH_DECOMPOSED = unicodedata.normalize("NFD", "Bình")
CYRILLIC_AN = "\u0410n"  # Аn: a Cyrillic capital A


def _refusal(call: Any) -> str:
    with pytest.raises(AccountError) as refused:
        call()
    return refused.value.code


def _name_refusal(user: User, name: str) -> str:
    """Why ``update_profile`` refuses ``name`` as the user's display name."""
    return _refusal(lambda: services.update_profile(user, display_name=name, language="vi"))


def test_bình_typed_decomposed_is_the_bình_that_exists(make_user: Any) -> None:
    make_user("binh", display_name="Bình")
    other = make_user("other")
    assert BINH_DECOMPOSED != "Bình"
    assert _name_refusal(other, BINH_DECOMPOSED) == "name_taken"


def test_a_cyrillic_a_does_not_pass_for_a_latin_one(make_user: Any) -> None:
    make_user("an1", display_name="An")
    other = make_user("other")
    assert _name_refusal(other, CYRILLIC_AN) == "name_taken"


def test_a_name_cannot_look_like_another_players_username(make_user: Any) -> None:
    make_user("lan")
    other = make_user("other")
    for look_alike in ("LAN", "Ⅼan", "lаn", "ｌａｎ"):  # Roman numeral L, Cyrillic a, full-width
        code = _name_refusal(other, look_alike)
        assert code == "name_taken", look_alike


@pytest.mark.parametrize(
    "name", ["\u3164", "\u3164\u3164\u3164", "\u2800\u2800", "\u115f\u1160", "\uffa0\uffa0"]
)
def test_a_name_made_only_of_blank_looking_letters_is_refused(make_user: Any, name: str) -> None:
    user = make_user("an")
    assert _name_refusal(user, name) == "name_invisible"
    user.refresh_from_db()
    assert user.display_name == ""


def test_z_with_39_combining_marks_is_refused_as_a_name(make_user: Any) -> None:
    user = make_user("an")
    name = "Z" + "\u0336\u0301\u0300" * 13
    assert _name_refusal(user, name) == "text_marks"


@pytest.mark.parametrize("hidden", ["\u202e", "\u200b", "\u2800", "\u3164", "\u2066", "\ufeff"])
def test_a_name_hiding_a_character_is_refused_not_kept(make_user: Any, hidden: str) -> None:
    user = make_user("an", display_name="An Nguyễn")
    name = f"An{hidden} Nguyễn"
    assert _name_refusal(user, name) == "name_invisible"
    user.refresh_from_db()
    assert user.display_name == "An Nguyễn"


def test_a_name_in_compatibility_forms_is_kept_as_the_letters_it_shows(make_user: Any) -> None:
    user = make_user("an")
    services.update_profile(user, display_name="Ｂình\u00a0 Dương", language="vi")
    user.refresh_from_db()
    assert user.display_name == "Bình Dương"


def test_vietnamese_names_that_differ_by_a_tone_are_different_names(make_user: Any) -> None:
    make_user("a", display_name="Bình")
    make_user("b", display_name="Bính")
    make_user("c", display_name="Binh")
    assert User.objects.filter(display_name__in=["Bình", "Bính", "Binh"]).count() == 3


def test_a_player_keeps_their_own_name_in_another_case(make_user: Any) -> None:
    user = make_user("an", display_name="An Nguyễn")
    services.update_profile(user, display_name="AN NGUYỄN", language="vi")
    user.refresh_from_db()
    assert user.display_name == "AN NGUYỄN"


def test_bots_do_not_take_names_from_people(make_user: Any) -> None:
    bot = User(username="bot-x", display_name="Lan", is_bot=True)
    bot.save()
    user = make_user("an")
    services.update_profile(user, display_name="Lan", language="vi")
    user.refresh_from_db()
    assert user.display_name == "Lan"


def test_sign_up_refuses_a_username_that_looks_like_another_players_name(
    make_user: Any, client: Any, password: str
) -> None:
    make_user("someone", display_name="An")
    response = client.post(
        reverse("accounts:signup"),
        {"username": "аn", "password1": password, "password2": password},  # Cyrillic a
    )
    assert response.status_code == 200
    assert "Người chơi khác đã dùng tên này" in response.content.decode()
    assert not User.objects.filter(username="аn").exists()


@pytest.mark.parametrize("username", ["\u3164", "an\u3164", "an\u200b"])
def test_sign_up_refuses_a_username_with_invisible_or_blank_letters(
    client: Any, password: str, username: str
) -> None:
    response = client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert not User.objects.exists()


def test_the_sign_up_service_applies_the_same_rules_as_the_form(
    make_user: Any, password: str
) -> None:
    make_user("an1", display_name="An")
    assert (
        _refusal(
            lambda: services.sign_up(username="x1", password=password, display_name=CYRILLIC_AN)
        )
        == "name_taken"
    )
    assert (
        _refusal(lambda: services.sign_up(username="\u3164", password=password))
        == "username_invisible"
    )
    assert not User.objects.filter(username="x1").exists()


def test_the_profile_page_shows_why_a_look_alike_name_is_refused(
    make_user: Any, client: Any
) -> None:
    make_user("binh", display_name="Bình")
    user = make_user("other")
    client.force_login(user)
    response = client.post(
        reverse("accounts:profile"), {"display_name": BINH_DECOMPOSED, "language": "vi"}
    )
    assert response.status_code == 200
    assert "Người chơi khác đã dùng tên này" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_people_taking_look_alike_names_at_once_get_one_of_them(make_user: Any) -> None:
    first, second = make_user("p1"), make_user("p2")
    names = {first.pk: "An", second.pk: CYRILLIC_AN}
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def take(user: User) -> None:
        try:
            barrier.wait()
            services.update_profile(user, display_name=names[user.pk], language="vi")
            outcomes.append("kept")
        except AccountError as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=take, args=(u,)) for u in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["kept", "name_taken"]
    assert connection.vendor == "postgresql"


def test_the_admins_own_edit_refuses_a_look_alike_name_too(make_user: Any, rf: Any) -> None:
    from django.contrib import admin

    make_user("binh", display_name="Bình")
    other = make_user("other")
    request = rf.get("/")
    request.user = User.objects.create_superuser("root", password="x-Passw0rd!")
    form_class = admin.site._registry[User].get_form(request, obj=other)
    form = form_class(instance=other, data={"username": "other", "display_name": BINH_DECOMPOSED})
    assert not form.is_valid()
    assert form.has_error("display_name", "name_taken")
