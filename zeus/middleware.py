"""Request edges every route shares (docs/security.md).

- The text rule for query strings and form bodies: a NUL is refused with 400 before any view sees it
  (forms and query strings are decoded with replacement, so a lone surrogate cannot arrive this way).
- Under `/api/` every error is the JSON error shape, whatever produced it (Django's own 404 and 500 pages,
  a CSRF failure, DEBUG's technical pages), in every settings module.
- A dependency that is down (PostgreSQL, Redis, the broker) is a 503 with `Retry-After`, never a 500.
- A body is bounded by what it says it holds before anything reads it: 413 `PAYLOAD_TOO_LARGE` over the
  view's `max_body_bytes` (set with `body_limit`; DATA_UPLOAD_MAX_MEMORY_SIZE otherwise).
"""

import logging
import re
import sys

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.signals import got_request_exception
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from zeus.dependencies import is_dependency_down, unavailable_answer
from zeus.text import is_storable

log = logging.getLogger(__name__)

_CODES = {
    400: "BAD_REQUEST",
    401: "NOT_AUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "PAYLOAD_TOO_LARGE",
    414: "URI_TOO_LONG",
    429: "RATE_LIMITED",
    503: "SERVICE_UNAVAILABLE",
}
_MESSAGES = {
    403: gettext_lazy("Permission denied."),
    404: gettext_lazy("Not found."),
    405: gettext_lazy("Method not allowed."),
    503: gettext_lazy("A service Zeus depends on is unavailable; try again shortly."),
}
_LENGTH = re.compile(r"[0-9]{1,15}")  # ASCII digits only: str.isdigit() also takes "¹", which int() refuses
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_MARK = "_zeus_dependency_down"


def is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def api_error(status: int, message: str | None = None, *, code=None, fields=None, headers=None) -> JsonResponse:
    body = {"code": code or _CODES.get(status, "SERVER_ERROR" if status >= 500 else "BAD_REQUEST")}
    body["message"] = str(
        message
        or _MESSAGES.get(status)
        or (_("Something went wrong on our side.") if status >= 500 else _("The request could not be handled."))
    )
    if fields:
        body["fields"] = fields
    return JsonResponse({"error": body}, status=status, headers=headers)


def unavailable(request, exc: BaseException | None = None) -> HttpResponse:
    """A 503 that touches nothing: no template context, no session, no user (the database may be down).
    Overload (every pooled connection in use) says so: SERVER_BUSY, retry in a second."""
    code, message, retry_after = unavailable_answer(exc)
    headers = {"Retry-After": str(retry_after)}
    if is_api(request):
        return api_error(503, message, code=code, headers=headers)
    page = (
        "<!doctype html><html lang=en><meta charset=utf-8><title>Zeus is unavailable</title>"
        "<h1>Zeus is unavailable</h1><p>A service Zeus depends on is down. This page will work again in a"
        " few seconds; reload it then.</p></html>"
    )
    return HttpResponse(page, status=503, headers=headers)


@receiver(got_request_exception)
def _mark_dependency_down(sender, request=None, **kwargs):
    # Django sends this inside its `except` block, before it renders its 500 (or DEBUG's technical page).
    exc = sys.exc_info()[1]
    if request is not None and is_dependency_down(exc):
        setattr(request, _MARK, exc)


class EdgeMiddleware:
    """Outermost: it sees every response, including those Django built from an exception."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = "path" if not is_storable(request.path) else _first_bad_field(request.GET)
        if field is not None:
            with translation.override(_edge_language(request)):
                return _refuse_nul(request, field)
        response = self.get_response(request)
        down = getattr(request, _MARK, None)
        if down is not None:
            log.warning("%s %s: a dependency is down or busy, answered 503", request.method, request.path)
            with translation.override(_edge_language(request)):
                return unavailable(request, down)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            with translation.override(_edge_language(request)):
                return api_error(response.status_code, headers=_kept_headers(response))
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        # The path was checked in __call__ (a URL's captured text, a webhook's token, reaches queries as it is);
        # the body only here, where its view and so its limit are known, and before any middleware reads it.
        limit = _body_limit(view_func)
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not _LENGTH.fullmatch(declared) or int(declared) > limit:
            return _too_large(request, limit)
        if request.method != "POST" or request.content_type not in _FORM_TYPES:
            return None
        try:
            form = request.POST
        except RequestDataTooBig:
            return _too_large(request, limit)
        except Exception:  # a malformed body: the view reports it as it always has
            return None
        field = _first_bad_field(form)
        return None if field is None else _refuse_nul(request, field)


def body_limit(max_bytes: int):
    """A view's own bound on its request body (an upload route), in place of DATA_UPLOAD_MAX_MEMORY_SIZE."""

    def mark(view):
        view.max_body_bytes = max_bytes
        return view

    return mark


def _body_limit(view_func) -> int:
    for holder in (view_func, getattr(view_func, "view_class", None), getattr(view_func, "cls", None)):
        limit = getattr(holder, "max_body_bytes", None)
        if limit is not None:
            return limit
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _edge_language(request) -> str:
    """The language of a refusal made outside the request's own (before zeus.i18n activates it, or after it
    has let it go): the one it chose for this request, else the browser's, else English for the API."""
    from zeus.i18n import API_DEFAULT, browser_language  # here: zeus.i18n reads profiles (models)

    chosen = getattr(request, "LANGUAGE_CODE", None)
    return chosen or browser_language(request, default=API_DEFAULT if is_api(request) else None)


def _too_large(request, limit: int) -> HttpResponse:
    if is_api(request):
        message = _("The request body is larger than %(limit)s bytes.") % {"limit": limit}
        return api_error(413, message, code="PAYLOAD_TOO_LARGE")
    from zeus.formatting import number_text  # Babel, imported when a page needs it (tests/test_startup.py)

    # A page's refusal is read by a person (a phone's share sheet shows it as it is): in their language.
    # Whole megabytes, rounded down: what the file itself may weigh, its envelope aside.
    size = number_text(max(limit // (1024 * 1024), 1))
    message = _("This file or form is too large: at most %(size)s MB. Nothing was saved.") % {"size": size}
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")


def _refuse_nul(request, field: str) -> HttpResponse:
    if is_api(request):
        message = _("%(field)s: text with a NUL character cannot be stored.") % {"field": field}
        return api_error(400, message, code="INVALID_TEXT", fields={field: [_("Contains a NUL character.")]})
    message = _("What was sent holds a character that cannot be stored (NUL). Nothing was saved.")
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def _first_bad_field(query) -> str | None:
    for key, values in query.lists():
        if not is_storable(key):
            return "query"
        if any(not is_storable(value) for value in values):
            return key
    return None


def _is_json(response) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


def _kept_headers(response) -> dict:
    return {name: response[name] for name in ("Allow", "Retry-After", "WWW-Authenticate") if response.has_header(name)}
