"""Checking the VietQR fields of an asset (a bank account's NAPAS BIN and number) at the write boundary."""

import re

from django.utils.translation import gettext as _

from assets.vietqr.banks import bank_for
from zeus.errors import ValidationFailed

_ACCOUNT = re.compile(r"^[0-9A-Za-z]{1,19}$")


def clean_bank_bin(value) -> str:
    text = "" if value is None else str(value).strip()
    if text and bank_for(text) is None:
        raise ValidationFailed(
            _("bank_bin is not a NAPAS bank BIN Zeus knows."),
            code="UNKNOWN_BANK",
            fields={"bank_bin": [_("Unknown BIN.")]},
        )
    return text


def clean_account_number(value) -> str:
    text = "" if value is None else re.sub(r"[\s.-]", "", str(value))
    if text and not _ACCOUNT.match(text):
        raise ValidationFailed(
            _("account_number is 1 to 19 letters or digits."),
            fields={"account_number": [_("1 to 19 letters or digits.")]},
        )
    return text
