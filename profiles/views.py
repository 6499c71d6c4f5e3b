"""Profiles, the player's statistics page, leaderboards and avatars. One call thick."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.models import User
from games.models import Preset
from profiles import avatars, charts, selectors, services
from profiles.models import GENERATED_AVATARS, Period, Profile, UploadedAvatar
from ratings import selectors as ratings

# A picture needs nothing: no script, no style sheet, no request of its own; sandboxed.
AVATAR_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"


def avatar_url(user: User, profile: Profile | None = None) -> str:
    profile = profile or selectors.profile_of(user)
    return reverse(
        "profiles:avatar", kwargs={"user_id": user.pk, "version": profile.avatar_version}
    )


def _player(user_id: int) -> User:
    return get_object_or_404(User, pk=user_id, is_active=True)


@require_GET
def profile(request: HttpRequest, user_id: int) -> HttpResponse:
    player = _player(user_id)
    choices = selectors.profile_of(player)
    return render(
        request,
        "profiles/profile.html",
        {
            "player": player,
            "avatar": avatar_url(player, choices),
            "figures": selectors.figures(player),
            "recent": selectors.recent_rounds(player, viewer=request.user),
            "ratings": _named_presets(ratings.ratings_of(player)),
            "is_me": request.user.is_authenticated and request.user.pk == player.pk,
        },
    )


def _named_presets(found: list[ratings.PresetRating]) -> list[dict[str, object]]:
    names = dict(Preset.choices)
    return [
        {
            "preset": r.preset,
            "name": names.get(r.preset, r.preset),
            "display": r.display,
            "rounds": r.rounds,
        }
        for r in found
    ]


@require_GET
def avatar(request: HttpRequest, user_id: int, version: int) -> HttpResponse:
    """The picture, served as data with its own type: never sniffed, never a document."""
    player = _player(user_id)
    choices = selectors.profile_of(player)
    upload = UploadedAvatar.objects.filter(user=player).first() if choices.has_upload else None
    if upload is not None:
        response = HttpResponse(bytes(upload.data), content_type=upload.content_type)
    else:
        svg = avatars.generated_svg(player.pk, choices.avatar)
        response = HttpResponse(svg, content_type="image/svg+xml")
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = AVATAR_CSP
    response["Content-Disposition"] = "inline"
    # The version is in the address and changes with the picture; an old address may
    # still be asked for: it gets the current picture, cached briefly.
    current = version == choices.avatar_version
    response["Cache-Control"] = (
        "public, max-age=31536000, immutable" if current else "public, max-age=60"
    )
    return response


@login_required
def edit_avatar(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    choices = selectors.profile_of(user)
    if request.method == "POST":
        try:
            if "picture" in request.FILES:
                services.upload_avatar(user, request.FILES["picture"])
            else:
                services.choose_avatar(user, _int(request.POST.get("avatar")))
        except avatars.AvatarRefused as refused:
            messages.error(request, refused.message)
            return render(
                request, "profiles/avatar.html", _avatar_context(user, choices), status=400
            )
        messages.success(request, _("Your avatar was saved."))
        return redirect("profiles:profile", user_id=user.pk)
    return render(request, "profiles/avatar.html", _avatar_context(user, choices))


def _int(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        return -1


def _avatar_context(user: User, choices: Profile) -> dict[str, object]:
    return {
        "current": avatar_url(user, choices),
        "has_upload": choices.has_upload,
        "chosen": None if choices.has_upload else choices.avatar,
        "generated": [
            (i, reverse("profiles:generated_avatar", kwargs={"user_id": user.pk, "index": i}))
            for i in range(GENERATED_AVATARS)
        ],
    }


@require_GET
def generated_avatar(request: HttpRequest, user_id: int, index: int) -> HttpResponse:
    """One of the set a player chooses from (shown on the avatar page)."""
    player = _player(user_id)
    if index >= GENERATED_AVATARS:
        return HttpResponse(status=404)
    response = HttpResponse(avatars.generated_svg(player.pk, index), content_type="image/svg+xml")
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = AVATAR_CSP
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@login_required
@require_GET
def my_stats(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    days = selectors.daily_history(user)
    return render(
        request,
        "profiles/stats.html",
        {
            "player": user,
            "figures": selectors.figures(user),
            "rounds_chart": charts.rounds_chart(days),
            "net_chart": charts.net_chart(days),
            "weeks": selectors.weekly_history(user),
        },
    )


def _rating_board(request: HttpRequest, preset: str) -> dict[str, object]:
    """The preset's board by rating (a rating is current: it has no period)."""
    entries = selectors.rating_board(preset)
    mine = None
    if request.user.is_authenticated:
        mine = selectors.rating_rank_of(request.user, preset)
    shown = mine is not None and any(e.user_id == mine.user_id for e in entries)
    return {
        "kind": "rating",
        "title": _("Rating"),
        "entries": entries,
        "mine": None if shown else mine,
    }


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    period = request.GET.get("period", Period.DAY)
    period = period if period in Period.values else Period.DAY
    preset = request.GET.get("preset", Preset.PORTAL)
    preset = preset if preset in Preset.values else Preset.PORTAL
    boards: list[dict[str, object]] = []
    for kind, title in (
        (selectors.Board.NET, _("Net xu won")),
        (selectors.Board.ROUNDS, _("Rounds played")),
    ):
        entries = selectors.board(kind, period, preset)
        mine = None
        if request.user.is_authenticated:
            mine = selectors.rank_of(request.user, kind, period, preset)
        shown = mine is not None and any(e.user_id == mine.user_id for e in entries)
        boards.append(
            {"kind": kind, "title": title, "entries": entries, "mine": None if shown else mine}
        )
    boards.append(_rating_board(request, preset))
    return render(
        request,
        "profiles/leaderboards.html",
        {
            "boards": boards,
            "period": period,
            "preset": preset,
            "periods": Period.choices,
            "presets": Preset.choices,
        },
    )
