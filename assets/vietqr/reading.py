"""A pasted VietQR payload read for a person: the transfer it asks for, with the bank's name."""

import dataclasses
import re
from decimal import Decimal

from django.utils.translation import gettext as _

from assets.vietqr import payload as vietqr_payload
from assets.vietqr.banks import bank_for
from zeus.errors import ValidationFailed

# An EMVCo payload: the format indicator first, NAPAS's GUID inside, the CRC object last.
_LOOKS_LIKE = re.compile(r"^000201\S.*A000000727.*6304[0-9A-Fa-f]{4}$", re.DOTALL)


def looks_like_vietqr(text) -> bool:
    """A cheap test (the chat's router, a shared text): a pasted VietQR payload rather than words. Whether it is
    a good one is vietqr_read's to say."""
    return isinstance(text, str) and len(text.strip()) <= 512 and bool(_LOOKS_LIKE.match(text.strip()))


def refusal_text(error: vietqr_payload.PayloadError) -> str:
    """Why a pasted payload is refused, in the reader's language: for the faults a person can act on, what to do;
    else the parser's own message, which names the fault."""
    texts = {
        "BAD_CHECKSUM": _("This VietQR is damaged: its checksum does not match. Scan or copy it again."),
        "NOT_NAPAS": _("This QR is not a NAPAS 247 bank transfer."),
        "NOT_VND": _("This VietQR asks for a currency other than the đồng."),
        "BAD_AMOUNT": _("This VietQR's amount is not a whole number of đồng."),
    }
    return texts.get(error.code) or str(error)


@dataclasses.dataclass(frozen=True)
class ReadQR:
    bank_bin: str
    bank_name: str
    bank_short_name: str
    account: str
    amount: Decimal | None
    purpose: str


def vietqr_read(*, payload) -> ReadQR:
    """The transfer a payload describes; ValidationFailed (400) with a code for a bad checksum, a malformed text
    or a BIN that names no NAPAS bank."""
    if not isinstance(payload, str) or not payload.strip():
        raise ValidationFailed(_("payload is required."), fields={"payload": [_("This field is required.")]})
    try:
        qr = vietqr_payload.parse(payload)
    except vietqr_payload.PayloadError as error:
        message = refusal_text(error)
        raise ValidationFailed(message, code=error.code, fields={"payload": [message]}) from None
    bank = bank_for(qr.bank_bin)
    if bank is None:
        raise ValidationFailed(
            _("The payload names a bank BIN that is not on NAPAS's list."),
            code="UNKNOWN_BANK",
            fields={"payload": [_("Unknown bank BIN.")]},
        )
    return ReadQR(
        bank_bin=qr.bank_bin,
        bank_name=bank.name,
        bank_short_name=bank.short_name,
        account=qr.account,
        amount=qr.amount,
        purpose=qr.purpose,
    )
