"""One refusal base (core.errors.Refusal): every app's errors extend it and keep their code
and message; the rules library keeps its own."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from django.utils import translation

from accounts.errors import AccountError, SeatRefused, TextRefused
from chat.errors import ChatError
from core.errors import Refusal
from games.errors import GameError, StaleVersion
from games.rules.errors import RulesError
from ledger.errors import InsufficientFunds, LedgerError
from moderation.errors import Forbidden, ModerationError
from moderation.services.base import refusals_as_moderation
from practice.pricing import Refused
from profiles.avatars import AvatarRefused
from social.errors import SocialError
from tournaments.errors import TournamentError

APPS = (
    "core",
    "accounts",
    "ledger",
    "games",
    "bots",
    "moderation",
    "practice",
    "social",
    "profiles",
    "chat",
    "ratings",
    "tournaments",
)  # not maubinh_site: importing its asgi module starts the embedded worker
NOT_REFUSALS = {
    # A wiring mistake (no stakes provider registered for a kind of table), never a
    # refusal a user sees.
    "games.stakes.NoStakesProvider",
    # A command's thread found the socket's login session ended: the socket closes with
    # 4401 (docs/protocol.md, "Sessions"), no message is shown.
    "games.socket_session.SessionEnded",
    # A settlement failed for a reason a retry would meet again: its step rolls back and
    # the round is voided (games.services.showdown.advance_round); it never leaves there.
    "games.services.showdown._SettlementFailed",
}


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" in info.name or info.name.startswith("games.rules"):
                continue
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (
                    inspect.isclass(value)
                    and issubclass(value, BaseException)
                    and value.__module__ == info.name
                ):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_error_class_of_every_app_is_a_refusal() -> None:
    classes = _exception_classes()
    assert {"games.errors.GameError", "ledger.errors.LedgerError"} <= classes.keys()
    not_refusals = {name for name, cls in classes.items() if not issubclass(cls, Refusal)}
    assert not_refusals == NOT_REFUSALS


def test_the_rules_library_keeps_its_own_error_base() -> None:
    assert not issubclass(RulesError, Refusal)


@pytest.mark.parametrize(
    ("refusal", "code", "message"),
    [
        (
            GameError("Seat %(seat)s is taken.", code="seat_taken", seat=3),
            "seat_taken",
            "Seat 3 is taken.",
        ),
        (
            StaleVersion(),
            "stale_version",
            "Your view is out of date; it has been refreshed. Please try again.",
        ),
        (ChatError("Slow down.", code="rate_limited"), "rate_limited", "Slow down."),
        (SocialError("Blocked.", code="blocked"), "blocked", "Blocked."),
        (TournamentError("Full.", code="full"), "full", "Full."),
        (
            ModerationError("Claim it first.", code="not_in_review"),
            "not_in_review",
            "Claim it first.",
        ),
        (Forbidden(), "forbidden", "You are not allowed to do this."),
        (
            InsufficientFunds("%(amount)s xu needed, %(balance)s held.", balance=5, amount=10),
            "insufficient_funds",
            "10 xu needed, 5 held.",
        ),
        (LedgerError("unknown account"), "ledger_error", "unknown account"),
        (
            AccountError("Choose a username.", "username_required"),
            "username_required",
            "Choose a username.",
        ),
        (SeatRefused("Suspended.", code="suspended"), "suspended", "Suspended."),
        (
            TextRefused("Too long.", "text_too_long", params={"max": 2}),
            "text_too_long",
            "Too long.",
        ),
        (Refused("card_twice", "AS is placed twice."), "card_twice", "AS is placed twice."),
        (AvatarRefused("empty"), "empty", "The file is empty."),
    ],
)
def test_a_refusal_keeps_its_code_and_its_message(
    refusal: Refusal, code: str, message: str
) -> None:
    with translation.override("en"):
        assert isinstance(refusal, Refusal)
        assert refusal.code == code
        assert refusal.message == message
        assert str(refusal) == message


def test_a_refusal_renders_its_message_in_the_language_active_when_it_is_read() -> None:
    refusal = GameError()
    with translation.override("en"):
        english = refusal.message
    with translation.override("vi"):
        vietnamese = refusal.message
    assert english == "This action is not possible now."
    assert vietnamese != english


def test_another_layers_refusal_leaves_a_moderation_service_as_moderations_with_its_code():
    refused = InsufficientFunds(balance=5, amount=10)

    @refusals_as_moderation
    def pay() -> None:
        raise refused

    with pytest.raises(ModerationError) as caught:
        pay()
    assert caught.value.code == "insufficient_funds"
    assert caught.value.message == refused.message
    assert caught.value.__cause__ is refused


def test_moderations_own_refusal_leaves_a_moderation_service_as_it_is() -> None:
    own = Forbidden(code="four_eyes")

    @refusals_as_moderation
    def approve() -> None:
        raise own

    with pytest.raises(Forbidden) as caught:
        approve()
    assert caught.value is own
