"""An arena's boards are its own (issue #24, docs/duplicate.md "Whose schedule"): nobody
outside the arena can be dealt them first, learn them, or add a result to the arena's
comparison; staff who open one before its reveal are never seated on it."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from games import services as games_services
from games.errors import GameError
from games.models import BoardSeen, Round, RoundPlayer, Table
from games.rules import card_name_vi, parse_card
from games.services import duplicate as games_duplicate
from moderation.models import ActionKind, StaffAction
from tests.games.conftest import fixed_boards  # noqa: F401
from tests.moderation.conftest import _staff
from tests.support.arenas import present, seated_tables
from tests.support.duplicates import play
from tournaments.arena import services as arena
from tournaments.models import ArenaResult, Entry, Tournament

from .conftest import play_round

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.usefixtures("fixed_boards", "no_pair_wait"),
]


def _table_of(t: Tournament, user: Any) -> int:
    return next(table for table, users in seated_tables(t).items() if user.pk in users)


def test_an_outsider_can_neither_learn_an_arena_board_nor_move_its_points(
    client: Any, make_user: Any
) -> None:
    """The reproduction: A creates an arena; an outsider tries to open an ordinary 2-seat
    table with bots on its schedule to play board 1 first. Refused on every path; when
    the arena deals board 1 its points compare with nobody outside it."""
    an, binh = make_user("an"), make_user("binh")
    outsider = make_user("khach")
    t = arena.create_arena(an, name="Đấu trường", minutes=3, buy_in=100)
    schedule = t.schedule
    assert schedule is not None

    client.force_login(outsider)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert 'name="duplicate_schedule"' not in lobby  # no schedule to offer at all
    response = client.post(
        reverse("games:create_table"),
        {
            "name": "Bàn dò bài", "preset": "portal", "stake": 10, "seats": 2,
            "allow_bots": "on", "bot_wait_seconds": 1, "sit_down": "on",
            "duplicate_schedule": schedule.pk,
        },
    )  # fmt: skip
    assert response.status_code == 400
    with pytest.raises(GameError) as caught:
        games_services.open_table(
            outsider, name="Bàn dò bài", stake=10, seats=2, allow_bots=True,
            duplicate_schedule=schedule,
        )  # fmt: skip
    assert caught.value.code == "schedule_private"
    with pytest.raises(CommandError):
        call_command(
            "duplicate", "table", str(schedule.pk), "--host", outsider.username,
            "--name", "Bàn dò bài", "--stake", "10", "--seats", "2", "--bots", stdout=StringIO(),
        )  # fmt: skip
    assert not Table.objects.filter(duplicate_schedule=schedule).exists()

    arena.join(binh, t.pk)
    present(t, an, binh)
    arena.start_now(an, t.pk)
    round_ = play_round(_table_of(t, an))
    assert round_ is not None and round_.board is not None and round_.board.number == 1
    # Nobody but the arena's players was ever dealt an arena board.
    dealt = set(
        RoundPlayer.objects.filter(round__board__schedule=schedule).values_list(
            "user_id", flat=True
        )
    )
    assert dealt == {an.pk, binh.pk}
    # The outsider cannot read board 1 off the arena's round either (it is not revealed).
    assert client.get(reverse("games:round_detail", args=[round_.pk])).status_code == 404
    for result in ArenaResult.objects.filter(tournament=t, board=1):
        assert result.others == 0 and result.matchpoints is None


def test_a_result_of_an_arena_board_at_another_table_never_counts_in_the_arena(
    make_user: Any,
) -> None:
    """Defence in depth: should a table outside the arena have dealt one of its boards
    (as one could before schedules had owners), the arena's points ignore its result."""
    an, binh, khach, khach2 = (make_user(n) for n in ("an", "binh", "khach", "khach2"))
    t = arena.create_arena(an, name="Đấu trường", minutes=3, buy_in=0)
    schedule = t.schedule
    assert schedule is not None
    outside = games_services.create_table(
        khach, name="Bàn cũ", stake=10, preset=schedule.preset,
        rules_overrides=schedule.rules_overrides,
    )  # fmt: skip
    # Bound behind the services' back, as a table opened on it before the fix would be.
    Table.objects.filter(pk=outside.pk).update(duplicate_schedule=schedule)
    outside.refresh_from_db()
    theirs = play(outside, [khach, khach2])
    assert theirs.board is not None and theirs.board.number == 1

    arena.join(binh, t.pk)
    present(t, an, binh)
    arena.start_now(an, t.pk)
    mine = play_round(_table_of(t, an))
    assert mine is not None and mine.board == theirs.board  # the same cards, two players
    results = list(ArenaResult.objects.filter(tournament=t, round=mine))
    assert len(results) == 2
    for result in results:
        assert result.others == 0 and result.matchpoints is None


def test_an_arena_table_cannot_be_rebound_to_another_schedule_by_staff(
    make_user: Any, schedule: Any
) -> None:
    an, binh = make_user("an"), make_user("binh")
    t = arena.create_arena(an, name="Đấu trường", minutes=3, buy_in=0)
    arena.join(binh, t.pk)
    present(t, an, binh)
    arena.start_now(an, t.pk)
    table_id = _table_of(t, an)
    for schedule_id in (t.schedule_id, schedule.pk):
        with pytest.raises(CommandError):
            call_command(
                "duplicate", "assign", str(table_id), str(schedule_id), "3", stdout=StringIO()
            )
    table = Table.objects.get(pk=table_id)
    assert table.duplicate_schedule_id == t.schedule_id and table.next_board == 1


@pytest.fixture
def schedule(make_user: Any) -> Any:
    """Staff's open schedule, with the arena's rules."""
    staff = make_user("bantochuc")
    from tournaments.services import checked_terms

    _name, overrides = checked_terms(
        name="x", players=4, players_message="", buy_in=0, preset="portal", start_seconds=5
    )
    return games_duplicate.create_schedule(
        name="Giải mở", boards=4, rules_overrides=overrides, created_by=staff
    )


def test_a_moderator_who_opened_an_arena_board_is_never_paired_on_it(
    client: Any, make_user: Any
) -> None:
    an, binh, chi = make_user("an"), make_user("binh"), make_user("chi")
    moderator = _staff(make_user, "mod", moderator=True)
    t = arena.create_arena(an, name="Đấu trường", minutes=3, buy_in=0)
    for user in (binh, chi, moderator):
        arena.join(user, t.pk)
    present(t, an, binh)  # Chi and the moderator are away: An and Bình play board 1
    arena.start_now(an, t.pk)
    first = play_round(_table_of(t, an))
    assert first is not None and first.board is not None and first.board.number == 1

    client.force_login(moderator)
    replay = reverse("moderation:replay", args=[first.pk])
    warned = client.get(replay).content.decode()
    assert 'data-testid="replay-board-secret"' in warned
    assert not any(
        f'aria-label="{card_name_vi(parse_card(code))}"' in warned
        for p in first.players.all()
        for code in p.cards
    )
    opened = client.post(reverse("moderation:open_board", args=[first.pk]))
    assert opened.status_code == 302 and opened["Location"] == replay
    assert BoardSeen.objects.filter(board=first.board, user=moderator).exists()
    assert StaffAction.objects.filter(actor=moderator, action=ActionKind.OPEN_BOARD).exists()
    assert 'data-testid="replay-board-secret"' not in client.get(replay).content.decode()

    present(t, chi, moderator)
    assert arena.pair(t.pk) == 1  # An and Bình are still at their board's summary
    table_id = _table_of(t, moderator)
    assert seated_tables(t)[table_id] == {chi.pk, moderator.pk}
    assert Table.objects.get(pk=table_id).next_board == 2  # not board 1, which Chi lacks
    second = play_round(table_id)
    assert second is not None and second.board is not None and second.board.number == 2
    assert not Round.objects.filter(board=first.board, players__user=moderator).exists()
    assert Entry.objects.get(tournament=t, user=moderator).boards == 1
