"""Provably fair deals: the deck is a deterministic function of public and committed seeds.

Before the deal the server publishes ``commitment(server_seed)`` (SHA-256 of the seed's
bytes). Each seated player contributes a client seed. The deck is shuffled by
Fisher-Yates driven by HMAC-SHA256(server_seed, message) where the message is the client
seeds joined in seat order and a block counter: a keyed CSPRNG stream that nobody can
predict without the server seed and the server cannot steer once committed, because the
players' seeds arrive after the commitment. After the round the server seed is revealed
and anyone can recompute the deal with ``deck_from_seeds``.

Algorithm (stable: changing it would break verification of stored rounds):
1. ``key = bytes.fromhex(server_seed)``; ``base = "\\n".join(client_seeds).encode()``.
2. Block ``i`` of the stream is ``HMAC-SHA256(key, base + b"\\x00" + i.to_bytes(8, "big"))``;
   the stream is blocks 0, 1, 2, … concatenated, read 4 bytes at a time as big-endian
   unsigned integers ``u``.
3. Start from the ordered deck 0..51 (``rank * 4 + suit``). For ``i`` from 51 down to 1:
   draw ``u`` until ``u < 2**32 - (2**32 % (i + 1))`` (rejection removes modulo bias),
   ``j = u % (i + 1)``, swap positions ``i`` and ``j``.
4. Player in seat order ``k`` (0-based) is dealt ``deck[13k : 13k + 13]``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

from games.rules.cards import Card, full_deck
from games.rules.errors import RulesError

SEED_HEX_LENGTH = 64  # a 32-byte server seed, hex-encoded
_LIMIT = 2**32


class FairnessError(RulesError):
    """A seed is malformed or a stored deal does not match its seeds."""


def commitment(server_seed: str) -> str:
    """The SHA-256 hex digest published before the deal."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def deck_from_seeds(server_seed: str, client_seeds: Sequence[str]) -> list[Card]:
    """The shuffled 52-card deck determined by the server seed and the client seeds."""
    words = _words(_seed_bytes(server_seed), "\n".join(client_seeds).encode())
    deck = full_deck()
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = _LIMIT - (_LIMIT % bound)
        u = next(words)
        while u >= limit:
            u = next(words)
        j = u % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_from_seeds(
    server_seed: str, client_seeds: Sequence[str], n_players: int
) -> list[tuple[Card, ...]]:
    """The 13-card hands of ``n_players`` players in seat order."""
    if not 2 <= n_players <= 4:
        raise FairnessError(f"a deal is for 2 to 4 players, got {n_players}", "players_count")
    deck = deck_from_seeds(server_seed, client_seeds)
    return [tuple(deck[13 * k : 13 * k + 13]) for k in range(n_players)]


def verify_deal(
    server_seed: str,
    published_commitment: str,
    client_seeds: Sequence[str],
    hands: Sequence[Sequence[Card]],
) -> None:
    """Raise ``FairnessError`` unless the seed matches its commitment and produced ``hands``."""
    if not hmac.compare_digest(commitment(server_seed), published_commitment.lower()):
        raise FairnessError("the server seed does not match the published hash", "commitment")
    expected = deal_from_seeds(server_seed, client_seeds, len(hands))
    for seat, (dealt, stored) in enumerate(zip(expected, hands, strict=True)):
        if tuple(stored) != dealt:
            raise FairnessError(
                f"the cards of seat {seat + 1} differ from the deal the seeds produce",
                "deal_mismatch",
            )


def _seed_bytes(server_seed: str) -> bytes:
    if len(server_seed) != SEED_HEX_LENGTH:
        raise FairnessError(
            f"a server seed is {SEED_HEX_LENGTH} hex digits, got {len(server_seed)}", "seed"
        )
    try:
        return bytes.fromhex(server_seed)
    except ValueError:
        raise FairnessError("a server seed must be hexadecimal", "seed") from None


def _words(key: bytes, base: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(key, base + b"\x00" + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for offset in range(0, len(block), 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        counter += 1
