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


class HouseRules(Schema):
    """The create form's rules: a preset, a stake per chi, and the house rules (a rule
    left out keeps the preset's value)."""

    preset: str = "portal"
    stake: int = 100
    on_timeout: str | None = None
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


class NewTable(HouseRules):
    """The lobby's create form as JSON: a rule left out keeps the preset's value."""

    name: str
    seats: int = 4
    is_private: bool = False
    sit_down: bool = True
    allow_bots: bool = False
    bot_wait_seconds: int | None = None
    duplicate_schedule: int | None = None


class NewChallenge(HouseRules):
    """A challenge to one player (``username``) to a heads-up table: the create-table form's
    stake, preset and house rules (a rule left out keeps the preset's value)."""

    username: str


class ChallengeParty(Schema):
    user: int
    name: str
    is_bot: bool


class ChallengeOut(Schema):
    """A challenge as the event stream carries it (``type``: ``challenge`` while it waits,
    ``challenge_accepted`` once ``table`` is the table both sit at, ``challenge_closed``
    once declined, cancelled or expired)."""

    type: Literal["challenge", "challenge_accepted", "challenge_closed"]
    id: int
    version: int
    state: Literal["open", "accepted", "declined", "cancelled", "expired"]
    from_: ChallengeParty = Field(alias="from")
    to: ChallengeParty
    preset: str
    stake: int
    rules: dict[str, Any]
    table: int | None
    at: str
    expires_at: str

    model_config = ConfigDict(populate_by_name=True)


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


class Open(Schema):
    """A payload the socket shares (``games.selectors.payloads``): every field it has now is
    typed; one added later comes through too (``additionalProperties``), never dropped."""

    model_config = ConfigDict(extra="allow")


class ShownHand(Open):
    """A chi as the showdown shows it: its category (key and names) and its cards."""

    category: str
    name_vi: str
    name_en: str
    cards: list[str]


class ViewPlayer(Open):
    position: int
    user: int
    submitted: bool
    status: Literal["playing", "left"]
    hold: int


class ViewYou(Open):
    """Your own hand: the cards dealt, your arrangement (once submitted), your ``draft``
    while arranging (the last complete layout you sent), whether it was played for you."""

    position: int
    cards: list[str]
    arrangement: list[list[str]] | None
    draft: list[list[str]] | None
    auto_arranged: Literal["draft", "engine"] | None
    foul: bool
    status: Literal["playing", "left"]


class RevealInstant(Open):
    """A mậu binh (instant win): its ``kind`` and names, and the hand shown whole."""

    position: int
    kind: str
    name_vi: str
    name_en: str
    cards: list[str]


class RevealInstantPair(Open):
    a: int
    b: int
    units: int
    xu: int
    winner: int | None


class RevealHand(Open):
    """A player's hand in one chi (null: not shown, a foul, a mậu binh or left early)."""

    position: int
    hand: ShownHand | None
    foul: bool


class RevealPair(Open):
    a: int
    b: int
    units: int
    xu: int
    winner: int | None
    bonus: str | None
    reason: Literal["compare", "tie", "foul", "forfeit", "both_out"]


class RevealChi(Open):
    chi: int
    hands: list[RevealHand]
    pairs: list[RevealPair]


class ScoopLine(Open):
    """A scooped player once: ``kind`` ``one`` (sập 3 chi) or ``all`` (sập làng), the
    multiplier ``x``, who scooped them (``by``), what the multiplier added (``xu``)."""

    loser: int
    kind: Literal["one", "all"]
    x: int
    by: list[int]
    xu: int


class Reveal(Open):
    """The showdown as revealed so far (the ``reveal`` event); ``withheld``: a duplicate
    board you may still be dealt, so nothing of any hand."""

    round: int
    stakes_in: str
    revealed: int
    deadline: str | None
    fouls: list[int]
    unarranged: list[int]
    auto_arranged: dict[str, str]
    instants: list[RevealInstant]
    instant_pairs: list[RevealInstantPair]
    chi: list[RevealChi]
    scoops: list[ScoopLine]
    scoop_xu: dict[str, int]
    withheld: bool = False


class Breakdown(Open):
    """Where a player's amount came from (adding up to it): instant wins, each chi, the
    scoops, and what the payer's cap took off."""

    instant: int
    chi: list[int]
    scoop: int
    cap: int


class RatingChange(Open):
    before: int
    after: int


class SummaryPlayer(Open):
    """One player's result (``withheld``: only ``position``, ``user``, ``name``)."""

    position: int
    user: int
    name: str
    units: int | None = None
    xu: int | None = None
    chi_won: int | None = None
    chi_lost: int | None = None
    scooped: str | None = None
    foul: bool | None = None
    instant: str | None = None
    hands: list[ShownHand] | None = None
    status: Literal["playing", "left"] | None = None
    auto_arranged: Literal["draft", "engine"] | None = None
    breakdown: Breakdown | None = None
    balance: int | None = None
    rating: RatingChange | None = None


class BoardRef(Open):
    """A duplicate round's board: its schedule, its number, whether its seed is out."""

    schedule: int
    number: int
    revealed: bool


class Summary(Open):
    """The settled round (the ``settled`` event): every result, the balances after it,
    the server seed (a duplicate board's once the board is revealed)."""

    round: int
    number: int
    stakes_in: str
    players: list[SummaryPlayer]
    pairs: list[PairResult]
    scoops: list[ScoopLine]
    rated: bool | None = None
    unrated_reason: str | None = None
    server_seed: str
    board: BoardRef | None = None
    commitment: str
    client_seeds: list[str]
    withheld: bool = False


class VoidPlayer(Open):
    position: int
    user: int
    returned: int
    balance: int | None = None


class Voided(Open):
    """A cancelled round (the ``voided`` event): why, and each stake returned."""

    round: int
    number: int
    stakes_in: str
    reason: str
    players: list[VoidPlayer]
    server_seed: str
    withheld: bool = False


class RoundView(Open):
    """The table socket's round view (its snapshot's ``round``): ``you`` your own hand
    (null when you were not dealt in); ``reveal`` from the showdown on, ``summary`` once
    settled, ``voided`` once cancelled (null before)."""

    id: int
    number: int
    state: RoundStateName
    deadline: str | None
    revealed: int
    commitment: str
    client_seeds: list[str]
    players: list[ViewPlayer]
    you: ViewYou | None
    reveal: Reveal | None = None
    summary: Summary | None = None
    voided: Voided | None = None


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
    view: RoundView
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


class PrizeReview(Open):
    """Prizes held for a moderator: ``pending``, then ``released`` or ``returned``."""

    status: Literal["pending", "released", "returned"]
    held_at: str
    decided_at: str | None


class ArenaResult(Open):
    board: int
    points: int
    fire: bool


class Standing(Open):
    """One entrant: who, their state, place, prize, stack and table; an arena's also its
    ``status``, points, streak, ``fire``, boards played and last ``results``."""

    user: int
    name: str
    is_bot: bool
    state: str
    place: int | None
    prize: int
    table: int | None
    table_number: int | None
    stack: int
    rank: int | None
    status: str | None = None
    points: int | None = None
    streak: int | None = None
    fire: bool | None = None
    boards: int | None = None
    results: list[ArenaResult] | None = None


class TournamentTable(Open):
    """An open table of the tournament; ``start_at`` its next deal (null: playing, or not
    counting down), ``dealt`` false while its first deal is still to come."""

    table: int
    number: int
    start_at: str | None
    dealt: bool


class TournamentState(Open):
    """A tournament's whole public state: the tournament socket's ``tournament`` message
    (docs/protocol.md#tournaments). An arena adds its clock and queue (``arena`` true)."""

    type: Literal["tournament"]
    tournament: int
    version: int
    kind: Literal["sit_and_go", "arena"]
    name: str
    state: Literal["registering", "running", "finished", "cancelled", "voided"]
    end_reason: str
    stall_minutes: int
    review: PrizeReview | None
    players: int
    registered: int
    left: int
    buy_in: int
    starting_stack: int
    pool: int
    prize_pool: int
    chips_in_play: int
    level: int
    stake: int
    levels: list[int]
    rounds_per_level: int
    rounds_played: int
    prizes: list[int]
    bots_at: str | None
    standings: list[Standing]
    bust_order: list[int]
    tables: list[TournamentTable]
    now: str
    arena: bool = False
    minutes: int | None = None
    starts_at: str | None = None
    ends_at: str | None = None
    time_left: int | None = None
    schedule: int | None = None
    entrants: int | None = None
    playing: int | None = None
    waiting: int | None = None


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
