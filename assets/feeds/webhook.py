"""The URL SePay posts to. A plain Django view, not DRF: it has no session or token user (the URL's token
names the connection, the secret authenticates the delivery), and a feed that answers quickly is one that
SePay does not retry. Answers as SePay expects: 200 {"success": true} for a new or an already-known id,
401 for a missing or wrong key or signature, 400 with the error shape for a malformed payload, and (from
zeus.middleware) 503 when the database is lost mid-delivery: nothing stored, so SePay must retry."""

import logging
import time

from django.http import JsonResponse
from django.http.request import RawPostDataException
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from assets.feeds import signing
from assets.feeds.payload import MAX_BODY_BYTES, InvalidPayload, parse_body
from assets.feeds.selectors import sepay_delivery_context
from assets.feeds.services import sepay_connection_secret, sepay_delivery_land
from assets.models import SepayConnection
from zeus.account_data.erasure import webhook_retired
from zeus.middleware import body_limit

log = logging.getLogger(__name__)


def _error(status: int, code: str, message: str, fields: dict | None = None) -> JsonResponse:
    body = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return JsonResponse({"error": body}, status=status)


@body_limit(MAX_BODY_BYTES)
@csrf_exempt
@require_POST
def sepay_webhook(request, token: str):
    try:
        body, unreadable = request.body, None
    except RawPostDataException:
        # A form content type: the form was read (for the text rule) and the raw body is gone. SePay sends JSON.
        body, unreadable = b"", InvalidPayload("The body must be JSON (Content-Type: application/json).")
    context = sepay_delivery_context(token=token)
    if context is None:
        return _unknown(token)
    secret = sepay_connection_secret(context.secret_encrypted)
    if secret is None:
        return _error(401, "CONNECTION_SECRET_LOST", "Reconnect SePay: this connection's secret is unreadable.")
    try:
        if context.auth == SepayConnection.Auth.HMAC:
            signing.check_hmac(
                secret,
                timestamp=request.headers.get("X-SePay-Timestamp", ""),
                signature=request.headers.get("X-SePay-Signature", ""),
                body=body,
                now=time.time(),
            )
        else:
            signing.check_api_key(secret, request.headers.get("Authorization", ""))
    except signing.Unauthorized as exc:
        return _error(401, exc.code, exc.message)
    # Parsed once the delivery is authenticated: the answers keep their order (an unknown URL, then a bad key
    # or signature, then a bad body).
    try:
        if unreadable is not None:
            raise unreadable
        delivery = parse_body(body, now=timezone.now())
    except InvalidPayload as invalid:
        return _error(400, invalid.code, invalid.message, invalid.fields)
    landed = sepay_delivery_land(context=context, delivery=delivery)
    if not landed.created:
        log.info("SePay delivery %s for connection %s was already known", delivery.sepay_id, context.connection_id)
    return JsonResponse({"success": True})


def _unknown(token: str) -> JsonResponse:
    return unknown_connection(token)


def unknown_connection(token: str) -> JsonResponse:
    """401 for a URL that is not connected; 410 GONE for one whose owner erased their account, so the provider
    stops posting rather than asking for a new key."""
    if webhook_retired(token):
        return _error(410, "CONNECTION_GONE", "This account was erased: remove this webhook.")
    return _error(401, "UNKNOWN_CONNECTION", "This webhook URL is not (or no longer) connected.")
