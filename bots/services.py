"""Bots: create them, seat them, play their turn, keep them funded, stand them up.

Bots change tables and rounds only through ``games.services`` (the write path people use,
with the same locks, checks and events) and move xu only through ``ledger.services``.
``bots.tasks`` call these with ids and the state they expect; a stale call does nothing.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from bots import selectors
from bots.models import Bot, BotOnlyTable, Difficulty
from bots.selectors import BotHand
from games import services as games
from games.errors import GameError, NotFound, SeatError
from games.models import Preset, RoundPlayer, Seat, Table
from games.rules import Rules, format_cards, parse_cards
from games.rules.arrange import suggest
from games.rules.presets import hold_amount
from games.selectors import active_round, held_seats
from ledger import selectors as ledger_selectors
from ledger import services as ledger
from ledger.formats import Xu

logger = logging.getLogger(__name__)

BOT_NAMES = (
    "Lan", "Hùng", "Mai", "Tuấn", "Hạnh", "Phúc", "Thảo", "Quang", "Ngọc", "Khoa",
    "Trang", "Minh", "Yến", "Đức", "Hương", "Sơn", "Linh", "Nam", "Vy", "Bảo",
)  # fmt: skip
"""Bots are shown with a Vietnamese name and a bot badge (``seat_view``'s ``is_bot``)."""
BANKROLL_XU = 100_000
"""What a bot is topped up to, at least, when it cannot cover a round's hold."""
THINK_SECONDS = (2.0, 8.0)
"""A bot arranges after a random delay in this range, at most a quarter of the arrange time
(override with the setting ``BOTS_THINK_SECONDS``)."""
QUICK_PLAY_STAKES = (10, 5, 2, 1)
"""Quick play opens a table at the largest of these stakes the player can afford."""
QUICK_PLAY_RULES = {"start_seconds": 5}
MAKE_ROOM_SECONDS = 30
"""After a person asks for a bot's seat, bots do not take free seats at that table for this long."""


def _make_room_key(table_id: int) -> str:
    return f"bots:make_room:{table_id}"


# --- Bot accounts ---------------------------------------------------------------------


@transaction.atomic
def create_bot(difficulty: str | None = None, *, rng: random.Random | None = None) -> Bot:
    """A new bot account: no usable password (and ``is_bot`` refuses log-in), a flagged wallet."""
    rng = rng or random.Random()
    if difficulty is None:
        difficulty = rng.choice([Difficulty.EASY, Difficulty.NORMAL, Difficulty.NORMAL])
    if difficulty not in Difficulty.values:
        raise ValueError(f"unknown bot difficulty {difficulty!r}")
    name = BOT_NAMES[Bot.objects.count() % len(BOT_NAMES)]
    user = User(username=f"bot-{secrets.token_hex(5)}", display_name=name, is_bot=True)
    user.set_unusable_password()
    user.save()
    bot = Bot.objects.create(user=user, difficulty=difficulty)
    ledger.flag_bot(user)
    return bot


def needed_balance(table: Table) -> int:
    """Enough to sit and to hold a full round's worst loss at a full table."""
    full_hold = hold_amount(table.rules, table.stake, 10**15, table.seats)
    return max(table.min_balance, full_hold)


def fund(bot: Bot, needed: int) -> int:
    """Top the bot up from issuance (a ``bot_topup`` transfer) if it holds less than ``needed``.

    Returns the amount minted (0 when the bot had enough).
    """
    with transaction.atomic():
        # The profile row lock stops two tasks minting twice for the same shortfall.
        locked = Bot.objects.select_for_update().select_related("user").get(pk=bot.pk)
        balance = ledger_selectors.balance(locked.user)
        if balance >= needed:
            return 0
        amount = max(BANKROLL_XU, 2 * needed) - balance
        locked.topups += 1
        ledger.top_up_bot(locked.user, amount, key=f"bot_topup:{locked.user_id}:{locked.topups}")
        locked.save(update_fields=["topups"])
        logger.info("topped up bot %s by %s xu", locked.user_id, amount)
        return amount


# --- Seating --------------------------------------------------------------------------


@transaction.atomic
def fill_table(table_id: int, expected_seated: Sequence[int]) -> list[Seat]:
    """Seat bots in every free seat, if the table is as it was when this was scheduled.

    ``expected_seated`` is who sat there then: a person arriving or leaving since makes
    this call stale (that change scheduled its own), so bots join only after people have
    waited the table's ``bot_wait_seconds`` with nothing happening. Never during a round.
    """
    # The table row is its command stream's lock (games.services); holding it across the
    # sits below keeps a person from taking a seat between the checks and the bots' arrival.
    table = _lock_table(table_id)
    if table is None or not table.is_open or not table.allow_bots:
        return []
    if selectors.seated_user_ids(table) != sorted(expected_seated):
        return []
    if active_round(table) is not None:
        return []
    if not selectors.seated_people(table).exists() and not selectors.is_bot_only(table):
        return []
    if cache.get(_make_room_key(table.pk)):
        return []  # a person is waiting for a bot's seat here
    needed = needed_balance(table)
    seated: list[Seat] = []
    # Seats the host holds for invited friends stay free (games.models.SeatHold).
    while table.seat_set.count() + held_seats(table) < table.seats:
        # skip_locked: a fill at another table is seating those bots right now.
        bot = selectors.free_bots().select_for_update(skip_locked=True, of=("self",)).first()
        if bot is None:
            bot = create_bot()
        fund(bot, needed)
        try:
            seated.append(games.sit(bot.user, table.pk))
        except SeatError:
            logger.warning("bot %s could not sit at table %s", bot.user_id, table.pk)
            break
    return seated


def _lock_table(table_id: int) -> Table | None:
    """The table's command-stream lock, as every games service takes it (FOR NO KEY
    UPDATE: a socket's presence row that refers to the table is not made to wait)."""
    try:
        return games.lock_table(table_id)
    except NotFound:
        return None


@transaction.atomic
def tidy_table(table_id: int) -> list[int]:
    """Between rounds: bots leave a table people have left (unless it is bot-only) and one
    bot gives its seat to a person who asked for it; the bots that stay are funded for the
    next deal. Does nothing while a round is played: bots never leave mid-round.

    Returns the ids of the bots that stood up.
    """
    table = _lock_table(table_id)
    # A tournament's bots are its entrants: they stay until it stands them up.
    if table is None or table.is_managed or active_round(table) is not None:
        return []
    bots = list(selectors.seated_bots(table).order_by("position"))
    if not bots:
        return []
    leaving: list[Seat] = []
    if not selectors.seated_people(table).exists() and not selectors.is_bot_only(table):
        leaving = bots
    elif cache.get(_make_room_key(table.pk)) and table.seat_set.count() >= table.seats:
        leaving = [bots[-1]]
    for seat in leaving:
        games.stand(seat.user)
    needed = needed_balance(table)
    for seat in bots:
        profile = getattr(seat.user, "bot_profile", None)  # None: flagged by hand, not ours
        if seat not in leaving and profile is not None:
            fund(profile, needed)
    return [seat.user_id for seat in leaving]


def note_seat_wanted(table_id: int) -> None:
    """A person was refused a seat bots hold mid-round: a bot gives it up when it ends."""
    cache.set(_make_room_key(table_id), True, MAKE_ROOM_SECONDS)


# --- Playing --------------------------------------------------------------------------


def think_seconds(rules: Rules, rng: random.Random | None = None) -> float:
    """A human-like pause before a bot submits, well inside the arranging time."""
    rng = rng or random.Random()
    low, high = getattr(settings, "BOTS_THINK_SECONDS", THINK_SECONDS)
    high = min(float(high), rules.arrange_seconds / 4)
    return rng.uniform(min(float(low), high), high)


def choose_arrangement(hand: BotHand, rng: random.Random | None = None) -> list[list[str]]:
    """Auto-arrange the bot's own cards: the best suggestion, or a random one when easy."""
    rng = rng or random.Random()
    cards = parse_cards(hand.cards)
    opponents = max(1, hand.opponents)
    if hand.difficulty == Difficulty.EASY:
        chosen = rng.choice(suggest(cards, hand.rules, n=3, opponents=opponents))
    else:
        # The best alone: no alternatives to search for (a quarter less work).
        chosen = suggest(cards, hand.rules, n=0, opponents=opponents)[0]
    return [format_cards(part) for part in chosen.chi]


def play_turn(
    round_id: int, bot_user_id: int, expected_phase: int, rng: random.Random | None = None
) -> RoundPlayer | None:
    """Arrange and submit one bot's hand, through the service a websocket submission uses.

    Reads only the bot's own hand (``bots.selectors.bot_hand``); stale (the round moved on,
    or the bot already submitted) does nothing, so a duplicate or late task is harmless.
    """
    hand = selectors.bot_hand(round_id, bot_user_id, expected_phase)
    if hand is None:
        return None
    chi = choose_arrangement(hand, rng)  # outside any lock: the table is not held while thinking
    user = User.objects.get(pk=bot_user_id, is_bot=True)
    try:
        return games.submit_arrangement(user, round_id, chi, seen_version=hand.dealt_version)
    except GameError as exc:
        logger.info("bot %s did not submit in round %s: %s", bot_user_id, round_id, exc.code)
        return None


LATE_TURN_GRACE = timedelta(seconds=5)
"""A bot that has not submitted this long after its longest pause lost its turn task."""


def catch_up_turns(now: datetime | None = None) -> int:
    """Play the turns of bots whose task was lost (a dead worker, a dropped message).

    The same guarded ``play_turn``: a turn played meanwhile makes this a no-op.
    """
    now = now or timezone.now()
    _low, high = getattr(settings, "BOTS_THINK_SECONDS", THINK_SECONDS)
    late = selectors.late_bot_turns(now - timedelta(seconds=float(high)) - LATE_TURN_GRACE)
    played = 0
    for round_id, bot_user_id, phase in late:
        try:
            played += play_turn(round_id, bot_user_id, phase) is not None
        except Exception:
            logger.exception("could not catch up bot %s in round %s", bot_user_id, round_id)
    if played:
        logger.info("caught up %d bot turns whose task was lost", played)
    return played


# --- Tables for people and for bots ---------------------------------------------------


def quick_play(user: User) -> Table:
    """Sit ``user`` at a new bot table they can afford (stake from ``QUICK_PLAY_STAKES``),
    dealt at once: quick play means cards within seconds of the click, and joining another
    table would wait out its round or restart its countdown (docs/rules.md, "When a round
    starts"); **Vào nhanh** (quick join) is the way to the people. Already seated: that
    table. Raises ``SeatError`` with a message the player can act on."""
    current = Seat.objects.filter(user=user).select_related("table").first()
    if current is not None:
        return current.table
    balance = ledger_selectors.balance(user)
    stake = next((s for s in QUICK_PLAY_STAKES if s * games.MIN_BALANCE_STAKES <= balance), None)
    if stake is None:
        raise SeatError(
            _("You need at least %(minimum)s xu to play; you have %(balance)s xu."),
            code="balance_too_low",
            minimum=Xu(QUICK_PLAY_STAKES[-1] * games.MIN_BALANCE_STAKES),
            balance=Xu(balance),
        )
    with transaction.atomic():
        table = games.create_table(
            user,
            name=_("Quick play with %(name)s") % {"name": user.shown_name},
            stake=stake,
            rules_overrides=dict(QUICK_PLAY_RULES),
            allow_bots=True,
        )
        games.sit(user, table.pk)
    deal_at_once(table.pk, user)
    return table


def deal_at_once(table_id: int, user: User) -> bool:
    """A quick-play table waits for nobody (docs/rules.md, "When a round starts"): its
    bots take every free seat and the cards are dealt now, not after the bots' wait and
    the start countdown. Returns whether it dealt; if not (no bot could sit), the table
    goes on the usual way (its bots' wait, then the visible countdown)."""
    try:
        with transaction.atomic():  # a savepoint: bots seated without a deal stay unseated
            if len(fill_table(table_id, [user.pk])) == 0:
                return False
            games.start_round(user, table_id)
    except GameError as exc:
        logger.warning("quick play table %s not dealt at once: %s", table_id, exc.code)
        return False
    return True


@transaction.atomic
def open_bot_only_table(
    name: str, *, stake: int, seats: int = 4, rules_overrides: dict[str, object] | None = None
) -> Table:
    """A table bots play at with nobody watching, hosted by a bot (load tests, demos)."""
    host = create_bot()
    table = games.create_table(
        host.user,
        name=name,
        preset=Preset.PORTAL,
        stake=stake,
        seats=seats,
        rules_overrides=rules_overrides or {},
        allow_bots=True,
    )
    BotOnlyTable.objects.create(table=table)
    return table


@transaction.atomic
def stop_bot_only_tables() -> int:
    """Let bots at bot-only tables leave after their current round; close those tables."""
    tables = list(Table.objects.filter(bot_only__isnull=False))
    BotOnlyTable.objects.filter(table__in=tables).delete()
    for table in tables:
        Table.objects.filter(pk=table.pk).update(is_open=False)
    return len(tables)
