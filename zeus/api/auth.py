from rest_framework.authentication import TokenAuthentication


class BearerTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, as the contract says; `Bearer <key>` is accepted too."""

    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if header.lower().startswith("bearer "):
            request.META["HTTP_AUTHORIZATION"] = "Token " + header[7:]
        return super().authenticate(request)
