"""Sign-in throttling (django-axes; docs/security.md, "Defences").

Every password check goes through `django.contrib.auth.authenticate`: the login page (allauth's), the admin's
login and `POST /api/v1/auth/token`. django-axes counts the failures per account and per address in the database
(staff lift a lockout by deleting its access attempt in the admin) and, once either reaches the limit,
answers here: 429 with `Retry-After`, JSON under `/api/`, a page elsewhere.
"""

import ipaddress

from allauth.account.utils import filter_users_by_email
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


def client_username(request, credentials=None) -> str | None:
    """The account a failure counts against (AXES_USERNAME_CALLABLE), whichever of its names was typed.

    allauth signs in by username or e-mail and passes either as `username` or `email`; counted as typed, a
    guesser would get the limit once per name of the account. An e-mail address that belongs to an account
    counts as that account's username.
    """
    typed = None
    if credentials:
        typed = credentials.get("username") or credentials.get("email") or credentials.get("login")
    if typed is None:
        data = getattr(request, "data", None) or request.POST
        typed = data.get("login") or data.get("username")
    if not isinstance(typed, str) or "@" not in typed or "\x00" in typed or len(typed) > 254:
        return typed
    users = filter_users_by_email(typed)
    return users[0].get_username() if len(users) == 1 else typed


def client_ip(request) -> str | None:
    """The address sign-in attempts are counted under (AXES_CLIENT_IP_CALLABLE).

    Behind a load balancer every request comes from the balancer's address: counted under it, five bad passwords
    from anyone would lock every user out. A request from a proxy named in ZEUS_TRUSTED_PROXIES is counted under
    the address that proxy reports, the right-most in `X-Forwarded-For` that is not itself a trusted proxy (the
    left part of the header is whatever the client wrote). From anyone else the header is ignored.
    """
    remote = request.META.get("REMOTE_ADDR")
    if not _is_trusted(remote):
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for address in reversed(forwarded):
        if _address(address) is None:
            break
        if not _is_trusted(address):
            return address
    return remote


def _address(text: str | None):
    try:
        return ipaddress.ip_address(text or "")
    except ValueError:
        return None


def _is_trusted(text: str | None) -> bool:
    address = _address(text)
    return address is not None and any(address in network for network in _trusted_networks())


def _trusted_networks() -> tuple:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in settings.ZEUS_TRUSTED_PROXIES)
