"""Who is on the other side of a transaction, from its description: the one folding of merchant names that
duplicates (suggestions/insights/duplicates.py) and recurring series (suggestions/recurring/detection.py) group
by. Pure."""

import functools
import re
import unicodedata

# Words a bank adds to a refund's description ("Refund: CGV Cinemas", "Hoàn tiền Shopee"); without them
# the refund names the same merchant as the purchase.
_REFUND_WORDS = {"refund", "refunded", "reversal", "reversed", "return", "returned", "chargeback"}
_REFUND_PHRASE = re.compile(r"\bhoan tien\b")
# Words that only say "a transfer" ("CK 0901234567", "Chuyen tien tu 0987654321"): with nothing else in the
# description, the digits are the other side of the transfer, not a reference to drop.
_TRANSFER_WORDS = {
    "ck", "chuyen", "tien", "khoan", "tk", "stk", "tu", "den", "cho", "qua", "nhan",
    "transfer", "trf", "ibft", "napas", "ft", "to", "from", "via", "acc", "account",
}  # fmt: skip


def _fold(description: str) -> str:
    text = unicodedata.normalize("NFKD", description or "").replace("đ", "d").replace("Đ", "D")
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


@functools.lru_cache(maxsize=4096)
def normalize_merchant(description: str) -> str:
    """`CGV Cinemas`, `CGV CINEMAS #0231` and `Refund: cgv cinemas` are one merchant: `cgv cinemas`.

    Accents go (bank feeds drop them inconsistently), tokens with digits go (references, terminal ids),
    and so do refund words.
    """
    tokens = re.split(r"[^a-z0-9]+", _REFUND_PHRASE.sub(" ", _fold(description)))
    return " ".join(t for t in tokens if t and not any(c.isdigit() for c in t) and t not in _REFUND_WORDS)


@functools.lru_cache(maxsize=4096)
def counterparty(description: str) -> str:
    """Who is on the other side: the merchant, or for a bare transfer the account or phone it names.

    Two family members sending the same amount the same day ("CK 0901234567", "CK 0987654321") are two
    people, though their merchant names are both "ck".
    """
    merchant = normalize_merchant(description)
    if merchant and not set(merchant.split()) <= _TRANSFER_WORDS:
        return merchant
    digits = re.findall(r"\d{6,}", _fold(description))
    return f"{merchant} {' '.join(digits)}".strip() if digits else merchant
