"""Challenges to a heads-up table (docs/social.md#challenges): made, answered, expired,
refused; each change versioned and told to both players' event streams after the commit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from api import services as api_services
from games import services as games
from games.models import RoundState, Seat
from notices.models import NotificationKind
from social import selectors, services
from social.errors import SocialError
from social.forms import ChallengeForm
from social.models import Challenge, ChallengeState
from tests.support.played import QUICK_RULES, run_timers

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict]]:
    """What went to the users' groups (their event streams), once the commit happened."""
    got: list[tuple[int, dict]] = []
    monkeypatch.setattr("social.services.events.to_user", lambda uid, p: got.append((uid, p)))
    return got


def _challenge(an, binh, **options):  # type: ignore[no-untyped-def]
    return services.challenge(
        an, binh, preset=options.pop("preset", "portal"), stake=options.pop("stake", 10), **options
    )


def _refusal(action, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(SocialError) as refused:
        action(*args, **kwargs)
    return refused.value.code


def test_a_challenge_waits_for_an_answer_in_the_inbox_and_on_both_streams(people, sent) -> None:
    an, binh, _chi = people
    made = _challenge(an, binh)
    assert (made.state, made.version) == ("open", 1)
    note = selectors.notifications_of(binh).get(kind=NotificationKind.CHALLENGE)
    assert note.actor == an and note.params["challenge"] == made.pk
    assert "10" in note.message
    assert {uid for uid, _p in sent} == {an.pk, binh.pk}
    assert {p["type"] for _uid, p in sent} == {"challenge"}
    assert [e["id"] for e in selectors.open_challenge_events(binh)] == [made.pk]
    assert [e["id"] for e in selectors.open_challenge_events(an)] == [made.pk]


def test_accepting_seats_both_at_one_private_table_and_a_round_can_be_played(people, sent) -> None:
    an, binh, _chi = people
    made = _challenge(an, binh, rules_overrides=dict(QUICK_RULES))
    accepted = services.accept_challenge(binh, made.pk)
    assert (accepted.state, accepted.version) == ("accepted", 2)
    table = accepted.table
    assert table is not None and table.is_private and table.seats == 2 and table.stake == 10
    assert set(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == {
        an.pk,
        binh.pk,
    }
    told = [(uid, p) for uid, p in sent if p["type"] == "challenge_accepted"]
    assert {uid for uid, _p in told} == {an.pk, binh.pk}
    assert all(p["table"] == table.pk and p["version"] == 2 for _uid, p in told)
    # The inbox notice is answered: read.
    assert not selectors.notifications_of(binh).filter(read_at__isnull=True).exists()
    round_ = games.start_round(an, table.pk)
    for rp in round_.players.select_related("user"):
        games.submit_arrangement(rp.user, round_.pk, [rp.cards[:5], rp.cards[5:10], rp.cards[10:]])
    assert run_timers(round_).state == RoundState.SETTLED


def test_accepting_twice_answers_with_the_same_table(people) -> None:
    an, binh, _chi = people
    made = _challenge(an, binh)
    first = services.accept_challenge(binh, made.pk)
    again = services.accept_challenge(binh, made.pk)
    assert again.table_id == first.table_id and again.version == first.version


def test_a_declined_challenge_cannot_be_accepted_after(people, sent) -> None:
    an, binh, _chi = people
    made = _challenge(an, binh)
    assert services.decline_challenge(binh, made.pk).state == "declined"
    assert services.decline_challenge(binh, made.pk).version == 2  # twice: once
    assert _refusal(services.accept_challenge, binh, made.pk) == "already_answered"
    assert sent[-1][1]["type"] == "challenge_closed"
    assert sent[-1][1]["state"] == "declined"


def test_the_challenger_cancels_and_the_challenged_then_cannot_accept(people) -> None:
    an, binh, _chi = people
    made = _challenge(an, binh)
    assert _refusal(services.cancel_challenge, binh, made.pk) == "not_found"  # not theirs
    assert services.cancel_challenge(an, made.pk).state == "cancelled"
    assert _refusal(services.accept_challenge, binh, made.pk) == "already_answered"
    assert _refusal(services.decline_challenge, an, made.pk) == "not_found"


def test_an_expired_challenge_is_refused_and_the_sweeper_closes_it(people, sent) -> None:
    an, binh, chi = people
    made = _challenge(an, binh)
    late = _challenge(an, chi)
    Challenge.objects.filter(pk__in=[made.pk, late.pk]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert selectors.open_challenge_events(binh) == []  # not open any more, on read
    assert _refusal(services.accept_challenge, binh, made.pk) == "challenge_expired"
    assert Challenge.objects.get(pk=made.pk).state == ChallengeState.EXPIRED
    assert services.expire_challenges() == 1  # the other one
    assert Challenge.objects.get(pk=late.pk).state == ChallengeState.EXPIRED
    assert sent[-1][1]["type"] == "challenge_closed" and sent[-1][1]["state"] == "expired"


def test_nobody_challenges_themselves(people) -> None:
    an, _binh, _chi = people
    assert _refusal(_challenge, an, an) == "challenge_self"


def test_a_block_either_way_stops_a_challenge_and_says_only_what_each_may_know(people) -> None:
    an, binh, chi = people
    services.block_user(binh, an)
    assert _refusal(_challenge, an, binh) == "challenge_refused"  # an is not told why
    assert _refusal(_challenge, binh, an) == "you_blocked"
    made = _challenge(an, chi)
    services.block_user(chi, an)  # a block answers what waits between them
    assert Challenge.objects.get(pk=made.pk).state == ChallengeState.CANCELLED


def test_a_stake_the_challenger_cannot_afford_is_refused(people) -> None:
    an, binh, _chi = people
    assert _refusal(_challenge, an, binh, stake=1_000) == "balance_too_low"
    assert not Challenge.objects.exists()


def test_a_second_challenge_while_the_first_waits_is_the_same_one(people) -> None:
    an, binh, _chi = people
    assert _challenge(an, binh).pk == _challenge(an, binh).pk


@override_settings(CHALLENGES_OPEN_PER_USER=1)
def test_a_player_has_only_a_few_challenges_waiting_at_once(people) -> None:
    an, binh, chi = people
    _challenge(an, binh)
    assert _refusal(_challenge, an, chi) == "too_many_challenges"


def test_the_sites_own_bots_take_no_challenges_but_a_bot_account_does(people, make_user) -> None:
    an, _binh, _chi = people
    house = make_user("house_bot")
    house.is_bot = True
    house.save()
    assert _refusal(_challenge, an, house) == "not_challengeable"
    bot = api_services.upgrade_to_bot(make_user("may"))
    accepted = services.accept_challenge(bot, _challenge(an, bot).pk)
    assert accepted.table is not None and accepted.table.allow_bots


def test_the_challenge_form_is_the_create_table_form_s_validation() -> None:
    assert not ChallengeForm({"preset": "portal", "stake": 0}).is_valid()
    assert not ChallengeForm({"preset": "nope", "stake": 10}).is_valid()
    form = ChallengeForm({"preset": "classic", "stake": 10, "arrange_seconds": 30})
    assert form.is_valid(), form.errors
    assert form.challenge_options() == {
        "preset": "classic",
        "stake": 10,
        "rules_overrides": {"arrange_seconds": 30},
    }
