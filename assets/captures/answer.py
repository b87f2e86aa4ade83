"""The model's answer about a capture: the JSON schema it must answer in (sent as the request's structured
output format) and the checks its answer passes before any draft is made. Pure: no ORM, no clock.

The schema sent to the model keeps to what structured outputs accept (types, enums, required keys, no extra
keys); the check here is stricter (number shapes, lengths, counts) and then reads each row as a bank text's
reader would: a positive amount the ledger holds, a known currency, a day that has happened. An answer that
fails any of it is refused whole, with a code: no half-read statement becomes drafts."""

import copy
import datetime as dt
import functools
import logging
import zoneinfo
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from assets.banktexts.parsers import MAX_AMOUNT, MAX_BALANCE, ParsedText
from zeus.errors import ValidationFailed, ZeusError
from zeus.formatting import date_text
from zeus.money import CURRENCY_EXPONENTS, parse_money
from zeus.text import scrub_data

logger = logging.getLogger(__name__)

MAX_ROWS = 100
EARLIEST = dt.date(2000, 1, 1)
KINDS = ("receipt", "transfer", "statement", "not_financial")

_ROW = {
    "type": "object",
    "additionalProperties": False,
    "required": ["occurred_on", "time", "amount", "currency", "direction", "description", "balance_after"],
    "properties": {
        "occurred_on": {"type": "string", "format": "date", "description": "The day, YYYY-MM-DD."},
        "time": {"type": ["string", "null"], "description": "HH:MM (24 h) when the document shows it."},
        "amount": {"type": "string", "description": "Positive, digits and an optional '.' decimal part."},
        "currency": {"type": "string", "description": "ISO 4217; VND for đ, VND, dong."},
        "direction": {"type": "string", "enum": ["expense", "income"]},
        "description": {"type": "string", "description": "Merchant or counterpart, and the note."},
        "balance_after": {"type": ["string", "null"], "description": "The balance after it, when shown."},
    },
}
ANSWER_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "issuer", "account_mask", "transactions"],
    "properties": {
        "kind": {"type": "string", "enum": list(KINDS)},
        "issuer": {"type": ["string", "null"], "description": "The bank, wallet or merchant."},
        "account_mask": {"type": ["string", "null"], "description": "The account number as shown."},
        "transactions": {"type": "array", "items": _ROW},
    },
}


def _checking_schema() -> dict:
    schema = copy.deepcopy(ANSWER_SCHEMA)
    props = schema["properties"]
    props["issuer"]["maxLength"] = props["account_mask"]["maxLength"] = 100
    props["transactions"]["maxItems"] = MAX_ROWS
    row = props["transactions"]["items"]["properties"]
    row["occurred_on"]["pattern"] = r"^\d{4}-\d{2}-\d{2}$"
    row["time"]["pattern"] = r"^([01]\d|2[0-3]):[0-5]\d$"
    row["amount"]["pattern"] = row["balance_after"]["pattern"] = r"^-?\d{1,16}(\.\d{1,4})?$"
    row["currency"]["pattern"] = r"^[A-Z]{3}$"
    row["description"]["maxLength"] = 500
    return schema


@functools.cache
def _validator():
    import jsonschema  # here, not at the top: start-up stays light (tests/test_startup.py)

    return jsonschema.Draft202012Validator(_checking_schema())


class CaptureUnreadable(ZeusError):
    """The model read the file and found no transaction in it (not a receipt, a transfer or a statement)."""

    status = 422
    code = "CAPTURE_NOT_FINANCIAL"


class CaptureAnswerInvalid(ZeusError):
    """The model's answer is not in the schema, or says what cannot be (a negative or astronomic amount, a
    day in the future): refused rather than drafted."""

    status = 422
    code = "CAPTURE_MODEL_INVALID"


@dataclass(frozen=True)
class Reading:
    read_as: str
    rows: list[ParsedText]


def _invalid(message: str) -> CaptureAnswerInvalid:
    return CaptureAnswerInvalid(
        _("The model's reading of this file cannot be used: %(message)s") % {"message": message}
    )


def _one_payment(kind: str, count: int) -> str:
    if kind == "receipt":
        text = ngettext("a receipt is one payment, not %(count)s.", "a receipt is one payment, not %(count)s.", count)
    else:
        text = ngettext("a transfer is one payment, not %(count)s.", "a transfer is one payment, not %(count)s.", count)
    return text % {"count": count}


def _row(row: dict, *, issuer: str, mask: str, today: dt.date, tz: zoneinfo.ZoneInfo, n: int) -> ParsedText:
    currency = row["currency"]
    if currency not in CURRENCY_EXPONENTS:
        raise _invalid(_("row %(n)s: %(currency)s is not a currency Zeus keeps.") % {"n": n, "currency": currency})
    try:
        amount = parse_money(row["amount"], currency)
        balance = row["balance_after"]
        balance = None if balance is None else parse_money(balance, currency, allow_zero=True)
    except ValidationFailed as exc:
        raise _invalid(_("row %(n)s: %(message)s") % {"n": n, "message": exc.message}) from exc
    if amount > MAX_AMOUNT or (balance is not None and abs(balance) > MAX_BALANCE):
        raise _invalid(_("row %(n)s: the amount is larger than any payment.") % {"n": n})
    try:
        day = dt.date.fromisoformat(row["occurred_on"])
    except ValueError as exc:
        raise _invalid(_("row %(n)s: %(day)s is not a day.") % {"n": n, "day": row["occurred_on"]}) from exc
    if day > today + dt.timedelta(days=1) or day < EARLIEST:
        raise _invalid(
            _("row %(n)s: %(day)s is not a day this payment can have happened.") % {"n": n, "day": date_text(day)}
        )
    hour, minute = map(int, row["time"].split(":")) if row["time"] else (12, 0)
    return ParsedText(
        bank=issuer,
        amount=amount,
        direction=row["direction"],
        occurred_at=dt.datetime.combine(day, dt.time(hour, minute), tzinfo=tz),
        description=" ".join(row["description"].split())[:200],
        currency=currency,
        account_mask=mask,
        balance_after=balance,
    )


def reading_from_answer(answer, *, today: dt.date, tz: zoneinfo.ZoneInfo) -> Reading:
    """The answer (the model's JSON, already parsed with Decimal numbers) checked and read into rows. Its text
    is the model's, which no client can be asked to correct: a NUL or a lone surrogate in it is made storable
    (zeus.text.scrub) rather than failing the drafts' insert."""
    answer = scrub_data(answer)
    error = next(iter(sorted(_validator().iter_errors(answer), key=lambda e: list(e.absolute_path))), None)
    if error is not None:
        # jsonschema's own sentence is English and names the schema's terms: it goes to the log, and the person
        # is told where the answer went wrong.
        logger.info("capture answer refused at %s: %s", list(error.absolute_path), error.message[:200])
        where = "/".join(str(p) for p in error.absolute_path)
        raise _invalid(
            _("%(where)s is not in the shape asked for.") % {"where": where}
            if where
            else _("the answer is not in the shape asked for.")
        )
    kind, rows = answer["kind"], answer["transactions"]
    if kind == "not_financial" or not rows:
        raise CaptureUnreadable(
            _("This file shows no payment Zeus can read: send a receipt, a transfer screenshot or a bank statement.")
        )
    if kind in ("receipt", "transfer") and len(rows) != 1:
        raise _invalid(_one_payment(kind, len(rows)))
    digits = "".join(c for c in (answer["account_mask"] or "") if c.isdigit() or c in "xX*")
    mask = f"•••• {digits[-4:]}" if len(digits) >= 3 else ""
    issuer = " ".join((answer["issuer"] or "").split())[:40]
    return Reading(
        read_as=kind,
        rows=[_row(r, issuer=issuer, mask=mask, today=today, tz=tz, n=n) for n, r in enumerate(rows, 1)],
    )
