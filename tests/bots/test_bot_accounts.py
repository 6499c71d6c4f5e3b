import pytest
from django.urls import reverse

from bots import services
from bots.models import Difficulty
from ledger.models import Account, Transfer, TransferKind
from ledger.selectors import balance

pytestmark = pytest.mark.django_db


def test_a_bot_is_a_flagged_account_with_a_vietnamese_name_and_no_usable_password():
    bot = services.create_bot(Difficulty.EASY)
    user = bot.user
    assert user.is_bot
    assert not user.has_usable_password()
    assert user.display_name in services.BOT_NAMES
    assert Account.objects.get(key=f"wallet:{user.pk}").is_bot


def test_a_bot_cannot_log_in_even_if_someone_gives_it_a_password(client):
    user = services.create_bot().user
    user.set_password("a-long-Passw0rd!")
    user.save()
    client.post(
        reverse("accounts:login"), {"username": user.username, "password": "a-long-Passw0rd!"}
    )
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_a_low_bot_is_topped_up_from_issuance_by_a_recorded_bot_topup_once_per_shortfall():
    bot = services.create_bot()
    minted = services.fund(bot, 5_000)
    assert minted == services.BANKROLL_XU
    assert balance(bot.user) == services.BANKROLL_XU
    assert services.fund(bot, 5_000) == 0
    topups = Transfer.objects.filter(kind=TransferKind.BOT_TOPUP)
    assert topups.count() == 1
    assert topups.get().debit.kind == "issuance"
