import random

import pytest
from django.utils import timezone

from bots import selectors, services
from bots.models import Bot, Difficulty
from games import services as games
from games.models import RoundState
from games.rules import Rules, format_cards, parse_cards
from games.rules.arrange import suggest

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(person, bot_table):  # type: ignore[no-untyped-def]
    """A round dealt to one person and three bots."""
    games.sit(person, bot_table.pk)
    services.fill_table(bot_table.pk, [person.pk])
    return games.start_round(person, bot_table.pk)


def _bots(round_):  # type: ignore[no-untyped-def]
    return list(round_.players.filter(user__is_bot=True).select_related("user"))


def test_a_bots_turn_reads_only_its_own_cards(dealt):
    bot = _bots(dealt)[0]
    hand = selectors.bot_hand(dealt.pk, bot.user_id, dealt.phase)
    assert hand is not None
    assert list(hand.cards) == bot.cards
    assert hand.opponents == 3
    others = {c for p in dealt.players.exclude(pk=bot.pk) for c in p.cards}
    assert not others & set(hand.cards)
    assert set(vars(hand)) == {
        "round_id", "cards", "rules", "opponents", "dealt_version", "difficulty"
    }  # fmt: skip


def test_a_bot_arranges_only_from_its_own_cards(dealt, monkeypatch):
    seen = []

    def spy(cards, rules, n=3, opponents=3):  # type: ignore[no-untyped-def]
        seen.append(list(cards))
        return suggest(cards, rules, n=n, opponents=opponents)

    monkeypatch.setattr(services, "suggest", spy)
    bot = _bots(dealt)[0]
    services.play_turn(dealt.pk, bot.user_id, dealt.phase)
    assert seen == [list(parse_cards(bot.cards))]


def test_a_bot_submits_the_best_suggestion_through_the_players_service(dealt):
    bot = _bots(dealt)[0]
    Bot.objects.filter(user=bot.user).update(difficulty=Difficulty.NORMAL)
    player = services.play_turn(dealt.pk, bot.user_id, dealt.phase)
    assert player is not None
    best = suggest(parse_cards(bot.cards), dealt.rules, n=0, opponents=3)[0]
    assert player.arrangement == _formatted(best.chi)
    assert dealt.events.filter(kind="submit", user=bot.user).count() == 1


def _formatted(chi):  # type: ignore[no-untyped-def]
    return [format_cards(part) for part in chi]


def test_an_easy_bot_plays_one_of_the_suggestions():
    cards = parse_cards(
        ["AS", "KS", "QS", "JS", "9S", "2H", "3H", "4H", "5H", "7D", "8C", "8D", "TC"]
    )
    rules = Rules.preset("portal")
    hand = selectors.BotHand(1, tuple(format_cards(cards)), rules, 3, 1, "easy")
    options = [_formatted(s.chi) for s in suggest(cards, rules, n=3, opponents=3)]
    for seed in range(5):
        assert services.choose_arrangement(hand, random.Random(seed)) in options


def test_a_late_or_repeated_bot_turn_does_nothing(dealt):
    bot = _bots(dealt)[0]
    assert services.play_turn(dealt.pk, bot.user_id, dealt.phase) is not None
    assert services.play_turn(dealt.pk, bot.user_id, dealt.phase) is None  # already submitted
    other = _bots(dealt)[1]
    assert services.play_turn(dealt.pk, other.user_id, dealt.phase + 1) is None  # stale phase
    assert dealt.events.filter(kind="submit").count() == 1


def test_when_every_bot_and_the_person_submit_the_showdown_begins_at_once(person, dealt):
    for bot in _bots(dealt):
        services.play_turn(dealt.pk, bot.user_id, dealt.phase)
    mine = dealt.players.get(user=person)
    best = suggest(parse_cards(mine.cards), dealt.rules)[0]
    games.submit_arrangement(person, dealt.pk, _formatted(best.chi))
    dealt.refresh_from_db()
    assert dealt.state == RoundState.SHOWDOWN  # in the last submission's own step


def test_bots_think_for_a_bounded_random_while_well_inside_the_arranging_time():
    rules = Rules.preset("portal")
    delays = [services.think_seconds(rules, random.Random(i)) for i in range(50)]
    assert all(2.0 <= d <= 8.0 for d in delays)
    quick = Rules.preset("portal").with_overrides({"arrange_seconds": 30})
    assert all(services.think_seconds(quick, random.Random(i)) <= 7.5 for i in range(50))


def test_the_deal_schedules_each_bots_turn_with_the_phase_it_expects(
    person, bot_table, queued, django_capture_on_commit_callbacks
):
    games.sit(person, bot_table.pk)
    services.fill_table(bot_table.pk, [person.pk])
    with django_capture_on_commit_callbacks(execute=True):
        round_ = games.start_round(person, bot_table.pk)
    turns = queued.named("bots.play_turn")
    assert sorted(args[1] for args, _ in turns) == sorted(p.user_id for p in _bots(round_))
    assert all(args[0] == round_.pk and args[2] == round_.phase for args, _ in turns)
    assert all(0 < options["countdown"] <= 7.5 for _, options in turns)


def test_bots_whose_turn_task_was_lost_are_caught_up_before_the_deadline(dealt):
    from datetime import timedelta

    from games.models import Round

    assert services.catch_up_turns() == 0  # just dealt: the turn tasks are still due
    Round.objects.filter(pk=dealt.pk).update(dealt_at=timezone.now() - timedelta(seconds=20))
    assert services.catch_up_turns() == 3
    assert dealt.players.filter(user__is_bot=True, submitted_at__isnull=True).count() == 0
    assert services.catch_up_turns() == 0
