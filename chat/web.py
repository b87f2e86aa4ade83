"""The /chat page: one template; the browser talks to the chat REST API and the websocket itself. Until the
user's consent to the model provider holds (zeus/consent.py), the page opens on the consent panel: its form
posts to /settings/consent without JavaScript, and through the REST API with it."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from zeus.consent_pages import consent_context
from zeus.selectors import profile_get


@login_required
@require_GET
def chat_page(request, thread_id=None):
    profile = profile_get(user=request.user)
    consent = consent_context(request)
    config = {
        "threadId": str(thread_id) if thread_id else None,
        "currency": profile.currency,
        "username": request.user.get_username(),
    }
    return render(request, "chat/chat.html", {"chat_config": config, **consent, "consent_next": request.path})
