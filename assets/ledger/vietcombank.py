"""Vietcombank's published exchange rates: its XML read (pure), and the daily fetch that stores them.

The document (portal.vietcombank.com.vn/Usercontrols/TVPortal.TyGia/pXML.aspx) is one `ExrateList` with a
`DateTime` ("12/3/2026 8:05:11 AM", Vietnam time), one `Exrate` per currency with the attributes
`CurrencyCode`, `CurrencyName`, `Buy` (cash), `Transfer` and `Sell` in VND, grouped with commas and "-" where
the bank does not quote, and a `Source`. The transfer rate is the one a bank-to-bank payment gets: it is
stored as that day's rate of the currency into VND.
"""

import datetime as dt
import logging
import urllib.request
import zoneinfo
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import transaction as db_transaction
from lxml import etree

from assets.ledger.models import ExchangeRate
from zeus.money import CURRENCY_EXPONENTS

log = logging.getLogger(__name__)
VIETNAM = zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")
MAX_BYTES = 256 * 1024
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


class RatesUnreadable(Exception):
    """The document is not Vietcombank's rate list."""


@dataclass(frozen=True)
class PublishedRates:
    day: dt.date
    rates: dict[str, Decimal]  # currency → VND one unit buys, by transfer


def _number(text: str | None) -> Decimal | None:
    text = (text or "").replace(",", "").strip()
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() and value > 0 else None


def _day(text: str) -> dt.date:
    text = (text or "").strip()
    for shape in ("%m/%d/%Y %I:%M:%S %p", "%d/%m/%Y %H:%M:%S", "%Y-%m-%dT%H:%M:%S"):
        try:
            return dt.datetime.strptime(text, shape).date()
        except ValueError:
            continue
    raise RatesUnreadable(f"Unreadable DateTime {text!r}.")


def vietcombank_rates_parse(document: bytes) -> PublishedRates:
    """The day and the transfer rate of each currency Zeus knows; unquoted ones ("-", 0) left out."""
    try:
        root = etree.fromstring(document, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise RatesUnreadable(f"Not XML: {exc}") from exc
    if root.tag != "ExrateList":
        raise RatesUnreadable(f"Expected ExrateList, found {root.tag!r}.")
    day = _day(root.findtext("DateTime"))
    rates = {}
    for item in root.iter("Exrate"):
        code = (item.get("CurrencyCode") or "").strip().upper()
        rate = _number(item.get("Transfer")) or _number(item.get("Sell"))
        if code in CURRENCY_EXPONENTS and code != "VND" and rate is not None:
            rates[code] = rate
    return PublishedRates(day=day, rates=rates)


def exchange_rates_fetch_vietcombank(*, url: str | None = None) -> int:
    """Reads the published list and stores that day's rates; a second run on the same day rewrites the same
    rows (the unique constraint on day, pair and source). Returns how many were stored."""
    url = url or settings.ZEUS_VCB_RATES_URL
    request = urllib.request.Request(url, headers={"User-Agent": "Zeus exchange rates"})
    with urllib.request.urlopen(request, timeout=20) as response:
        document = response.read(MAX_BYTES + 1)
    if len(document) > MAX_BYTES:
        raise RatesUnreadable("The rate list is larger than expected.")
    published = vietcombank_rates_parse(document)
    with db_transaction.atomic():
        for code, rate in published.rates.items():
            ExchangeRate.objects.update_or_create(
                user=None,
                day=published.day,
                from_currency=code,
                to_currency="VND",
                source=ExchangeRate.Source.VIETCOMBANK,
                defaults={"rate": rate},
            )
    log.info("stored %d Vietcombank rates for %s", len(published.rates), published.day)
    return len(published.rates)
