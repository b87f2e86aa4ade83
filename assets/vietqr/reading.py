"""A pasted VietQR payload read for a person: the transfer it asks for, with the bank's name."""

import dataclasses
from decimal import Decimal

from assets.vietqr import payload as vietqr_payload
from assets.vietqr.banks import bank_for
from zeus.errors import ValidationFailed


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
        raise ValidationFailed("payload is required.", fields={"payload": ["This field is required."]})
    try:
        qr = vietqr_payload.parse(payload)
    except vietqr_payload.PayloadError as error:
        raise ValidationFailed(str(error), code=error.code, fields={"payload": [str(error)]}) from None
    bank = bank_for(qr.bank_bin)
    if bank is None:
        raise ValidationFailed(
            "The payload names a bank BIN that is not on NAPAS's list.",
            code="UNKNOWN_BANK",
            fields={"payload": ["Unknown bank BIN."]},
        )
    return ReadQR(
        bank_bin=qr.bank_bin,
        bank_name=bank.name,
        bank_short_name=bank.short_name,
        account=qr.account,
        amount=qr.amount,
        purpose=qr.purpose,
    )
