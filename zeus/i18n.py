"""Which language a request is answered in (docs/i18n.md).

A signed-in person: their profile's `language`. Anyone else (the log-in and sign-up pages, an API call before
its token is read): the browser's Accept-Language when it names a language Zeus speaks, else Vietnamese (English
for the API, whose callers are programs).
"""

import functools
import hashlib
from pathlib import Path

from django.conf import settings
from django.http import Http404
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.i18n import JavaScriptCatalog

from zeus.selectors import profile_get

SUPPORTED = {code for code, _ in settings.LANGUAGES}


# A program calling the API with a token names no language: its messages stay in English, the API's own.
API_DEFAULT = "en"


def browser_language(request, default: str | None = None) -> str:
    """The first language of Accept-Language that Zeus speaks; `default` (Vietnamese) when none is."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _quality in translation.trans_real.parse_accept_lang_header(header):
        base = code.split("-")[0].lower()
        if base in SUPPORTED:
            return base
    return default or settings.LANGUAGE_CODE


def user_language(user) -> str:
    """The language to write to `user` in (pages, notifications, the assistant)."""
    language = profile_get(user=user).language
    return language if language in SUPPORTED else settings.LANGUAGE_CODE


class UserLanguageMiddleware:
    """Activates the person's language for the request, like Django's LocaleMiddleware but chosen by the
    profile rather than by the URL or a cookie; so one setting follows the person to every device."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        if signed_in:
            language = user_language(user)
        else:
            language = browser_language(request, default=API_DEFAULT if request.path.startswith("/api/") else None)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if not signed_in:
            patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        translation.deactivate()
        return response


@functools.cache
def js_catalog_version() -> str:
    """A fingerprint of the JavaScript catalogs, part of their URL: a changed catalog is a new URL, so each one
    can be cached by the browser for a year (the page's first load is its HTML plus cached files)."""
    digest = hashlib.sha256()
    for locale_dir in settings.LOCALE_PATHS:
        for po in sorted(Path(locale_dir).glob("*/LC_MESSAGES/djangojs.po")):
            digest.update(po.read_bytes())
    return digest.hexdigest()[:12]


def js_catalog(request, language: str, version: str):
    """Django's JavaScriptCatalog for one language, named by the URL rather than the request's user, so the
    response is the same for everyone and cacheable."""
    if language not in SUPPORTED:
        raise Http404
    with translation.override(language):
        response = JavaScriptCatalog.as_view(domain="djangojs")(request)
    if version == js_catalog_version():
        patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    return response


def i18n_context(request) -> dict:
    """Template context: the URL of the JavaScript catalog of the active language."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return {"js_catalog_url": f"/jsi18n/{language}/{js_catalog_version()}.js"}
