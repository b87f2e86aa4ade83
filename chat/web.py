"""The /chat page: one template; the browser talks to the chat REST API and the websocket itself."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from zeus.selectors import profile_get


@login_required
@require_GET
def chat_page(request, thread_id=None):
    profile = profile_get(user=request.user)
    config = {
        "threadId": str(thread_id) if thread_id else None,
        "currency": profile.currency,
        "username": request.user.get_username(),
    }
    return render(request, "chat/chat.html", {"chat_config": config})
