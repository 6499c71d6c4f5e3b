from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import services
from accounts.addresses import UNKNOWN, client_address
from accounts.errors import AccountError
from accounts.forms import ProfileForm, SignUpForm
from accounts.middleware import SUPPORTED
from accounts.models import User


def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    # The sign-up grant is limited per client address and day (docs/ledger.md).
    address = client_address(request) or UNKNOWN
    if request.method == "POST" and form.is_valid():
        user = services.sign_up(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
            email=form.cleaned_data["email"],
            language=getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE),
            address=address,
        )
        login(request, user, backend="accounts.backends.PeopleOnlyBackend")
        welcome = {
            "name": user.shown_name,
            "amount": settings.SIGNUP_GRANT_XU,
            "granted": user.signup.granted,
            "per_day": settings.SIGNUP_GRANTS_PER_ADDRESS_PER_DAY,
        }
        text = render_to_string("accounts/welcome.txt", welcome).strip()
        (messages.success if welcome["granted"] else messages.warning)(request, text)
        return redirect(safe_next(request) or "home")
    context = {
        "form": form,
        "signup_grant": settings.SIGNUP_GRANT_XU,
        "grants_per_day": settings.SIGNUP_GRANTS_PER_ADDRESS_PER_DAY,
        "grants_left": services.grants_left(address),
        "next": safe_next(request),
    }
    return render(request, "accounts/signup.html", context)


MAX_NEXT_LENGTH = 2000


def safe_next(request: HttpRequest) -> str:
    """Where to go next (after signing up, a language switch, a form): the ``next`` of the
    POST or the query when it is a path on this site, or "" (an open redirect otherwise)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    # A path: "-1" or a view name would be taken by redirect() for a URL pattern name, and a
    # very long one is refused by Django's redirect (a 400) rather than followed.
    if not target.startswith("/") or len(target) > MAX_NEXT_LENGTH:
        return ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    initial = {"display_name": user.display_name, "language": user.preferred_language}
    form = ProfileForm(request.POST or None, initial=initial, user=user)
    if request.method == "POST" and form.is_valid():
        services.update_profile(
            user,
            display_name=form.cleaned_data["display_name"],
            language=form.cleaned_data["language"],
        )
        response = redirect("accounts:profile")
        set_language_cookie(response, user.preferred_language)
        messages.success(request, _("Your profile was saved."))
        return response
    return render(request, "accounts/profile.html", {"form": form, "profile_user": user})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language switch: remembered in a cookie, and on the account when logged in."""
    language = request.POST.get("language", "")
    response = HttpResponseRedirect(safe_next(request) or "/")
    if language not in SUPPORTED:
        messages.error(request, _("This language is not supported."))
        return response
    if request.user.is_authenticated:
        try:
            services.set_preferred_language(request.user, language)
        except AccountError as exc:
            messages.error(request, str(exc.message))
    set_language_cookie(response, language)
    return response


SOUND_VALUES = {"on": True, "off": False}


@login_required
@require_POST
def set_sound(request: HttpRequest) -> JsonResponse:
    """The table's mute switch (``sound=on|off``), kept on the account for every device."""
    value = request.POST.get("sound", "")
    if value not in SOUND_VALUES:
        message = _("Sound is either on or off.")
        return JsonResponse({"error": "bad_sound", "message": message}, status=400)
    user: User = request.user  # type: ignore[assignment]
    services.set_sound(user, on=SOUND_VALUES[value])
    return JsonResponse({"sound": value})


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """One set of flags for every place that remembers the language in a cookie."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )
