"""Sign-in throttling (django-axes; docs/security.md, "Defences").

Every password check goes through `django.contrib.auth.authenticate`: the login page, the admin's login and
`POST /api/v1/auth/token`. django-axes counts the failures per account and per address in the database
(staff lift a lockout by deleting its access attempt in the admin) and, once either reaches the limit,
answers here: 429 with `Retry-After`, JSON under `/api/`, a page elsewhere.
"""

from axes.helpers import get_cool_off
from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext


def lockout_response(request, original_response=None, credentials=None):
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds()) if cool_off else 3600
    minutes = max(1, round(seconds / 60))
    message = ngettext(
        "Too many failed sign-in attempts. Try again in %(minutes)s minute, or ask support to unlock it.",
        "Too many failed sign-in attempts. Try again in %(minutes)s minutes, or ask support to unlock it.",
        minutes,
    ) % {"minutes": minutes}
    headers = {"Retry-After": str(seconds)}
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "RATE_LIMITED", "message": message}}, status=429, headers=headers)
    response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def client_address(request) -> str | None:
    """The address failures count against. Behind the reverse proxy every request arrives from the proxy's own
    address, and one lockout would then shut everyone out: a request from a trusted proxy (ZEUS_TRUSTED_PROXIES)
    counts against the X-Real-IP the proxy sets (deploy/nginx.conf). Anyone else's header is ignored."""
    remote = request.META.get("REMOTE_ADDR")
    if remote in settings.ZEUS_TRUSTED_PROXIES:
        return request.META.get("HTTP_X_REAL_IP") or remote
    return remote
