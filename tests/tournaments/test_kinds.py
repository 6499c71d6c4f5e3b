"""Every tournament endpoint, timer and socket checks the tournament's kind: a sit-and-go's
action given an arena (or the other way round) is refused with ``wrong_kind`` and nothing
changes (issue 24: an arena registered through the sit-and-go URL became a sit-and-go
that could never end)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse

from games.models import StakesIn, Table
from games.selectors.duplicate import open_schedules
from ledger import selectors as ledger_selectors
from ledger.audit import run_checks
from tests.support.arenas import tournament_socket
from tournaments.arena import services as arena
from tournaments.arena.consumers import ArenaConsumer
from tournaments.errors import TournamentError
from tournaments.models import ArenaSocket, Entry, EntryState, Kind, State, Tournament
from tournaments.sitandgo import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _messages(response: Any) -> list[str]:
    """The messages the page the request led to showed (``follow=True``)."""
    assert response.redirect_chain, "the action redirects to a page"
    return [str(m) for m in response.context["messages"]]


def test_the_sit_and_go_register_url_refuses_an_arena_and_changes_nothing(client, players):
    """The reproduction: three users POST the sit-and-go register URL of an arena with four
    places; the fourth used to start it as a sit-and-go (chips 0, no end, never ending)."""
    t = arena.create_arena(players[0], name="Đấu trường", minutes=5, buy_in=500, players=4)
    for user in players[1:]:
        client.force_login(user)
        response = client.post(reverse("tournaments:register", args=[t.pk]), follow=True)
        assert _messages(response) == [
            "Giải này là đấu trường, không phải sit-and-go: hãy dùng trang của đấu trường."
        ]
        assert ledger_selectors.balance(user) == 10_000
    t.refresh_from_db()
    assert (t.kind, t.state, t.ends_at) == (Kind.ARENA, State.REGISTERING, None)
    assert list(t.entries.values_list("user_id", "state")) == [
        (players[0].pk, EntryState.REGISTERED)
    ]
    assert ledger_selectors.pool_balance(t.pk) == 500
    assert not t.tables.exists()
    assert not Table.objects.filter(stakes_in=StakesIn.CHIPS).exists()
    # The three are free to join it the arena's way.
    for user in players[1:]:
        arena.join(user, t.pk)
    assert t.entries.filter(state=EntryState.REGISTERED).count() == 4


def test_the_sit_and_go_cancel_url_refuses_an_arena_and_leaves_it_as_it_was(client, players):
    """It used to cancel the arena and leave its duplicate schedule open and offered."""
    t = arena.create_arena(players[0], name="Hủy nhầm", minutes=5, buy_in=200)
    client.force_login(players[0])
    response = client.post(reverse("tournaments:cancel", args=[t.pk]), follow=True)
    assert len(_messages(response)) == 1
    t.refresh_from_db()
    assert t.state == State.REGISTERING
    assert ledger_selectors.pool_balance(t.pk) == 200
    # Still open for the arena's own tables (an arena's schedule is never offered to others).
    assert t.schedule is not None and t.schedule.closed_at is None


def test_every_cancel_of_an_arena_closes_its_schedule(client, players):
    t = arena.create_arena(players[0], name="Hủy đúng", minutes=5, buy_in=200)
    client.force_login(players[0])
    client.post(reverse("tournaments:arena_cancel", args=[t.pk]))
    t.refresh_from_db()
    assert t.state == State.CANCELLED and t.end_reason == "creator"
    assert t.schedule is not None and t.schedule.closed_at is not None
    assert t.schedule not in open_schedules()
    assert ledger_selectors.balance(players[0]) == 10_000
    assert run_checks().ok


@pytest.mark.parametrize(
    "action",
    [
        lambda user, t: services.register(user, t),
        lambda user, t: services.cancel(user, t),
        lambda user, t: services.start_now_with_bots(user, t),
    ],
    ids=["register", "cancel", "start_now_with_bots"],
)
def test_a_sit_and_go_service_given_an_arena_is_refused(players, action):
    t = arena.create_arena(players[0], name="Đấu trường", minutes=5, buy_in=100)
    with pytest.raises(TournamentError) as refused:
        action(players[0], t.pk)
    assert refused.value.code == "wrong_kind"
    t.refresh_from_db()
    assert t.state == State.REGISTERING and t.version == 1


@pytest.mark.parametrize(
    "action",
    [
        lambda user, t: arena.join(user, t),
        lambda user, t: arena.cancel_arena(user, t),
        lambda user, t: arena.start_now(user, t),
        lambda user, t: arena.set_paused(user, t, True),
    ],
    ids=["join", "cancel_arena", "start_now", "pause"],
)
def test_an_arena_service_given_a_sit_and_go_is_refused(players, action):
    t = services.create_sit_and_go(players[0], name="Sit", players=4, buy_in=100)
    version = Tournament.objects.get(pk=t.pk).version
    with pytest.raises(TournamentError) as refused:
        action(players[1], t.pk)
    assert refused.value.code == "wrong_kind"
    t.refresh_from_db()
    assert t.state == State.REGISTERING and t.version == version
    assert not Entry.objects.filter(tournament=t, user=players[1]).exists()


def test_the_timers_of_one_kind_do_nothing_to_the_other(players):
    sng = services.create_sit_and_go(players[0], name="Sit", players=4, buy_in=0, allow_bots=True)
    are = arena.create_arena(players[1], name="Đấu", minutes=5, buy_in=0)
    arena.join(players[2], are.pk)
    assert services.fill_with_bots(are.pk) is None
    assert services.table_step(are.pk) is False
    assert arena.start_when_due(sng.pk) is None
    assert arena.pair(sng.pk) == 0
    assert arena.end(sng.pk) is False
    sng.refresh_from_db()
    are.refresh_from_db()
    assert (sng.state, are.state) == (State.REGISTERING, State.REGISTERING)


def test_the_arena_socket_of_a_sit_and_go_is_not_found_and_marks_nobody_present(players):
    t = services.create_sit_and_go(players[0], name="Sit", players=4, buy_in=0)
    assert arena.socket_opened(players[0], t.pk, uuid.uuid4()) is False

    async def run() -> int | None:
        communicator = tournament_socket(
            ArenaConsumer, f"/ws/tournaments/{t.pk}/arena/", players[0], t
        )
        connected, code = await communicator.connect()
        if connected:  # accepted first, then closed
            code = (await communicator.receive_output()).get("code")
        await communicator.disconnect()
        return code

    assert async_to_sync(run)() == 4404
    assert not ArenaSocket.objects.exists()
