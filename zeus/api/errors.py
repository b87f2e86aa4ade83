"""Every error leaves the API as `{"error": {"code", "message", "fields"}}` with a 4xx status."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response

from zeus.errors import ZeusError
from zeus.text import scrub_data

_CODES = {
    exceptions.ParseError: "MALFORMED_REQUEST",
    exceptions.AuthenticationFailed: "AUTHENTICATION_FAILED",
    exceptions.NotAuthenticated: "NOT_AUTHENTICATED",
    exceptions.PermissionDenied: "PERMISSION_DENIED",
    exceptions.NotFound: "NOT_FOUND",
    exceptions.MethodNotAllowed: "METHOD_NOT_ALLOWED",
    exceptions.NotAcceptable: "NOT_ACCEPTABLE",
    exceptions.UnsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
    exceptions.Throttled: "RATE_LIMITED",
    exceptions.ValidationError: "VALIDATION_ERROR",
}


def error_response(code: str, message: str, status_code: int, fields: dict | None = None, headers=None):
    body = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    # A message may quote the client's own text (an unknown key, a bad value): a lone surrogate in it would
    # fail the UTF-8 encoding of the answer, a 500 for a 400 (docs/security.md, "The text rule").
    return Response({"error": scrub_data(body)}, status=status_code, headers=headers)


def _flatten(detail):
    """DRF error details as plain strings: {"amount": ["..."]} or {"rows": {"3": {...}}}."""
    if isinstance(detail, dict):
        return {str(k): _flatten(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_flatten(v) for v in detail]
    return str(detail)


def _first_message(fields) -> str:
    if isinstance(fields, dict):
        for key, value in fields.items():
            inner = _first_message(value)
            return inner if key == "non_field_errors" else f"{key}: {inner}"
    if isinstance(fields, list) and fields:
        return _first_message(fields[0])
    return str(fields)


def exception_handler(exc, context):
    if isinstance(exc, ZeusError):
        return error_response(exc.code, exc.message, exc.status, exc.fields)
    if isinstance(exc, Http404):
        return error_response("NOT_FOUND", _("Not found."), status.HTTP_404_NOT_FOUND)
    if isinstance(exc, DjangoPermissionDenied):
        return error_response("PERMISSION_DENIED", _("Permission denied."), status.HTTP_403_FORBIDDEN)
    if isinstance(exc, DjangoValidationError):
        fields = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return error_response("VALIDATION_ERROR", _first_message(fields), 400, fields)
    if isinstance(exc, exceptions.APIException):
        code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "ERROR")
        headers = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))
        if isinstance(exc, exceptions.ValidationError):
            fields = _flatten(exc.detail)
            if isinstance(fields, list):
                fields = {"non_field_errors": fields}
            return error_response(code, _first_message(fields), exc.status_code, fields, headers)
        return error_response(code, str(exc.detail), exc.status_code, headers=headers)
    return None


def not_found(request, exception=None):
    """Django's 404 for a path no route matches; JSON under /api/ so API clients see one error shape."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "NOT_FOUND", "message": _("Not found.")}}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"error": {"code": "SERVER_ERROR", "message": _("Something went wrong on our side.")}}, status=500
        )
    return defaults.server_error(request)
