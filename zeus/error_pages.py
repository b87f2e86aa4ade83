"""The pages a person sees for a wrong address or a fault: in their language, inside the site's layout (the
500 page stands alone, as the fault may be the database the layout reads). Under /api/ the JSON error shape
of zeus.api.errors answers instead.

Django ignores handler404 while DEBUG is on and shows its debug page; `make run` runs with DEBUG, so the
middleware here gives unknown addresses the same page there. A fault under DEBUG keeps Django's traceback page,
which is what a developer needs."""

from django.conf import settings
from django.http import Http404
from django.views import defaults

from zeus.api import errors


def page_not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return errors.not_found(request, exception)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith("/api/"):
        return errors.server_error(request)
    return defaults.server_error(request)


class DebugNotFoundMiddleware:
    """Under DEBUG only: a 404 of an address no route knows, or an Http404 raised by a view, renders 404.html."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code == 404
            and request.resolver_match is None
            and not request.path.startswith("/api/")
        ):
            return page_not_found(request)
        return response

    def process_exception(self, request, exception):
        if settings.DEBUG and isinstance(exception, Http404) and not request.path.startswith("/api/"):
            return page_not_found(request, exception)
        return None
