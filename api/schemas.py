"""The shapes the API answers with (pydantic, through django-ninja): the OpenAPI schema."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import ConfigDict, Field


class ErrorBody(Schema):
    code: str
    message: str


class Error(Schema):
    error: ErrorBody


class Account(Schema):
    id: int
    username: str
    name: str
    language: str
    balance: int
    scopes: list[str]


class Seat(Schema):
    table: int
    position: int


class CurrentRound(Schema):
    """The round you are dealt in now, at ``table``; ``version`` the table's version."""

    id: int
    table: int
    state: Literal["arranging", "showdown"]
    deadline: str | None
    version: int
    submitted: bool


class Me(Account):
    is_bot: bool
    seat: Seat | None
    round: CurrentRound | None
    rounds_today: int
    rounds_per_day: int | None


class TableRow(Schema):
    id: int
    name: str
    preset: str
    stake: int
    seats: int
    taken: int
    free: int
    state: str
    min_balance: int
    allow_bots: bool
    host: str
    host_id: int
    version: int
    open: bool
    duplicate: bool


class TablePage(Schema):
    tables: list[TableRow]
    page: int
    pages: int
    total: int


class NewTable(Schema):
    """The lobby's create form as JSON: a rule left out keeps the preset's value."""

    name: str
    preset: str = "portal"
    stake: int = 100
    seats: int = 4
    is_private: bool = False
    sit_down: bool = True
    allow_bots: bool = False
    bot_wait_seconds: int | None = None
    on_timeout: str | None = None
    duplicate_schedule: int | None = None
    start_seconds: int | None = None
    arrange_seconds: int | None = None
    reveal_seconds: int | None = None
    scoop_one: int | None = None
    scoop_all: int | None = None
    scoop_all_min: int | None = None
    bonus_trips_chi3: int | None = None
    bonus_full_house_chi2: int | None = None
    bonus_quads_chi1: int | None = None
    bonus_quads_chi2: int | None = None
    bonus_straight_flush_chi1: int | None = None
    bonus_straight_flush_chi2: int | None = None


class Seating(Schema):
    """Where you sit after ``table_sit`` or ``tables_create``: ``table`` is the table's id,
    as everywhere in the API; ``position`` your seat (null when not seated)."""

    table: int
    seated: bool
    position: int | None


class CreatedTable(Seating):
    """A new table: ``Seating`` and the table as ``tables_list`` lists it (``row``)."""

    row: TableRow


class SitRequest(Schema):
    """Optional: leave the body out (or send ``{}``) to take the first free seat."""

    position: int | None = None


class LeaveAnswer(Schema):
    table: int
    left: bool


class Submission(Schema):
    """An arrangement (``draft: false``) or a layout in progress (``draft: true``): three
    chi of 5, 5 and 3 cards (``"AS"``, ``"TD"``), as the socket's ``submit`` / ``draft``."""

    chi: list[list[str]]
    version: int | None = None
    ref: str | int | None = None
    draft: bool = False


class SubmitAnswer(Schema):
    round: int
    draft: bool
    ref: str | int | None
    foul: bool


RoundStateName = Literal["arranging", "showdown", "settled", "cancelled"]


class RoundPlayerRow(Schema):
    """One player of a round. ``cards`` to ``xu`` are yours from the deal, everyone's once
    the round is finished (not a duplicate board still withheld); null until then."""

    position: int
    user: int
    name: str
    is_bot: bool
    status: Literal["playing", "left"]
    cards: list[str] | None = None
    arrangement: list[list[str]] | None = None
    auto_arranged: Literal["draft", "engine"] | None = None
    left_after_chi: int | None = None
    units: int | None = None
    xu: int | None = None


class ChiDetail(Schema):
    """One chi between a pair: the winner's position (null: a tie or both out), the units
    signed from ``a``'s side, the bonus's name and why."""

    winner: str | None
    units: int
    bonus: str | None
    reason: Literal["compare", "tie", "foul", "forfeit", "both_out"]


class PairScoop(Schema):
    loser: str
    kind: Literal["one", "all"]
    x: int


class PairInstant(Schema):
    kind: str | None
    winner: str | None


class PairResult(Schema):
    """The settlement between the players at positions ``a`` and ``b`` (strings); amounts
    signed from ``a``'s side: ``chi`` the units of each chi, ``xu`` after the cap."""

    a: str
    b: str
    kind: Literal["chi", "instant"]
    chi: list[int] | None = None
    chi_detail: list[ChiDetail] | None = None
    scoop: PairScoop | None = None
    instant: PairInstant | None = None
    units: int
    xu: int
    capped: bool = False


class Posting(Schema):
    """A ledger posting of yours in this round: ``delta`` xu, your balance after it."""

    transfer: int
    kind: str
    delta: int
    balance_after: int


class RoundTransfer(Schema):
    """A ledger transfer of the round, between two accounts (``from``, ``to``: their keys)."""

    id: int
    kind: str
    amount: int
    from_: str = Field(alias="from")
    to: str
    idempotency_key: str

    model_config = ConfigDict(populate_by_name=True)


class Seeds(Schema):
    """The deal's seeds: the commitment (SHA-256 of the server seed, sent at the deal), the
    players' client seeds in seat order, the server seed once revealed (else empty)."""

    commitment: str
    client_seeds: list[str]
    server_seed: str
    algorithm: str


class RoundFull(Schema):
    """A round as you may see it: the socket's round view (your cards only until the
    showdown), and once it is over every hand, result, posting and seed. ``finished`` is
    true once ``state`` is ``settled`` or ``cancelled`` (nothing about it changes again)."""

    id: int
    table: int
    number: int
    state: RoundStateName
    preset: str
    stake: int
    stakes_in: str
    finished: bool
    view: dict[str, Any]
    players: list[RoundPlayerRow]
    pairs: list[PairResult]
    postings: list[Posting]
    transfers: list[RoundTransfer]
    seeds: Seeds


class TournamentRow(Schema):
    id: int
    name: str
    kind: str
    state: str
    buy_in: int
    players: int
    registered: int
    allow_bots: bool
    preset: str
    starts_at: str | None
    you: str | None


class TournamentList(Schema):
    tournaments: list[TournamentRow]


class EntryAnswer(Schema):
    tournament: int
    state: str


class DailyHand(Schema):
    day: str
    preset: str
    cards: list[str]
    commitment: str
    played: dict[str, Any] | None


class DailySubmission(Schema):
    chi: list[list[str]]


class BotAccount(Schema):
    id: int
    username: str
    is_bot: bool
