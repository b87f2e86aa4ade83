"""The VietQR payload: EMVCo merchant-presented QR data objects carrying a NAPAS 247 account transfer.

Each data object is an ID (2 digits), a length (2 digits) and a value; the payload ends with the CRC object
`63 04 XXXX`, a CRC-16/CCITT-FALSE over everything before its four hex digits (the `6304` included). The
NAPAS block sits in the merchant account information template `38`: `00` the NAPAS GUID `A000000727`, `01`
the beneficiary (`00` the bank's BIN, `01` the account number), `02` the service code (`QRIBFTTA` for an
account, `QRIBFTTC` for a card). Pure: no ORM, no clock.
"""

import dataclasses
import re
import unicodedata
from decimal import Decimal

from django.utils.translation import gettext

NAPAS_GUID = "A000000727"
SERVICE_ACCOUNT = "QRIBFTTA"
SERVICE_CARD = "QRIBFTTC"
CURRENCY_VND = "704"
COUNTRY_VN = "VN"
STATIC = "11"
DYNAMIC = "12"
MAX_PURPOSE = 25
MAX_ACCOUNT = 19
_ACCOUNT = re.compile(r"^[0-9A-Za-z]{1,19}$")
_BIN = re.compile(r"^[0-9]{6}$")
_DIGITS = re.compile(r"^[0-9]+$")
# EMVCo's transaction amount: up to 13 characters, digits with an optional "." as the decimal mark; no sign, no
# exponent. A đồng QR asks for whole đồng ("250000", or "250000.00" as some apps write it).
_AMOUNT = re.compile(r"^[0-9]+(\.[0-9]*)?$")
MAX_AMOUNT_CHARS = 13
_PRINTABLE = re.compile(r"^[\x20-\x7e]*$")
# "đ" is a letter of its own in Unicode, not a d with a mark: NFKD leaves it alone.
_LETTERS = str.maketrans({"đ": "d", "Đ": "D"})


class PayloadError(ValueError):
    """A payload that is not a readable VietQR; `code` names why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclasses.dataclass(frozen=True)
class VietQR:
    bank_bin: str
    account: str
    amount: Decimal | None = None
    purpose: str = ""
    service: str = SERVICE_ACCOUNT
    initiation: str = DYNAMIC


def crc16(text: str) -> str:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) as four upper-case hex digits."""
    crc = 0xFFFF
    for byte in text.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def ascii_text(text: str) -> str:
    """Vietnamese text as the plain ASCII banking apps accept in a transfer's content ("ủng hộ" → "ung ho")."""
    decomposed = unicodedata.normalize("NFKD", (text or "").translate(_LETTERS))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "".join(ch for ch in plain if " " <= ch <= "~")


def _tlv(tag: str, value: str) -> str:
    if len(value) > 99:
        raise PayloadError("TOO_LONG", gettext("Data object %(tag)s is longer than 99 characters.") % {"tag": tag})
    return f"{tag}{len(value):02d}{value}"


def _amount_text(amount: Decimal) -> str:
    if amount <= 0 or amount != amount.to_integral_value():
        raise PayloadError("BAD_AMOUNT", gettext("A VietQR amount is a positive whole number of đồng."))
    return str(int(amount))


def encode(qr: VietQR) -> str:
    """The payload for `qr`, its CRC included."""
    if not _BIN.match(qr.bank_bin or ""):
        raise PayloadError("BAD_BIN", gettext("A bank BIN is six digits."))
    if not _ACCOUNT.match(qr.account or ""):
        raise PayloadError("BAD_ACCOUNT", gettext("An account number is 1 to 19 letters or digits."))
    purpose = ascii_text(qr.purpose).strip()[:MAX_PURPOSE]
    beneficiary = _tlv("00", qr.bank_bin) + _tlv("01", qr.account)
    merchant = _tlv("00", NAPAS_GUID) + _tlv("01", beneficiary) + _tlv("02", qr.service)
    body = _tlv("00", "01") + _tlv("01", qr.initiation) + _tlv("38", merchant) + _tlv("53", CURRENCY_VND)
    if qr.amount is not None:
        body += _tlv("54", _amount_text(qr.amount))
    body += _tlv("58", COUNTRY_VN)
    if purpose:
        body += _tlv("62", _tlv("08", purpose))
    body += "6304"
    return body + crc16(body)


def objects(text: str) -> dict[str, str]:
    """The data objects of one template, by ID; a malformed template raises PayloadError."""
    found: dict[str, str] = {}
    at = 0
    while at < len(text):
        head = text[at : at + 4]
        if len(head) < 4 or not _DIGITS.match(head):
            raise PayloadError("MALFORMED", gettext("The payload is not a list of EMVCo data objects."))
        length = int(head[2:])
        value = text[at + 4 : at + 4 + length]
        if len(value) != length:
            raise PayloadError("MALFORMED", gettext("A data object runs past the end of the payload."))
        found[head[:2]] = value
        at += 4 + length
    return found


def parse(payload: str) -> VietQR:
    """The transfer a payload describes. Refuses a wrong checksum and anything but a NAPAS 247 transfer."""
    text = (payload or "").strip()
    if len(text) > 512 or not _PRINTABLE.match(text):
        raise PayloadError("MALFORMED", gettext("The payload is not a VietQR text."))
    if len(text) < 8 or text[-8:-4] != "6304":
        raise PayloadError("MALFORMED", gettext("The payload does not end with its CRC."))
    if crc16(text[:-4]) != text[-4:].upper():
        raise PayloadError("BAD_CHECKSUM", gettext("The payload's checksum does not match: it was changed or cut."))
    root = objects(text)
    merchant = objects(root.get("38", ""))
    if merchant.get("00") != NAPAS_GUID or "01" not in merchant:
        raise PayloadError("NOT_NAPAS", gettext("The payload is not a NAPAS 247 transfer."))
    beneficiary = objects(merchant["01"])
    bank_bin, account = beneficiary.get("00", ""), beneficiary.get("01", "")
    if not _BIN.match(bank_bin) or not account:
        raise PayloadError("NOT_NAPAS", gettext("The payload names no bank and account."))
    if root.get("53", CURRENCY_VND) != CURRENCY_VND:
        raise PayloadError("NOT_VND", gettext("The payload asks for a currency other than the đồng."))
    amount = _amount_read(root.get("54"))
    purpose = objects(root["62"]).get("08", "") if "62" in root else ""
    return VietQR(
        bank_bin=bank_bin,
        account=account,
        amount=amount,
        purpose=purpose,
        service=merchant.get("02", SERVICE_ACCOUNT),
        initiation=root.get("01", STATIC),
    )


def _amount_read(text: str | None) -> Decimal | None:
    """The amount object's whole đồng, None without one; an exponent, a sign, a fraction of a đồng or more than
    EMVCo's 13 characters is BAD_AMOUNT (Decimal would read "9E+99" or "1E-5" as numbers)."""
    if not text:
        return None
    if len(text) > MAX_AMOUNT_CHARS or not _AMOUNT.match(text):
        raise PayloadError("BAD_AMOUNT", gettext("The payload's amount is not written in digits."))
    amount = Decimal(text)
    if amount <= 0 or amount != amount.to_integral_value():
        raise PayloadError("BAD_AMOUNT", gettext("The payload's amount is not a positive whole number of đồng."))
    return Decimal(int(amount))
