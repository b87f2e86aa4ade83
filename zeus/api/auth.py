from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from zeus.selectors import profile_remember


class BearerTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, as the contract says; `Bearer <key>` is accepted too.

    The header is read, not rewritten: DRF reads `request.headers`, a cached copy of META, so a rewrite
    of META is not seen once anything has looked at the headers.
    """

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != b"bearer":
            return super().authenticate(request)
        if len(parts) != 2:
            raise AuthenticationFailed("Invalid token header: use `Bearer <key>`.")
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise AuthenticationFailed("Invalid token header: the key has characters that are not allowed.") from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key):
        """DRF's check (and its messages, which DRF's catalogs translate), with the user's profile read in the
        same query: nearly every view needs the user's currency or clock, which would otherwise cost each
        request a second query."""
        # A key no token can have (NUL, which PostgreSQL refuses in text, or longer than the column) is
        # simply wrong: the same 401, without asking the database.
        token = None
        if "\x00" not in key and len(key) <= _KEY_LENGTH:
            token = Token.objects.select_related("user__profile").filter(key=key).first()
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        user = token.user
        if not user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        profile = getattr(user, "profile", None)
        if profile is not None:
            profile_remember(user=user, profile=profile)
        return user, token


_KEY_LENGTH = Token._meta.get_field("key").max_length
