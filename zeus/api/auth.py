from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from zeus.accounts.selectors import device_token_authenticate
from zeus.accounts.services import device_token_touch
from zeus.selectors import profile_remember


class BearerTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, as the contract says; `Bearer <key>` is accepted too. The key is one
    device's token (zeus.models.DeviceToken, docs/accounts.md); DRF's header parsing and messages are kept.

    The header is read, not rewritten: DRF reads `request.headers`, a cached copy of META, so a rewrite
    of META is not seen once anything has looked at the headers.
    """

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != b"bearer":
            return super().authenticate(request)
        if len(parts) != 2:
            raise AuthenticationFailed(gettext("Invalid token header: use `Bearer <key>`."))
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise AuthenticationFailed(
                gettext("Invalid token header: the key has characters that are not allowed.")
            ) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key):
        """The device token's user, with the user's profile read in the same query: nearly every view needs
        the user's currency or clock, which would otherwise cost each request a second query."""
        token = device_token_authenticate(key=key)
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        user = token.user
        if not user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        profile = getattr(user, "profile", None)
        if profile is not None:
            profile_remember(user=user, profile=profile)
        device_token_touch(token=token)
        return user, token
