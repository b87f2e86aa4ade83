"""A locked account (erasure requested) can only cancel: a sign-in after the request is marked in its session,
and this middleware confines such a session to the erasure page, its cancel and sign-out. Sessions from before
the request were ended by it (erasure.sessions_end), and the token API refuses a locked account, so the mark is
all a request needs to carry: no query per request."""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.shortcuts import redirect

from zeus.account_data.erasure import erasure_pending
from zeus.middleware import api_error, is_api

SESSION_MARK = "zeus_erasure_pending"
# The close code of an open socket whose sessions were ended (zeus.live's `session.end` message).
CLOSE_SIGNED_OUT = 4401
ERASURE_PAGE = "/account/erasure"
_OPEN = (ERASURE_PAGE, "/api/v1/account/delete/cancel", "/accounts/logout/", "/static/", "/jsi18n/", "/healthz",
         "/readyz")  # fmt: skip


@receiver(user_logged_in, dispatch_uid="zeus.account_data.lock")
def _mark_locked_sign_in(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session") and erasure_pending(user=user) is not None:
        request.session[SESSION_MARK] = True


def session_locked(session) -> bool:
    """For the chat socket's handshake (sync: a session may still have to be read)."""
    return bool(session is not None and session.get(SESSION_MARK))


class ErasureLockMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            settings.SESSION_COOKIE_NAME in request.COOKIES
            and request.session.get(SESSION_MARK)
            and not request.path_info.startswith(_OPEN)
        ):
            if is_api(request):
                return api_error(
                    403,
                    "This account is to be erased; the only thing it can do is cancel that.",
                    code="ACCOUNT_ERASURE_PENDING",
                )
            return redirect(ERASURE_PAGE)
        return self.get_response(request)
