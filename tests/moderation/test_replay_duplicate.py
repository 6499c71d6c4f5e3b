"""The replay of a duplicate board not revealed yet (docs/duplicate.md, "For staff"): it
opens only once the moderator accepts never to be dealt that board; the opening is
recorded (``BoardSeen`` and the audit log) and no table deals them the board afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services as games
from games.models import BoardSeen, DuplicateSchedule, Round
from games.rules import card_name_vi, parse_card
from games.selectors import board_audience, table_snapshot
from games.services import duplicate
from moderation.models import ActionKind, StaffAction
from tests.games.conftest import fixed_boards  # noqa: F401
from tests.support.duplicates import duplicate_table, play

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.usefixtures("fixed_boards")]


@pytest.fixture
def schedule(players: list[Any]) -> DuplicateSchedule:
    return duplicate.create_schedule(
        name="Giải thử",
        boards=4,
        rules_overrides={"arrange_seconds": 30, "reveal_seconds": 2, "start_seconds": 5},
        created_by=players[0],
    )


@pytest.fixture
def board_round(players: list[Any], schedule: DuplicateSchedule) -> Round:
    """Board 1, played to its settlement by An and Bình; not revealed."""
    round_ = play(duplicate_table(players[0], schedule, "Bàn A"), players[0:2])
    assert round_.board is not None and round_.board.number == 1
    assert not round_.board.is_revealed
    return round_


def _replay(round_: Round) -> str:
    return reverse("moderation:replay", args=[round_.pk])


def _shows_cards(page: str, round_: Round) -> bool:
    return any(
        f'aria-label="{card_name_vi(parse_card(code))}"' in page
        for p in round_.players.all()
        for code in p.cards
    )


def test_the_replay_of_an_unrevealed_board_warns_and_shows_no_card(
    client: Client, moderator: Any, board_round: Round
) -> None:
    client.force_login(moderator)
    response = client.get(_replay(board_round))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="replay-board-secret"' in page
    assert "không bao giờ được chia bộ chia này" in page  # what opening it means
    assert not _shows_cards(page, board_round)
    assert not BoardSeen.objects.exists()
    assert not StaffAction.objects.filter(actor=moderator).exists()


def test_a_moderator_who_opens_an_unrevealed_board_is_recorded_and_never_dealt_it(
    client: Client, moderator: Any, players: list[Any], board_round: Round
) -> None:
    client.force_login(moderator)
    opened = client.post(
        reverse("moderation:open_board", args=[board_round.pk]), {"settle_again": "1"}
    )
    assert opened.status_code == 302
    assert opened["Location"] == f"{_replay(board_round)}?settle_again=1"
    seen = BoardSeen.objects.get(user=moderator)
    assert (seen.board_id, seen.round_id, seen.why) == (
        board_round.board_id,
        board_round.pk,
        "moderation_replay",
    )
    action = StaffAction.objects.get(actor=moderator, action=ActionKind.OPEN_BOARD)
    assert action.target_id == str(board_round.pk)
    assert action.after == {"schedule": board_round.board.schedule_id, "board": 1}  # type: ignore[union-attr]

    page = client.get(opened["Location"]).content.decode()
    assert _shows_cards(page, board_round)
    assert 'data-testid="settle-again-result"' in page
    assert StaffAction.objects.filter(actor=moderator, action=ActionKind.VIEW_REPLAY).exists()
    # Opening it again records nothing more.
    client.post(reverse("moderation:open_board", args=[board_round.pk]))
    assert StaffAction.objects.filter(actor=moderator, action=ActionKind.OPEN_BOARD).count() == 1

    # Like a player who played it, the moderator sees the board's cards at its table now...
    assert moderator.pk in (board_audience(board_round) or [])
    assert "summary" in table_snapshot(board_round.table, moderator)["round"]
    assert "withheld" not in table_snapshot(board_round.table, moderator)["round"]["summary"]
    # ...and is never dealt it: their duplicate table deals board 2 (Chi has had none).
    table = duplicate_table(players[2], board_round.table.duplicate_schedule, "Bàn B")
    later = play(table, [players[2], moderator])
    assert later.board is not None and later.board.number == 2


def test_a_moderator_playing_a_board_cannot_open_its_other_rounds(
    client: Client, moderator: Any, players: list[Any], board_round: Round
) -> None:
    table = duplicate_table(players[2], board_round.table.duplicate_schedule, "Bàn B")
    for user in (players[2], moderator):
        games.sit(user, table.pk)
    live = games.start_round(players[2], table.pk)
    assert live.board_id == board_round.board_id  # the moderator plays board 1 right now
    client.force_login(moderator)
    assert 'data-testid="replay-board-secret"' in client.get(_replay(board_round)).text
    refused = client.post(reverse("moderation:open_board", args=[board_round.pk]), follow=True)
    assert "bạn đang chơi bộ chia này" in refused.content.decode().lower()
    assert not _shows_cards(refused.content.decode(), board_round)
    assert not BoardSeen.objects.exists()
    assert not StaffAction.objects.filter(action=ActionKind.OPEN_BOARD).exists()


def test_a_revealed_board_replays_at_once_and_records_no_board(
    client: Client, moderator: Any, board_round: Round
) -> None:
    duplicate.close_schedule(board_round.table.duplicate_schedule_id)  # type: ignore[arg-type]
    client.force_login(moderator)
    page = client.get(_replay(board_round)).content.decode()
    assert 'data-testid="replay-board-secret"' not in page
    assert _shows_cards(page, board_round)
    assert not BoardSeen.objects.exists()


def test_a_moderator_who_played_the_board_replays_it_at_once(
    client: Client, moderator: Any, players: list[Any], schedule: DuplicateSchedule
) -> None:
    round_ = play(duplicate_table(players[0], schedule, "Bàn A"), [players[0], moderator])
    client.force_login(moderator)
    page = client.get(_replay(round_)).content.decode()
    assert 'data-testid="replay-board-secret"' not in page and _shows_cards(page, round_)
    assert not BoardSeen.objects.exists()


def test_an_ordinary_round_replays_as_before(
    client: Client, moderator: Any, settled_round: Round
) -> None:
    client.force_login(moderator)
    page = client.get(_replay(settled_round)).content.decode()
    assert _shows_cards(page, settled_round)
    assert client.post(reverse("moderation:open_board", args=[settled_round.pk])).status_code == 302
    assert not BoardSeen.objects.exists()
    assert not StaffAction.objects.filter(action=ActionKind.OPEN_BOARD).exists()


def test_only_a_moderator_may_open_a_board(
    client: Client, players: list[Any], board_round: Round
) -> None:
    client.force_login(players[2])
    assert client.post(reverse("moderation:open_board", args=[board_round.pk])).status_code == 404
    assert not BoardSeen.objects.exists()
