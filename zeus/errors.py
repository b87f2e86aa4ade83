"""Domain errors. Services raise them; the REST layer, the websocket and the tools turn them into
`{"error": {"code", "message", "fields"}}`, an error frame or an `is_error` tool result."""

from django.utils.translation import gettext as _


class ZeusError(Exception):
    status = 400
    code = "BAD_REQUEST"

    def __init__(self, message: str, *, code: str | None = None, fields: dict | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.fields = fields or {}

    def as_dict(self) -> dict:
        body = {"code": self.code, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return body


class ValidationFailed(ZeusError):
    status = 400
    code = "VALIDATION_ERROR"


class NotFound(ZeusError):
    status = 404
    code = "NOT_FOUND"


class Conflict(ZeusError):
    status = 409
    code = "CONFLICT"


class SyncedReadOnly(Conflict):
    code = "SYNCED_READ_ONLY"

    def __init__(self, what: str, *, fields: dict | None = None):
        """`what`: transaction, asset or account; any other text is the whole message, already worded."""
        said = {
            "transaction": _("This transaction is synced from a linked account and cannot be changed here."),
            "asset": _("This asset is synced from a linked account and cannot be changed here."),
            "account": _("This account is synced from a linked account and cannot be changed here."),
        }
        super().__init__(said.get(what) or what, fields=fields)


class SecondFactorRequired(ZeusError):
    """The password was right, and the account also has a second factor whose code was missing or wrong."""

    status = 401
    code = "MFA_REQUIRED"


class TooManyAttempts(ZeusError):
    status = 429
    code = "RATE_LIMITED"
