"""HTML pages of the chat app owned by the chat loop: the personal provider key settings."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.views.decorators.http import require_http_methods

from chat.selectors import provider_key_exists
from chat.services import provider_key_clear, provider_key_set
from zeus.errors import ValidationFailed


@login_required
@require_http_methods(["GET", "POST"])
def provider_settings(request):
    error = None
    if request.method == "POST":
        if request.POST.get("action") == "clear":
            provider_key_clear(user=request.user)
            messages.success(request, "Your personal key was removed.")
            return redirect("/chat/settings")
        try:
            provider_key_set(user=request.user, api_key=request.POST.get("api_key", ""))
        except ValidationFailed as exc:
            error = exc.message
        else:
            messages.success(request, "Your personal key was saved.")
            return redirect("/chat/settings")
    return render(
        request,
        "chat/settings.html",
        {"has_key": provider_key_exists(user=request.user), "error": error},
        status=400 if error else 200,
    )


urlpatterns = [path("chat/settings", provider_settings, name="chat-settings")]
