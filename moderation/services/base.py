"""What every staff action shares: the audit row, the notice to a player, the text policy,
the case lock, the separation of duties and the refusals the audit log keeps.

The other modules of `moderation.services` build on these; nothing here writes a
remedy or a sanction.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.errors import TextRefused
from accounts.ids import parse_id
from accounts.models import User
from accounts.text import clean_text
from core.errors import Refusal
from games.models import RoundPlayer, Seat, Table
from moderation.errors import Forbidden, ModerationError, NotFound
from moderation.models import ActionKind, Dispute, StaffAction, Status
from moderation.roles import can_moderate, holds_staff_role, is_admin
from notices import services as notices

MAX_TEXT = 2000
F = TypeVar("F", bound=Callable[..., Any])


def audit(
    actor: User,
    action: str,
    target: Any,
    *,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    dispute: Dispute | None = None,
) -> StaffAction:
    return StaffAction.objects.create(
        actor=actor,
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        target_repr=str(target)[:200],
        reason=reason,
        before=before or {},
        after=after or {},
        dispute=dispute,
    )


def notify(user_id: int, kind: str, *, dispute: Dispute | None = None, **params: Any) -> None:
    """Tell a player (notices): of their case, with its number and its page, or of a
    sanction or a re-settlement."""
    url = ""
    if dispute is not None:
        params = {"case": dispute.pk, **params}
        url = reverse("moderation:case_detail", args=[dispute.pk])
    notices.notify(user_id, kind, url=url, params=params)


def require_moderator(user: User) -> None:
    if not can_moderate(user):
        raise Forbidden()


def clean_case_text(value: Any) -> str:
    """Free text from a form (a dispute, a report, a reason, a resolution), through the text
    policy (accounts.text: nothing invisible, newlines kept), at most MAX_TEXT characters.
    A NUL is refused outright: no browser sends one (PostgreSQL would refuse it too)."""
    text = value if isinstance(value, str) else ""
    if "\x00" in text:
        raise ModerationError(
            _("The text contains a character that is not allowed."), code="bad_text"
        )
    try:
        text = clean_text(text, multiline=True)
    except TextRefused as exc:
        raise exc.as_error(ModerationError) from exc
    if len(text) > MAX_TEXT:
        raise ModerationError(_("Please keep it under 2000 characters."), code="text_too_long")
    return text


def require_reason(reason: str) -> str:
    reason = clean_case_text(reason)
    if not reason:
        raise ModerationError(_("A reason is required."), code="reason_required")
    return reason


def lock_dispute(dispute_id: Any) -> Dispute:
    # Two moderators acting on one case at once (claiming, paying, resolving) are
    # serialised here: the second sees what the first did.
    try:
        return Dispute.objects.select_for_update().get(pk=as_id(dispute_id))
    except (Dispute.DoesNotExist, ValueError, TypeError):
        raise NotFound() from None


def dispute_state(dispute: Dispute) -> dict[str, Any]:
    return {
        "status": dispute.status,
        "moderator": dispute.moderator_id,
        "outcome": dispute.outcome,
        "resolution": dispute.resolution,
    }


def concerns(user: User, dispute: Dispute) -> bool:
    """The case is about this user: they filed it, it reports them, or they played its round.

    A report made from a table (no round) also concerns the table's host and whoever sits
    there. Such a user neither handles the case nor decides what it pays.
    """
    if user.pk in (dispute.filed_by_id, dispute.reported_user_id):
        return True
    if dispute.round_id is not None:
        return RoundPlayer.objects.filter(round_id=dispute.round_id, user=user).exists()
    if dispute.table_id is not None:
        return (
            Table.objects.filter(pk=dispute.table_id, host=user).exists()
            or Seat.objects.filter(table_id=dispute.table_id, user=user).exists()
        )
    return False


def refuse_conflict(staff: User, dispute: Dispute) -> None:
    if concerns(staff, dispute):
        raise Forbidden(
            _("This case concerns you: another staff member must handle it."),
            code="conflict_of_interest",
        )


def refuse_staff_filer(dispute: Dispute) -> None:
    """A staff member is never paid by a case they filed (an admin adjusts, if ever)."""
    if holds_staff_role(dispute.filed_by):
        raise Forbidden(_("A staff member is never paid by a case they filed."), code="staff_filer")


def record_refusal(
    actor: User, tried: str, target_type: str, target_id: Any, error: ModerationError
) -> StaffAction:
    """A staff rule said no: the audit log keeps who tried what, and why it was refused."""
    target = f"{target_type}:{as_id(target_id)}"
    return StaffAction.objects.create(
        actor=actor,
        action=ActionKind.REFUSED,
        target_type=target_type[:32],
        target_id=str(as_id(target_id)),
        target_repr=f"{tried} {target}"[:200],
        reason=error.message,
        after={"tried": str(tried), "code": error.code},
    )


# Refusals of the separation-of-duty rules and limits that are recorded (every Forbidden is).
RECORDED_REFUSALS = {"amount_too_large", "resettlement_too_large", "admin_limit"}


def refusals_as_moderation(func: F) -> F:
    """Another layer's refusal (the ledger's, the tables', accounts') leaves a moderation
    service as moderation's, with its code and message: callers catch one class.

    The one place moderation catches ``core.errors.Refusal``; a service that wants another
    answer (a round that does not exist is ``NotFound``) catches that case itself first.
    """

    @wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ModerationError:
            raise
        except Refusal as exc:
            raise ModerationError(exc.message, code=exc.code) from exc

    return wrapped  # type: ignore[return-value]


def refusals_recorded(tried: str, target_type: str) -> Callable[[F], F]:
    """Record a refused staff action after its transaction rolled back (so the row stays).

    Another layer's refusal counts as moderation's (``refusals_as_moderation``).
    """

    def decorate(func: F) -> F:
        refusing = refusals_as_moderation(func)

        @wraps(func)
        def wrapped(actor: User, target_id: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return refusing(actor, target_id, *args, **kwargs)
            except NotFound:
                raise
            except ModerationError as exc:
                if isinstance(exc, Forbidden) or exc.code in RECORDED_REFUSALS:
                    record_refusal(actor, tried, target_type, target_id, exc)
                raise

        return wrapped  # type: ignore[return-value]

    return decorate


def int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def as_id(value: Any) -> int:
    """A primary key from user input (accounts.ids); 0 (no row) when it cannot be one."""
    return parse_id(value) or 0


def require_handler(moderator: User, dispute: Dispute) -> None:
    refuse_conflict(moderator, dispute)
    if dispute.status != Status.IN_REVIEW:
        raise ModerationError(_("Claim the case first."), code="not_in_review")
    if dispute.moderator_id != moderator.pk and not is_admin(moderator):
        raise Forbidden(_("Another moderator is handling this case."), code="not_yours")
