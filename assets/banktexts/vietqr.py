"""A pasted VietQR payload read as a bank text: the transfer it asks the user to make, as a draft expense
(to the account it names, for its amount, with its purpose) that waits for the user's confirmation like every
bank-text draft. The payload is checked by assets/vietqr (its CRC, a NAPAS bank BIN)."""

import datetime as dt

from django.utils.translation import gettext as _

from assets.banktexts.parsers import ParsedText
from assets.vietqr.reading import vietqr_read
from zeus.errors import ValidationFailed


def vietqr_parsed(text: str, *, now: dt.datetime) -> ParsedText:
    """ValidationFailed (400) with the payload's code (BAD_CHECKSUM, UNKNOWN_BANK, MALFORMED, NOT_NAPAS…) when
    it is not a good VietQR, VIETQR_NO_AMOUNT when it asks for no amount (a draft needs one: the user adds the
    transaction by hand)."""
    try:
        qr = vietqr_read(payload=text)
    except ValidationFailed as error:
        raise ValidationFailed(error.message, code=error.code, fields={"text": [error.message]}) from None
    if qr.amount is None:
        raise ValidationFailed(
            _("This VietQR asks for no amount; add the transfer by hand with what you paid."),
            code="VIETQR_NO_AMOUNT",
            fields={"text": [_("No amount in this VietQR.")]},
        )
    to = f"{qr.bank_short_name} {qr.account}"
    return ParsedText(
        bank=qr.bank_short_name[:40],
        amount=qr.amount,
        direction="expense",
        occurred_at=now,
        description=(f"{qr.purpose} · {to}" if qr.purpose else to)[:200],
        currency="VND",
        account_mask=qr.account[-32:],
    )
