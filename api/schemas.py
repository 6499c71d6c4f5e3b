"""The shapes the API answers with (pydantic, through django-ninja): the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from ninja import Schema


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
    id: int
    table: int
    state: str
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


class CreatedTable(Schema):
    table: TableRow
    seated: bool


class SitRequest(Schema):
    position: int | None = None


class SitAnswer(Schema):
    table: int
    position: int


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


class RoundFull(Schema):
    """A round as you may see it: the socket's round view (yours cards only until the
    showdown), and once it is over every hand, result, posting and seed."""

    id: int
    table: int
    number: int
    state: str
    preset: str
    stake: int
    stakes_in: str
    finished: bool
    view: dict[str, Any]
    players: list[dict[str, Any]]
    pairs: list[dict[str, Any]]
    postings: list[dict[str, Any]]
    transfers: list[dict[str, Any]]
    seeds: dict[str, Any]


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
