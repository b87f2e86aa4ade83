"""HTML pages of the chat app owned by the chat loop: the personal provider key and the MCP token, each a page
of its own and a panel of /settings (registered in chat/apps.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from chat.mcp.selectors import mcp_token_active
from chat.mcp.services import mcp_token_create, mcp_token_revoke
from chat.selectors import provider_key_exists
from chat.services import provider_key_clear, provider_key_set
from zeus.errors import ValidationFailed


def _back(request, default: str):
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        return redirect(target)
    return redirect(default)


def provider_key_panel_ctx(request, today=None) -> dict:
    return {"has_key": provider_key_exists(user=request.user), "next": "/settings"}


def mcp_token_panel_ctx(request, today=None) -> dict:
    return {"mcp_token": mcp_token_active(user=request.user)}


@login_required
@require_http_methods(["GET", "POST"])
def provider_settings(request):
    error = None
    if request.method == "POST":
        if request.POST.get("action") == "clear":
            provider_key_clear(user=request.user)
            messages.success(request, _("Your personal key was removed."))
            return _back(request, "/chat/settings")
        try:
            provider_key_set(user=request.user, api_key=request.POST.get("api_key", ""))
        except ValidationFailed as exc:
            # The service's rule, in the person's language.
            error = _("That does not look like an API key.") if "api_key" in (exc.fields or {}) else exc.message
        else:
            messages.success(request, _("Your personal key was saved."))
            return _back(request, "/chat/settings")
    return render(
        request,
        "chat/settings.html",
        {**provider_key_panel_ctx(request), "next": "", "key_error": error},
        status=400 if error else 200,
    )


@never_cache
@login_required
@require_POST
def mcp_token_action(request):
    """Creates (or replaces) the MCP token and shows it once, or revokes it."""
    if request.POST.get("action") == "revoke":
        mcp_token_revoke(user=request.user)
        messages.success(request, _("Your MCP token was revoked."))
        return _back(request, "/settings")
    issued = mcp_token_create(user=request.user)
    return render(request, "chat/mcp_token_created.html", {"raw_token": issued.raw})


urlpatterns = [
    path("chat/settings", provider_settings, name="chat-settings"),
    path("chat/mcp-token", mcp_token_action, name="chat-mcp-token"),
]
