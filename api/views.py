"""The account's API tokens page: create (the secret shown once), list, revoke."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from oauth2_provider.models import get_access_token_model

from accounts.models import User
from api import services
from api.errors import ApiError
from api.forms import NewTokenForm
from api.models import PersonalToken


def _user(request: HttpRequest) -> User:
    return request.user  # type: ignore[return-value]


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = NewTokenForm(request.POST or None)
    secret = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                new = services.create_token(
                    user,
                    name=form.cleaned_data["name"],
                    scopes=form.cleaned_data["scopes"],
                    expires_at=form.expires_at(),
                )
            except ApiError as exc:
                form.add_error(None, exc.message)
                status = 400
            else:
                secret = new.secret
                form = NewTokenForm()
        else:
            status = 400
    rows = PersonalToken.objects.filter(user=user).order_by("-created_at")
    apps = (
        get_access_token_model()
        .objects.filter(user=user)
        .select_related("application")
        .order_by("-created")
    )
    context = {"form": form, "secret": secret, "rows": rows, "apps": apps}
    return render(request, "api/tokens.html", context, status=status)


@login_required
@require_POST
def revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    kind = request.POST.get("kind", "pat")
    try:
        if kind == "oauth":
            services.revoke_oauth_token(_user(request), token_id)
        else:
            services.revoke_token(_user(request), token_id)
    except ApiError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The token was revoked; it no longer works."))
    return redirect("api_tokens")
