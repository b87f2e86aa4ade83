"""/settings/security: the second factors, the signed-in sessions and the API's device tokens, each
revocable from here (docs/accounts.md). Setting up a factor is allauth's (/accounts/2fa/)."""

from allauth.mfa.models import Authenticator
from allauth.usersessions.forms import ManageUserSessionsForm
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from zeus.accounts.selectors import authenticator_list, device_token_list, user_session_list
from zeus.accounts.services import NAME_MAX, device_token_create, device_token_revoke, user_session_end
from zeus.errors import ZeusError
from zeus.forms import add_service_error, page_paths, service_action
from zeus.selectors import profile_get

PAGE = "/settings/security"
FACTOR_NAMES = {
    Authenticator.Type.TOTP: gettext_lazy("Authenticator app"),
    Authenticator.Type.RECOVERY_CODES: gettext_lazy("Recovery codes"),
    Authenticator.Type.WEBAUTHN: gettext_lazy("Passkey"),
}


class DeviceTokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Device name"),
        max_length=NAME_MAX,
        help_text=gettext_lazy("What you will recognise it by: “Lan's phone”, “budget script”."),
    )


def _render(request, *, form=None, issued=None, status=200):
    factors = [
        {"authenticator": a, "name": FACTOR_NAMES.get(a.type, a.type), "label": _factor_label(a)}
        for a in authenticator_list(user=request.user)
    ]
    context = {
        "factors": factors,
        "has_totp": any(f["authenticator"].type == Authenticator.Type.TOTP for f in factors),
        "sessions": user_session_list(user=request.user),
        "current_session_key": request.session.session_key,
        "tokens": device_token_list(user=request.user),
        "form": form or DeviceTokenForm(),
        "issued": issued,
        "tz": profile_get(user=request.user).tz,
    }
    return render(request, "zeus/settings_security.html", context, status=status)


def _factor_label(authenticator: Authenticator) -> str:
    if authenticator.type == Authenticator.Type.WEBAUTHN:
        return authenticator.wrap().name
    return ""


@login_required
def security_page(request):
    return _render(request)


@login_required
@require_http_methods(["POST"])
def token_create(request):
    form = DeviceTokenForm(request.POST)
    if form.is_valid():
        try:
            issued = device_token_create(user=request.user, name=form.cleaned_data["name"])
        except ZeusError as exc:
            add_service_error(form, exc)
        else:
            # The key is on this page once, never again: no redirect, which would lose it.
            return _render(request, issued=issued, status=201)
    return _render(request, form=form, status=400)


token_revoke = service_action(
    device_token_revoke,
    done=gettext_lazy("The token is revoked: the device it was on is signed out of the API."),
    to=PAGE,
)
session_end = service_action(user_session_end, done=gettext_lazy("That session is signed out."), to=PAGE)


@login_required
@require_POST
def sessions_end_others(request):
    ManageUserSessionsForm({}, request=request).save(request)
    messages.success(request, _("Every other session is signed out."))
    return HttpResponseRedirect(PAGE)


urlpatterns = [
    *page_paths("settings/security", security_page, name="settings-security"),
    path("settings/security/tokens", token_create, name="security-token-create"),
    path("settings/security/tokens/<int:token_id>/revoke", token_revoke, name="security-token-revoke"),
    path("settings/security/sessions/<int:session_id>/end", session_end, name="security-session-end"),
    path("settings/security/sessions/end-others", sessions_end_others, name="security-sessions-end-others"),
]
