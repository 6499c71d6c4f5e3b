from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import SignUp, User
from ledger.models import Transfer, TransferKind
from ledger.selectors import balance
from ledger.services import claim_daily_bonus
from tests.support.races import race

pytestmark = pytest.mark.django_db


def test_a_visitor_signs_up_and_is_logged_in(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "lan",
            "display_name": "Lan",
            "email": "",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="lan")
    assert user.display_name == "Lan"
    assert user.preferred_language == "vi"
    assert client.get(reverse("home")).context["user"] == user


def test_sign_up_refuses_mismatched_passwords_in_vietnamese(client, password):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "lan", "password1": password, "password2": password + "x"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="lan").exists()
    assert "Hai trường mật khẩu không giống nhau" in response.content.decode()


def test_sign_up_refuses_a_taken_username(client, make_user, password):
    make_user("lan")
    response = client.post(
        reverse("accounts:signup"),
        {"username": "lan", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert User.objects.filter(username="lan").count() == 1


def test_sign_up_page_renders_in_vietnamese_by_default(client):
    response = client.get(reverse("accounts:signup"), HTTP_ACCEPT_LANGUAGE="en-US,en")
    html = response.content.decode()
    assert '<html lang="vi">' in html
    assert "Tạo tài khoản" in html


def test_sign_up_says_how_many_xu_were_granted(client, password):
    page = client.get(reverse("accounts:signup")).content.decode()
    assert "Bạn nhận 10.000 xu khi đăng ký" in page
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "lan",
            "display_name": "Lan & Co",
            "password1": password,
            "password2": password,
        },
        follow=True,
    )
    messages = [str(m) for m in response.context["messages"]]
    assert messages == ["Chào mừng Lan & Co! Bạn đã nhận 10.000 xu để bắt đầu chơi."]
    assert "Lan &amp; Co" in response.content.decode()  # escaped once, on display


def _sign_up(client, password, username, address):  # type: ignore[no-untyped-def]
    client.logout()
    return client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": password, "password2": password},
        REMOTE_ADDR=address,
        follow=True,
    )


@override_settings(SIGNUP_GRANTS_PER_ADDRESS_PER_DAY=3)
def test_only_the_first_accounts_of_an_address_each_day_get_the_sign_up_grant(client, password):
    welcomes = [
        [str(m) for m in _sign_up(client, password, f"farm{n}", "203.0.113.7").context["messages"]]
        for n in range(5)
    ]
    balances = [balance(User.objects.get(username=f"farm{n}")) for n in range(5)]
    assert balances == [10_000, 10_000, 10_000, 0, 0]
    assert welcomes[0] == ["Chào mừng farm0! Bạn đã nhận 10.000 xu để bắt đầu chơi."]
    assert "đã nhận đủ tiền thưởng đăng ký hôm nay (3 tài khoản mỗi ngày)" in welcomes[3][0]
    # Created all the same, and the daily bonus is theirs like anyone's.
    fourth = User.objects.get(username="farm3")
    claim_daily_bonus(fourth)
    assert balance(fourth) == 1_000
    # Another address is not affected; the page says so to whoever comes from the first.
    _sign_up(client, password, "neighbour", "198.51.100.2")
    assert balance(User.objects.get(username="neighbour")) == 10_000
    client.logout()
    page = client.get(reverse("accounts:signup"), REMOTE_ADDR="203.0.113.7").content.decode()
    assert 'data-testid="signup-no-grant"' in page
    assert "một tài khoản bạn tạo bây giờ sẽ bắt đầu không có xu" in page
    fresh = client.get(reverse("accounts:signup"), REMOTE_ADDR="198.51.100.9").content.decode()
    assert 'data-testid="signup-no-grant"' not in fresh


@override_settings(SIGNUP_GRANTS_PER_ADDRESS_PER_DAY=1)
def test_the_limit_starts_again_on_the_next_vietnamese_day(client, password, monkeypatch):
    vietnam = ZoneInfo("Asia/Ho_Chi_Minh")
    late = datetime(2026, 12, 1, 23, 59, tzinfo=vietnam)
    monkeypatch.setattr(timezone, "now", lambda: late)
    _sign_up(client, password, "late1", "203.0.113.7")
    _sign_up(client, password, "late2", "203.0.113.7")
    after_midnight = datetime(2026, 12, 2, 0, 1, tzinfo=vietnam)  # 17:01 UTC the same day
    monkeypatch.setattr(timezone, "now", lambda: after_midnight)
    _sign_up(client, password, "early", "203.0.113.7")
    assert [balance(User.objects.get(username=n)) for n in ("late1", "late2", "early")] == [
        10_000,
        0,
        10_000,
    ]


@override_settings(SIGNUP_GRANTS_PER_ADDRESS_PER_DAY=1)
def test_addresses_of_one_ipv6_network_count_as_one(client, password):
    _sign_up(client, password, "six1", "2001:db8:5:7::1")
    _sign_up(client, password, "six2", "2001:db8:5:7:abcd::2")
    _sign_up(client, password, "six3", "2001:db8:5:8::1")  # another /64
    assert [balance(User.objects.get(username=n)) for n in ("six1", "six2", "six3")] == [
        10_000,
        0,
        10_000,
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@override_settings(SIGNUP_GRANTS_PER_ADDRESS_PER_DAY=2)
def test_sign_ups_from_one_address_at_once_get_no_more_grants_than_the_limit(password):
    def sign_up(n: int):  # type: ignore[no-untyped-def]
        return lambda: services.sign_up(
            username=f"rush{n}", password=password, address="203.0.113.7"
        )

    race(*(sign_up(n) for n in range(6)), refusals=())
    granted = Transfer.objects.filter(kind=TransferKind.SIGNUP_GRANT).count()
    assert User.objects.filter(username__startswith="rush").count() == 6
    assert granted == 2
    assert SignUp.objects.filter(address="203.0.113.7", granted=True).count() == 2
