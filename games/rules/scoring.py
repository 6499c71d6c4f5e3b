"""Settlement of a showdown (docs/rules.md#showdown, #payment, #timing).

Every pair of players is settled on its own: instant wins first, otherwise chi by chi with
bonuses, then scoops (sập 3 chi / sập làng) multiply what a scooped player pays. Units are
converted to xu at the stake and each payment is capped at the payer's per-opponent cap
(the escrow hold of section 7). Payments are pairwise, so the result is zero-sum in units
and in xu whatever the caps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from games.rules.cards import Card, format_cards, parse_card
from games.rules.errors import ArrangementError, CardError, RoundInputError, RulesError
from games.rules.hands import Category, category_of, eval3, evaluator5
from games.rules.instant import InstantWin, find_instant
from games.rules.presets import Rules

Arrangement = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
CHI_SIZES = (5, 5, 3)


class Status(str, Enum):
    """Where a player stood when the round was settled."""

    ARRANGED = "arranged"
    """Submitted an arrangement in time."""
    UNARRANGED = "unarranged"
    """Submitted nothing in time: binh lủng, but arrangement-free instant wins still hold."""
    LEFT = "left"
    """Left the table after the deal; see ``left_after_chi``."""


# Bonus key of a chi won with a hand of a category, by chi index (section 5 step 2);
# auto-arrange prices chi with this same table.
BONUS_BY_CHI: tuple[dict[Category, str], ...] = (
    {
        Category.FOUR_OF_A_KIND: "quads_chi1",
        Category.FOUR_ACES: "quads_chi1",
        Category.STRAIGHT_FLUSH: "straight_flush_chi1",
    },
    {
        Category.FULL_HOUSE: "full_house_chi2",
        Category.FOUR_OF_A_KIND: "quads_chi2",
        Category.FOUR_ACES: "quads_chi2",
        Category.STRAIGHT_FLUSH: "straight_flush_chi2",
    },
    {Category.THREE_OF_A_KIND: "trips_chi3"},
)


def validate_arrangement(
    dealt: Iterable[Card | str], chi: Sequence[Sequence[Card | str]]
) -> Arrangement:
    """Check that ``chi`` splits exactly the ``dealt`` 13 cards 5 + 5 + 3; return it as cards.

    Raises ``ArrangementError`` with code ``chi_count``, ``chi_size``, ``card_unknown``,
    ``card_duplicate`` or ``card_not_dealt`` (a forged card); ``cards_count`` if ``dealt``
    itself is not 13 different cards. A foul arrangement is legal (it loses).
    """
    if not isinstance(chi, Sequence) or isinstance(chi, str) or len(chi) != 3:
        raise ArrangementError("an arrangement has exactly 3 chi (5, 5 and 3 cards)", "chi_count")
    parts: list[tuple[Card, ...]] = []
    for index, (part, size) in enumerate(zip(chi, CHI_SIZES, strict=True)):
        if not isinstance(part, Sequence) or isinstance(part, str) or len(part) != size:
            count = len(part) if isinstance(part, Sequence) else "no"
            raise ArrangementError(
                f"chi {index + 1} must have {size} cards, got {count}", "chi_size"
            )
        parts.append(tuple(_card(c, ArrangementError) for c in part))
    hand = [_card(c, ArrangementError) for c in dealt]
    used = [c for part in parts for c in part]
    if len(set(used)) != 13:
        twice = sorted({c for c in used if used.count(c) > 1})
        raise ArrangementError(
            f"card {' '.join(format_cards(twice))} appears twice in the arrangement",
            "card_duplicate",
        )
    if len(set(hand)) != 13:
        raise ArrangementError("the dealt hand must be 13 different cards", "cards_count")
    forged = sorted(set(used) - set(hand))
    if forged:
        names = " ".join(format_cards(forged))
        raise ArrangementError(f"cards that were not dealt: {names}", "card_not_dealt")
    return parts[0], parts[1], parts[2]


def _card(value: Card | str | int, error: type[RulesError]) -> Card:
    if isinstance(value, str):
        try:
            return parse_card(value)
        except CardError as exc:
            raise error(str(exc), "card_unknown") from exc
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 52:
        raise error(f"{value!r} is not a card", "card_unknown")
    return Card(value)


@dataclass(frozen=True)
class PlayerInput:
    """One player's part of a round, as the server (or the CLI) knows it at settlement."""

    id: str
    cards: tuple[Card, ...]
    """The 13 dealt cards."""
    chi: Arrangement | None = None
    """The submitted arrangement, or None if there is none."""
    status: Status = Status.ARRANGED
    left_after_chi: int = 0
    """For ``LEFT``: 0 = before the showdown, 1 or 2 = after that chi was revealed."""
    cap: int | None = None
    """The most xu this player can pay any one opponent (escrow); None = uncapped."""

    @classmethod
    def make(
        cls,
        id: str,
        cards: Iterable[Card | str] | None = None,
        chi: Sequence[Sequence[Card | str]] | None = None,
        status: Status | str = Status.ARRANGED,
        left_after_chi: int | None = None,
        cap: int | None = None,
    ) -> PlayerInput:
        """Build and validate a player (cards as ints or strings; raises ``RoundInputError``)."""
        if not isinstance(id, str) or not id:
            raise RoundInputError(
                f"a player id must be a non-empty string, got {id!r}", "player_id"
            )
        try:
            state = Status(status)
        except ValueError:
            raise RoundInputError(
                f"player {id!r}: unknown status {status!r} (arranged, unarranged, left)", "status"
            ) from None
        hand: tuple[Card, ...] | None = None
        if cards is not None:
            if isinstance(cards, str) or not isinstance(cards, Iterable):
                raise RoundInputError(f"player {id!r}: cards must be a list", "cards_count")
            hand = tuple(_card(c, RoundInputError) for c in cards)
            if len(hand) != 13:
                raise RoundInputError(
                    f"player {id!r} must hold 13 cards, got {len(hand)}", "cards_count"
                )
            if len(set(hand)) != 13:
                twice = " ".join(format_cards(sorted({c for c in hand if hand.count(c) > 1})))
                raise RoundInputError(f"player {id!r} holds {twice} twice", "card_duplicate")
        arrangement: Arrangement | None = None
        if chi is not None:
            try:
                arrangement = validate_arrangement(hand if hand is not None else _flat(chi), chi)
            except ArrangementError as exc:
                code = "chi_not_permutation" if exc.code == "card_not_dealt" else exc.code
                raise RoundInputError(f"player {id!r}: {exc}", code) from exc
            if hand is None:
                hand = tuple(c for part in arrangement for c in part)
        if hand is None:
            raise RoundInputError(f"player {id!r} needs 'cards' or 'chi'", "cards_count")
        if state is Status.ARRANGED and arrangement is None:
            raise RoundInputError(
                f"player {id!r} is 'arranged' but has no chi (use status 'unarranged')",
                "chi_missing",
            )
        if state is Status.UNARRANGED and arrangement is not None:
            raise RoundInputError(f"player {id!r} is 'unarranged' but has chi", "chi_unexpected")
        if left_after_chi is not None and state is not Status.LEFT:
            raise RoundInputError(
                f"player {id!r}: left_after_chi is only for status 'left'", "left_after_chi"
            )
        after = 0 if left_after_chi is None else left_after_chi
        if isinstance(after, bool) or after not in (0, 1, 2):
            raise RoundInputError(
                f"player {id!r}: left_after_chi must be 0, 1 or 2, got {left_after_chi!r}",
                "left_after_chi",
            )
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
            raise RoundInputError(
                f"player {id!r}: cap must be a whole number of xu >= 0, got {cap!r}", "cap"
            )
        return cls(id, hand, arrangement, state, after, cap)

    @property
    def left_before_showdown(self) -> bool:
        return self.status is Status.LEFT and self.left_after_chi == 0

    def forfeits(self, chi_index: int) -> bool:
        """True if this player left before chi ``chi_index`` (0-based) was revealed."""
        return self.status is Status.LEFT and chi_index >= self.left_after_chi


def _flat(chi: Sequence[Sequence[Card | str]]) -> list[Card | str]:
    return [c for part in chi if isinstance(part, Sequence) for c in part]


@dataclass(frozen=True)
class Hand:
    """One revealed chi: its cards, value on the hand scale and category."""

    cards: tuple[Card, ...]
    value: int

    @property
    def category(self) -> Category:
        return category_of(self.value)

    def to_json(self) -> dict[str, Any]:
        category = self.category
        return {
            "category": category.key,
            "name_vi": category.name_vi,
            "name_en": category.name_en,
            "cards": format_cards(self.cards),
        }


@dataclass(frozen=True)
class ChiResult:
    """One chi between a pair: who took it, for how much (signed from ``a``) and why."""

    winner: str | None
    units: int
    bonus: str | None
    reason: str
    """``compare``, ``tie``, ``foul``, ``forfeit`` or ``both_out`` (both foul or forfeiting)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "units": self.units,
            "bonus": self.bonus,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Scoop:
    loser: str
    kind: str
    """``one`` (sập 3 chi) or ``all`` (sập làng)."""
    x: int

    def to_json(self) -> dict[str, Any]:
        return {"loser": self.loser, "kind": self.kind, "x": self.x}


@dataclass(frozen=True)
class PairResult:
    """The settlement between players ``a`` and ``b``; amounts are signed from ``a``'s side."""

    a: str
    b: str
    kind: str
    """``instant`` or ``chi``."""
    units: int
    xu: int
    """``units × stake``, capped at the payer's cap."""
    chi: tuple[ChiResult, ChiResult, ChiResult] | None = None
    scoop: Scoop | None = None
    instant_kind: str | None = None
    instant_winner: str | None = None
    capped: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "kind": self.kind,
            "chi": None if self.chi is None else [c.units for c in self.chi],
            "scoop": None if self.scoop is None else self.scoop.to_json(),
            "units": self.units,
            "xu": self.xu,
            "capped": self.capped,
        }
        if self.chi is not None:
            data["chi_detail"] = [c.to_json() for c in self.chi]
        if self.kind == "instant":
            data["instant"] = {"kind": self.instant_kind, "winner": self.instant_winner}
        return data


@dataclass(frozen=True)
class PlayerResult:
    id: str
    status: Status
    foul: bool
    instant: InstantWin | None
    hands: tuple[Hand, Hand, Hand] | None
    units: int
    xu: int
    chi_won: int
    chi_lost: int
    scooped: str | None
    """``one``, ``all`` or None: the worst scoop this player suffered."""

    def to_json(self) -> dict[str, Any]:
        instant = self.instant
        return {
            "id": self.id,
            "status": self.status.value,
            "foul": self.foul,
            "instant": None if instant is None else instant.kind,
            "instant_name": None
            if instant is None
            else {"vi": instant.name_vi, "en": instant.name_en},
            "units": self.units,
            "xu": self.xu,
            "chi_won": self.chi_won,
            "chi_lost": self.chi_lost,
            "scooped": self.scooped,
            "hands": None if self.hands is None else [h.to_json() for h in self.hands],
        }


@dataclass(frozen=True)
class Settlement:
    """The result of a round: per player and per pair, zero-sum in units and in xu."""

    rules: Rules
    stake: int
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]
    _by_id: Mapping[str, PlayerResult] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {p.id: p for p in self.players})

    def player(self, player_id: str) -> PlayerResult:
        return self._by_id[player_id]

    def to_json(self) -> dict[str, Any]:
        """The section-10 CLI output (a JSON-ready dict) plus extra fields for screens."""
        return {
            "players": [p.to_json() for p in self.players],
            "pairs": [p.to_json() for p in self.pairs],
            "stake": self.stake,
            "rules": self.rules.to_dict(),
        }


@dataclass
class _Seat:
    """Working state of one player during settlement."""

    player: PlayerInput
    hands: tuple[Hand, Hand, Hand] | None
    foul: bool
    instant: InstantWin | None

    def out(self, chi_index: int) -> bool:
        """True if this player cannot win chi ``chi_index``: foul or forfeited."""
        return self.foul or self.player.forfeits(chi_index)


def _seat(player: PlayerInput, rules: Rules) -> _Seat:
    arranged = player.chi is not None and player.status is not Status.UNARRANGED
    hands: tuple[Hand, Hand, Hand] | None = None
    foul = True  # no arrangement = binh lủng
    if arranged and player.chi is not None:
        ev5 = evaluator5(rules)
        c1, c2, c3 = player.chi
        hands = (Hand(c1, ev5(c1)), Hand(c2, ev5(c2)), Hand(c3, eval3(c3)))
        foul = hands[1].value > hands[0].value or hands[2].value > hands[1].value
    instant = None
    if not player.left_before_showdown:
        instant = find_instant(player.cards, rules, player.chi if arranged else None)
    return _Seat(player, hands, foul, instant)


def _chi_results(rules: Rules, a: _Seat, b: _Seat) -> tuple[ChiResult, ChiResult, ChiResult]:
    results = []
    for i in range(3):
        a_out, b_out = a.out(i), b.out(i)
        if a_out and b_out:
            results.append(ChiResult(None, 0, None, "both_out"))
            continue
        if a_out or b_out:
            winner, sign = (b, -1) if a_out else (a, 1)
            loser = a if a_out else b
            reason = "foul" if loser.foul else "forfeit"
        else:
            assert a.hands is not None and b.hands is not None
            va, vb = a.hands[i].value, b.hands[i].value
            if va == vb:
                results.append(ChiResult(None, 0, None, "tie"))
                continue
            winner, sign, reason = (a, 1, "compare") if va > vb else (b, -1, "compare")
        assert winner.hands is not None
        bonus = BONUS_BY_CHI[i].get(winner.hands[i].category)
        amount = rules.bonus[bonus] if bonus is not None else 1
        results.append(ChiResult(winner.player.id, sign * amount, bonus, reason))
    return results[0], results[1], results[2]


def settle(rules: Rules, stake: int, players: Sequence[PlayerInput]) -> Settlement:
    """Settle a round between 2-4 players (raises ``RoundInputError`` on a malformed round)."""
    _check_round(stake, players)
    seats = [_seat(p, rules) for p in players]
    n = len(seats)

    # Step 1 and 2: base amounts per pair, signed from a's side.
    base: dict[tuple[int, int], int] = {}
    chi_of: dict[tuple[int, int], tuple[ChiResult, ChiResult, ChiResult]] = {}
    instant_of: dict[tuple[int, int], tuple[str, str | None]] = {}
    for i in range(n):
        for j in range(i + 1, n):
            a, b = seats[i], seats[j]
            if a.instant is not None or b.instant is not None:
                base[i, j], instant_of[i, j] = _instant_pair(a, b)
            else:
                chi_of[i, j] = _chi_results(rules, a, b)
                base[i, j] = sum(c.units for c in chi_of[i, j])

    # Step 3: scoops. scooped_by[x] = the chi-opponents that took all 3 chi from x.
    chi_opponents: list[list[int]] = [[] for _ in range(n)]
    scooped_by: list[set[int]] = [set() for _ in range(n)]
    for (i, j), results in chi_of.items():
        chi_opponents[i].append(j)
        chi_opponents[j].append(i)
        ids = [r.winner for r in results]
        if all(w == seats[j].player.id for w in ids):
            scooped_by[i].add(j)
        elif all(w == seats[i].player.id for w in ids):
            scooped_by[j].add(i)
    multiplier: dict[tuple[int, int], Scoop] = {}
    scooped: list[str | None] = [None] * n
    for x in range(n):
        if not scooped_by[x] or seats[x].player.left_before_showdown:
            continue
        everyone = len(scooped_by[x]) == len(chi_opponents[x])
        if everyone and len(chi_opponents[x]) >= rules.scoop_all_min:
            kind, factor = "all", rules.scoop_all
        else:
            kind, factor = "one", rules.scoop_one
        scooped[x] = kind
        for y in scooped_by[x]:
            multiplier[min(x, y), max(x, y)] = Scoop(seats[x].player.id, kind, factor)

    # Units to xu, capped at the payer's per-opponent cap.
    pairs: list[PairResult] = []
    units = [0] * n
    xu = [0] * n
    won, lost = [0] * n, [0] * n
    for (i, j), amount in base.items():
        scoop = multiplier.get((i, j))
        if scoop is not None:
            amount *= scoop.x
        payer = seats[j] if amount > 0 else seats[i]
        money = amount * stake
        cap = payer.player.cap
        capped = cap is not None and abs(money) > cap
        if capped and cap is not None:
            money = cap if money > 0 else -cap
        units[i] += amount
        units[j] -= amount
        xu[i] += money
        xu[j] -= money
        detail = chi_of.get((i, j))
        if detail is not None:
            for r in detail:
                if r.units:
                    winner, loser = (i, j) if r.units > 0 else (j, i)
                    won[winner] += 1
                    lost[loser] += 1
            pairs.append(
                PairResult(seats[i].player.id, seats[j].player.id, "chi", amount, money,
                           chi=detail, scoop=scoop, capped=capped)
            )  # fmt: skip
        else:
            kind, winner_id = instant_of[i, j]
            pairs.append(
                PairResult(seats[i].player.id, seats[j].player.id, "instant", amount, money,
                           instant_kind=kind, instant_winner=winner_id, capped=capped)
            )  # fmt: skip
    results_by_player = tuple(
        PlayerResult(
            id=s.player.id,
            status=s.player.status,
            foul=s.foul,
            instant=s.instant,
            hands=s.hands,
            units=units[k],
            xu=xu[k],
            chi_won=won[k],
            chi_lost=lost[k],
            scooped=scooped[k],
        )
        for k, s in enumerate(seats)
    )
    return Settlement(rules, stake, results_by_player, tuple(pairs))


def _instant_pair(a: _Seat, b: _Seat) -> tuple[int, tuple[str, str | None]]:
    """Units from a's side and (the deciding kind, winner id or None for a tie)."""
    if b.instant is None:
        assert a.instant is not None
        return a.instant.payout, (a.instant.kind, a.player.id)
    if a.instant is None:
        return -b.instant.payout, (b.instant.kind, b.player.id)
    order = a.instant.compare(b.instant)
    if order > 0:
        return a.instant.payout, (a.instant.kind, a.player.id)
    if order < 0:
        return -b.instant.payout, (b.instant.kind, b.player.id)
    return 0, (a.instant.kind, None)


def _check_round(stake: int, players: Sequence[PlayerInput]) -> None:
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 1:
        raise RoundInputError(f"stake must be a whole number of xu >= 1, got {stake!r}", "stake")
    if not 2 <= len(players) <= 4:
        raise RoundInputError(f"a round has 2 to 4 players, got {len(players)}", "players_count")
    seen_ids: set[str] = set()
    holder: dict[Card, str] = {}
    for p in players:
        if p.id in seen_ids:
            raise RoundInputError(f"player id {p.id!r} appears twice", "player_id")
        seen_ids.add(p.id)
        if len(p.cards) != 13 or len(set(p.cards)) != 13:
            raise RoundInputError(f"player {p.id!r} must hold 13 distinct cards", "cards_count")
        for c in p.cards:
            if c in holder:
                raise RoundInputError(
                    f"card {format_cards([c])[0]} is held by both {holder[c]!r} and {p.id!r}",
                    "card_held_twice",
                )
            holder[c] = p.id


# --- the section-10 JSON round format

ROUND_KEYS = ("preset", "stake", "rules", "players")
PLAYER_KEYS = ("id", "cards", "chi", "status", "left_after_chi", "cap")


def _only_known_keys(data: Mapping[str, Any], known: Sequence[str], what: str) -> None:
    """Refuse the first key of a round (or player) object the format does not define."""
    unknown = [k for k in data if k not in known]
    if unknown:
        raise RoundInputError(
            f"unknown {what} key {unknown[0]!r} (known: {', '.join(known)})",
            f"{what}_key_unknown",
        )


def round_from_json(
    data: Any, default_preset: str = "portal"
) -> tuple[Rules, int, list[PlayerInput]]:
    """Read a section-10 round object; raises ``RoundInputError`` / ``RulesConfigError``.

    The round's own ``preset`` wins over ``default_preset`` (the CLI's ``--preset``).
    ``stake`` defaults to 1, so that xu equal units.
    """
    if not isinstance(data, Mapping):
        raise RoundInputError("a round must be a JSON object", "round_not_object")
    _only_known_keys(data, ROUND_KEYS, "round")
    rules = Rules.preset(data.get("preset", default_preset))
    overrides = data.get("rules", {})
    if overrides is None:
        overrides = {}
    rules = rules.with_overrides(overrides)
    stake = data.get("stake", 1)
    raw_players = data.get("players")
    if not isinstance(raw_players, list):
        raise RoundInputError("a round needs a 'players' list", "players_count")
    players = []
    for raw in raw_players:
        if not isinstance(raw, Mapping):
            raise RoundInputError("each player must be a JSON object", "player_not_object")
        _only_known_keys(raw, PLAYER_KEYS, "player")
        players.append(
            PlayerInput.make(
                raw.get("id"),  # type: ignore[arg-type]  # validated by make
                cards=raw.get("cards"),
                chi=raw.get("chi"),
                status=raw.get("status", "arranged"),
                left_after_chi=raw.get("left_after_chi"),
                cap=raw.get("cap"),
            )
        )
    _check_round(stake, players)
    return rules, stake, players


def settle_json(data: Any, default_preset: str = "portal") -> dict[str, Any]:
    """Settle one section-10 round object and return the section-10 output object."""
    rules, stake, players = round_from_json(data, default_preset)
    return settle(rules, stake, players).to_json()
