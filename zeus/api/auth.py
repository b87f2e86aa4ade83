from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed


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
