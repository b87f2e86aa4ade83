"""Staff reach the admin only with a second factor (ZEUS_STAFF_MFA; production's default is on).

A staff member without an active factor is sent to set one up (/accounts/2fa/); one whose session has not
passed a second factor (signed in before setting it up, say) is asked for it (/accounts/2fa/reauthenticate/)
and comes back. The admin's own login form stays reachable: it is a password check like any other, and what
it lets in is then held here.
"""

from allauth.account.authentication import get_authentication_records
from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.utils.http import urlencode
from django.utils.translation import gettext as _

ADMIN_PREFIX = "/admin/"
ADMIN_OPEN = ("/admin/login/", "/admin/logout/")


def session_passed_mfa(request) -> bool:
    return any(record.get("method") == "mfa" for record in get_authentication_records(request, request.user))


class StaffMfaMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.ZEUS_STAFF_MFA and self._holds(request):
            return self._redirect(request)
        return self.get_response(request)

    @staticmethod
    def _holds(request) -> bool:
        path = request.path
        if not path.startswith(ADMIN_PREFIX) or path.startswith(ADMIN_OPEN):
            return False
        user = request.user
        return user.is_authenticated and user.is_staff and not (is_mfa_enabled(user) and session_passed_mfa(request))

    @staticmethod
    def _redirect(request):
        query = urlencode({"next": request.get_full_path()})
        if not is_mfa_enabled(request.user):
            messages.warning(request, _("Set up a second factor to reach the administration."))
            return HttpResponseRedirect(f"/accounts/2fa/?{query}")
        return HttpResponseRedirect(f"/accounts/2fa/reauthenticate/?{query}")
