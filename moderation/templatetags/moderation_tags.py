"""Staff pages in words: how long a case has waited, what an audited action changed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ledger.formats import format_signed_xu, format_xu
from moderation.models import ActionKind, CompensationStatus, Outcome, Status

register = template.Library()


@register.filter
def age(start: datetime | None, now: datetime | None = None) -> str:
    """How long ago ``start`` was, in the largest whole unit: "5 minutes", "1 hour", "2 days".

    Django's ``timesince`` has no Vietnamese for its units, so the queue said "0 minutes".
    """
    if start is None:
        return ""
    seconds = max(0, int(((now or timezone.now()) - start).total_seconds()))
    minutes, hours, days = seconds // 60, seconds // 3600, seconds // 86400
    if days:
        return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    if hours:
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


LABELS = {
    "status": _("status"),
    "moderator": _("moderator"),
    "outcome": _("outcome"),
    "resolution": _("resolution"),
    "stakes": _("limit (× the stake)"),
    "amount": _("amount (xu)"),
    "limit": _("limit (xu)"),
    "transfer": _("transfer"),
    "transfers": _("transfers"),
    "until": _("suspended until"),
    "reason": _("reason"),
    "schedule": _("duplicate schedule"),
    "board": _("board"),
}
XU_KEYS = {"amount", "limit"}
CHOICES: dict[str, dict[str, Any]] = {
    "status": {**dict(Status.choices), **dict(CompensationStatus.choices)},
    "outcome": dict(Outcome.choices),
}


def _label(key: str) -> str:
    if key.isdigit():  # a re-settlement keys amounts by player id
        return str(_("player #%(id)s") % {"id": key})
    return str(LABELS.get(key, key.replace("_", " ")))


def _shown(key: str, value: Any) -> str:
    if value is None or value == "":
        return "—"
    if key in CHOICES and value in CHOICES[key]:
        return str(CHOICES[key][value])
    if key.isdigit() and isinstance(value, int):
        return format_signed_xu(value)
    if key in XU_KEYS and isinstance(value, int):
        return format_xu(value)
    if key in {"transfer", "moderator"} and isinstance(value, int):
        return f"#{value}"
    if isinstance(value, list):
        return ", ".join(f"#{item}" if isinstance(item, int) else str(item) for item in value)
    if isinstance(value, str) and (moment := parse_datetime(value)) is not None:
        return str(formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT"))
    if isinstance(value, dict):
        return "; ".join(f"{_label(str(k))}: {_shown(str(k), v)}" for k, v in value.items())
    return str(value)


@register.simple_tag
def audit_values(values: Any) -> str:
    """A recorded before/after state as a short list of "label: value" lines (— if empty)."""
    if not isinstance(values, dict) or not values:
        return "—"
    return format_html(
        '<ul class="audit-values">{}</ul>',
        format_html_join(
            "", "<li><b>{}</b>: {}</li>", ((_label(k), _shown(k, v)) for k, v in values.items())
        ),
    )


@register.filter
def action_label(code: str) -> str:
    """A staff action in words ("Claimed a case"), never its code ("claim")."""
    try:
        return str(ActionKind(code).label)
    except ValueError:
        return code


@register.filter
def rules_facts(rules: dict[str, Any] | None) -> list[tuple[str, str]]:
    """A round's stored rules as lines a moderator reads: the preset, the bonuses and
    instant wins by name, the scoops, the timers and what a late hand does."""
    from django.utils import translation

    from games.rules.instant import INSTANT_NAMES
    from games.rules.presets import BONUS_NAMES

    if not rules:
        return []
    english = translation.get_language() == "en"
    presets = {"portal": _("Portal"), "classic": _("Classic")}
    preset = rules.get("preset", "")

    def named(names: dict[str, tuple[str, str]], values: dict[str, int]) -> str:
        shown = [f"{names.get(k, (k, k))[1 if english else 0]} {v}" for k, v in values.items() if v]
        return ", ".join(shown)

    scoops = _("sập 3 chi ×%(one)s, sập làng ×%(all)s from %(n)s opponent(s)") % {
        "one": rules.get("scoop_one"),
        "all": rules.get("scoop_all"),
        "n": rules.get("scoop_all_min"),
    }
    timers = _("deal after %(start)s s, arrange %(arrange)s s, each chi %(reveal)s s") % {
        "start": rules.get("start_seconds"),
        "arrange": rules.get("arrange_seconds"),
        "reveal": rules.get("reveal_seconds"),
    }
    late = _("binh lủng") if rules.get("on_timeout") == "foul" else _("played for its owner")
    return [
        (str(_("Preset")), str(presets.get(preset, preset))),
        (str(_("Bonuses (units)")), named(BONUS_NAMES, rules.get("bonus") or {})),
        (str(_("Mậu binh (units)")), named(INSTANT_NAMES, rules.get("instant") or {})),
        (str(_("Sập")), str(scoops)),
        (str(_("Timers")), str(timers)),
        (str(_("A hand not sent in time")), str(late)),
    ]
