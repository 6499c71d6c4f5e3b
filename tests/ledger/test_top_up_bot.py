from __future__ import annotations

from typing import Any

from ledger import selectors, services
from ledger.models import Account


def test_a_bot_top_up_mints_xu_and_flags_the_wallet(make_user: Any) -> None:
    bot = make_user("bot_1")
    transfer = services.top_up_bot(bot, 50_000, key="bot-topup:1")
    assert transfer.kind == "bot_topup"
    assert selectors.balance(bot) == 60_000
    assert Account.objects.get(user=bot).is_bot


def test_the_bots_net_result_counts_only_their_play(make_user: Any, player: Any) -> None:
    bot = make_user("bot_1")
    services.top_up_bot(bot, 50_000, key="bot-topup:1")
    services.hold(1, bot, 1_000)
    services.hold(1, player, 1_000)
    services.settle_round(1, {bot.pk: -300, player.pk: 300})
    services.hold(2, bot, 1_000)
    services.release_round_holds(2)
    assert selectors.bots_net_result() == -300
