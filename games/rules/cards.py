"""Cards: a card is an ``int`` 0..51 equal to ``rank * 4 + suit``.

Ranks run 0 = '2' … 12 = 'A'; suits are 0 = ♠ (S), 1 = ♣ (C), 2 = ♦ (D), 3 = ♥ (H).
Plain ints keep evaluation fast and make a hand a tuple that hashes cheaply.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import NewType, Protocol

from games.rules.errors import CardError

Card = NewType("Card", int)

RANKS = "23456789TJQKA"
SUITS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"

RANK_NAMES_EN = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)  # fmt: skip
RANK_NAMES_VI = (
    "Hai",
    "Ba",
    "Bốn",
    "Năm",
    "Sáu",
    "Bảy",
    "Tám",
    "Chín",
    "Mười",
    "J",
    "Q",
    "K",
    "Át",
)
SUIT_NAMES_EN = ("spades", "clubs", "diamonds", "hearts")
SUIT_NAMES_VI = ("bích", "chuồn", "rô", "cơ")

_SUIT_BY_CHAR = {
    **{c: i for i, c in enumerate(SUITS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
}
_RANK_BY_TEXT = {**{c: i for i, c in enumerate(RANKS)}, "10": RANKS.index("T")}


class ShuffleRng(Protocol):
    """What ``shuffled_deck`` needs from a random source (``random.Random`` qualifies)."""

    def shuffle(self, x: MutableSequence[Card], /) -> None: ...

    def randrange(self, start: int, stop: int | None = ..., step: int = ..., /) -> int: ...


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = '2' … 12 = 'A') and ``suit`` (0 = ♠ … 3 = ♥)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"no card with rank {rank} and suit {suit}", "card_unknown")
    return Card(rank * 4 + suit)


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def is_red(card: Card) -> bool:
    """Diamonds and hearts are red; spades and clubs are black."""
    return card & 3 >= 2


def parse_card(text: str) -> Card:
    """Parse ``"AS"``, ``"td"``, ``"10D"`` or ``"A♠"`` into a card."""
    if not isinstance(text, str):
        raise CardError(f"a card must be a string like 'AS', got {text!r}", "card_unknown")
    token = text.strip().upper()
    rank = _RANK_BY_TEXT.get(token[:-1])
    suit = _SUIT_BY_CHAR.get(token[-1:])
    if rank is None or suit is None:
        raise CardError(
            f"unknown card {text!r} (expected rank 2-9,T,J,Q,K,A + suit S,C,D,H)",
            "card_unknown",
        )
    return Card(rank * 4 + suit)


def parse_cards(texts: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards from an iterable of strings or one whitespace/comma separated string."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return tuple(parse_card(t) for t in texts)


def format_card(card: Card, unicode: bool = False) -> str:
    """``"AS"`` (or ``"A♠"`` with ``unicode=True``)."""
    _check(card)
    suits = SUIT_SYMBOLS if unicode else SUITS
    return RANKS[card >> 2] + suits[card & 3]


def format_cards(cards: Iterable[Card], unicode: bool = False) -> list[str]:
    return [format_card(c, unicode) for c in cards]


def card_name_en(card: Card) -> str:
    """Accessible English name, e.g. ``"Ace of spades"``."""
    _check(card)
    return f"{RANK_NAMES_EN[card >> 2]} of {SUIT_NAMES_EN[card & 3]}"


def card_name_vi(card: Card) -> str:
    """Accessible Vietnamese name, e.g. ``"Át bích"``."""
    _check(card)
    return f"{RANK_NAMES_VI[card >> 2]} {SUIT_NAMES_VI[card & 3]}"


def full_deck() -> list[Card]:
    """The 52 cards in order 2♠ 2♣ 2♦ 2♥ 3♠ … A♥."""
    return [Card(i) for i in range(52)]


def shuffled_deck(rng: ShuffleRng) -> list[Card]:
    """A fresh deck shuffled by ``rng`` (pass ``random.SystemRandom()`` for real rounds)."""
    deck = full_deck()
    rng.shuffle(deck)
    return deck


def _check(card: int) -> None:
    if not (isinstance(card, int) and 0 <= card < 52):
        raise CardError(f"{card!r} is not a card number 0..51", "card_unknown")
