"""The daily reconciliation (§6.4): each connected provider's transactions API is asked for the last days, and
what a lost webhook missed lands; what is already in the ledger (by the provider's id) changes nothing.

SePay (`GET {ZEUS_SEPAY_API_URL}/userapi/transactions/list?transaction_date_min=…&limit=…`, header
`Authorization: Bearer <API token>`) answers `{"transactions": [{"id", "bank_brand_name", "account_number",
"transaction_date", "amount_in", "amount_out", "accumulated", "transaction_content", "reference_number",
"code", "sub_account"}]}`; its `id` is the webhook's `id`. Casso (`GET {ZEUS_CASSO_API_URL}/v2/transactions
?fromDate=…&page=…&pageSize=…&sort=ASC`, header `Authorization: Apikey <key>`) answers `{"error": 0, "data":
{"records": [...], "totalPages"}}`, see assets.feeds.casso. A provider that fails (down, a revoked key, a
malformed answer) is logged and counted, and the others go on."""

import datetime as dt
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from assets.feeds import casso, casso_services
from assets.feeds.payload import SEPAY_TZ, InvalidPayload, parse_payload
from assets.feeds.providers import FeedRow, feed_row_land, secret_decrypt, secret_encrypt
from assets.models import CassoConnection, SepayConnection
from zeus.account_data.unlocked import of_unlocked_users
from zeus.errors import NotFound
from zeus.validation import clean_text, record_id

log = logging.getLogger(__name__)

SEPAY_TOKEN_PURPOSE = "assets.sepay-api-token"
DEFAULT_DAYS = 3
TIMEOUT_SECONDS = 20
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
MAX_PAGES = 50
PAGE_SIZE = 500


class PullFailed(Exception):
    pass


@dataclass
class PullReport:
    connections: int = 0
    landed: int = 0
    known: int = 0
    failed: list[str] = field(default_factory=list)


def _get(url: str, *, headers: dict) -> dict:
    request = urllib.request.Request(url, headers={**headers, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
            body = answer.read(MAX_RESPONSE_BYTES + 1)
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise PullFailed(f"could not reach {urllib.parse.urlsplit(url).netloc}: {exc}") from None
    if len(body) > MAX_RESPONSE_BYTES:
        raise PullFailed("the answer is too large")
    try:
        data = json.loads(body)
    except ValueError:
        raise PullFailed("the answer is not JSON") from None
    if not isinstance(data, dict):
        raise PullFailed("the answer is not a JSON object")
    return data


def _sepay_row(record: dict, now: dt.datetime) -> FeedRow | None:
    """An API record checked by the webhook's own rules (assets.feeds.payload): what a delivery of it would
    refuse (NUL or broken text, a fraction of a dong, a date before 2000 or ahead) is skipped here."""
    try:
        amount_in = Decimal(str(record.get("amount_in") or "0"))
        amount_out = Decimal(str(record.get("amount_out") or "0"))
        accumulated = record.get("accumulated")
        balance = Decimal(str(accumulated)) if accumulated not in (None, "") else None
        delivery = parse_payload(
            {
                "id": int(str(record.get("id"))),
                "gateway": record.get("bank_brand_name") or "SePay",
                "transactionDate": str(record.get("transaction_date") or "")[:19],
                "accountNumber": record.get("account_number"),
                "content": record.get("transaction_content"),
                "transferType": "in" if amount_in else "out",
                "transferAmount": amount_in or amount_out,
                "accumulated": balance,
            },
            now=now,
        )
    except (InvalidOperation, ValueError, InvalidPayload):
        return None
    return FeedRow(
        provider="sepay",
        external_id=delivery.external_id,
        bank=delivery.gateway,
        account_number=delivery.account_number,
        occurred_at=delivery.occurred_at,
        direction=delivery.direction,
        amount=delivery.amount,
        balance=delivery.accumulated,
        description=delivery.content[:200],
    )


def sepay_rows(token: str, *, since: dt.datetime, now: dt.datetime) -> list[FeedRow]:
    query = urllib.parse.urlencode(
        {"transaction_date_min": since.astimezone(SEPAY_TZ).strftime("%Y-%m-%d %H:%M:%S"), "limit": 5000}
    )
    data = _get(
        f"{settings.ZEUS_SEPAY_API_URL.rstrip('/')}/userapi/transactions/list?{query}",
        headers={"Authorization": f"Bearer {token}"},
    )
    records = data.get("transactions")
    if not isinstance(records, list):
        raise PullFailed("SePay's answer has no transactions list")
    rows = [_sepay_row(r, now) for r in records if isinstance(r, dict)]
    return [r for r in rows if r is not None]


def casso_rows(api_key: str, *, since: dt.datetime, now: dt.datetime) -> list[FeedRow]:
    rows: list[FeedRow] = []
    for page in range(1, MAX_PAGES + 1):
        query = urllib.parse.urlencode(
            {
                "fromDate": since.astimezone(casso.CASSO_TZ).date().isoformat(),
                "page": page,
                "pageSize": PAGE_SIZE,
                "sort": "ASC",
            }
        )
        data = _get(
            f"{settings.ZEUS_CASSO_API_URL.rstrip('/')}/v2/transactions?{query}",
            headers={"Authorization": f"Apikey {api_key}"},
        )
        body = data.get("data")
        if data.get("error") not in (0, None) or not isinstance(body, dict):
            raise PullFailed(f"Casso answered error {data.get('error')!r}")
        for record in body.get("records") or []:
            try:
                rows.append(casso_services.casso_row(casso.transaction(record, now=now, webhook=False)))
            except (InvalidPayload, TypeError, AttributeError):
                continue
        total = body.get("totalPages")
        if not isinstance(total, int) or page >= total:
            break
    return rows


def _land(user, rows: list[FeedRow], report: PullReport) -> None:
    for row in rows:
        if feed_row_land(user=user, row=row).created:
            report.landed += 1
        else:
            report.known += 1


def feeds_reconcile(*, now: dt.datetime | None = None, days: int = DEFAULT_DAYS, user=None) -> PullReport:
    """Pulls every connection that has an API key (one user's when `user` is given)."""
    now = now or timezone.now()
    since = now - dt.timedelta(days=days)
    report = PullReport()
    # A user locked for erasure is not pulled for (its webhooks still land: money that arrived is a fact).
    sepay = of_unlocked_users(SepayConnection.objects.exclude(api_token_encrypted="")).select_related("user__profile")
    cassos = of_unlocked_users(CassoConnection.objects.exclude(api_key_encrypted="")).select_related("user__profile")
    if user is not None:
        sepay, cassos = sepay.filter(user=user), cassos.filter(user=user)
    for connection in sepay.order_by("id"):
        report.connections += 1
        token = secret_decrypt(connection.api_token_encrypted, purpose=SEPAY_TOKEN_PURPOSE)
        try:
            if token is None:
                raise PullFailed("the stored API token no longer decrypts")
            _land(connection.user, sepay_rows(token, since=since, now=now), report)
        except PullFailed as exc:
            log.warning("SePay pull for connection %s failed: %s", connection.id, exc)
            report.failed.append(f"sepay:{connection.id}")
            continue
        SepayConnection.objects.filter(pk=connection.pk).update(last_pulled_at=now)
    for connection in cassos.order_by("id"):
        report.connections += 1
        key = casso_services.casso_connection_api_key(connection)
        try:
            if key is None:
                raise PullFailed("the stored API key no longer decrypts")
            _land(connection.user, casso_rows(key, since=since, now=now), report)
        except PullFailed as exc:
            log.warning("Casso pull for connection %s failed: %s", connection.id, exc)
            report.failed.append(f"casso:{connection.id}")
            continue
        casso_services.casso_pull_stamp(connection_id=connection.pk)
    return report


def feed_api_key_set(*, user, provider: str, connection_id, api_key: str) -> None:
    """Stores (encrypted) the provider's API key on a connection, so the daily pull covers it; "" removes it."""
    api_key = clean_text(api_key, "api_key", max_length=500, required=False) or ""
    if provider == "sepay":
        model, field_name, purpose = SepayConnection, "api_token_encrypted", SEPAY_TOKEN_PURPOSE
    else:
        model, field_name, purpose = CassoConnection, "api_key_encrypted", casso_services.API_KEY_PURPOSE
    updated = model.objects.filter(user=user, id=record_id(connection_id)).update(
        **{field_name: secret_encrypt(api_key, purpose=purpose)}
    )
    if not updated:
        raise NotFound(_("No such %(value)s connection.") % {"value": "SePay" if provider == "sepay" else "Casso"})
