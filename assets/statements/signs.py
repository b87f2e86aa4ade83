"""Which way a table's figures run where no sign or side column says it: the account's way (signed), marked only
on money in (`+`, `CR`: the bare figures are money out), or a card's way (charges written positive, refunds and
repayments negative), told by the lines' own words and signs (a payment the card thanks its owner for, a purchase
beside a repayment, a card's number on every line or above the table, a column named for a card's charges). Pure."""

import re

from assets.rules.text import fold
from assets.statements import figures
from assets.statements.cells import MINUS, PLUS, filled
from assets.statements.inference import thanks_for_payment

# A side column's words for money in, where it names no money out (ICICI's card `BillingAmountSign`).
_CREDIT_SIDES = {"cr", "c", "credit"}


def only_credits_sided(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the side column writes only money in (`CR` on a refund or payment) and leaves the other lines
    blank beside unsigned figures (ICICI's card statement): its blank lines are money out."""
    if "direction" not in mapping or "amount" not in mapping:
        return False
    side, amount = mapping["direction"], mapping["amount"]
    lines = [(r[side].strip() if len(r) > side else "", r[amount].strip()) for _, r in ahead if len(r) > amount]
    lines = [(fold(word), figure) for word, figure in lines if figure]
    if any(MINUS.match(figure) or PLUS.match(figure) for _, figure in lines):
        return False
    words = {word for word, _ in lines}
    return "" in words and len(words) > 1 and words - {""} <= _CREDIT_SIDES


def credits_marked(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the amount column marks its money in and leaves the rest bare: no figure written negative or as a
    debit, and some written with a `+` (a card's `+ £1,100.00` payment among unsigned purchases) or as a credit
    (`1,000.00 CR`). Its bare figures are then money out; a direction column, where there is one, says the way."""
    if "amount" not in mapping or "direction" in mapping:
        return False
    cells = filled(ahead, mapping["amount"])
    sides = {figures.side_written(c)[1] for c in cells}
    return (1 in sides or any(map(PLUS.match, cells))) and -1 not in sides and not any(map(MINUS.match, cells))


# A card's own words for a purchase and for paying the card off (CGB's `消费`, `还款`, in full-width brackets).
_PURCHASE = ("消费",)
_REPAYMENT = ("还款",)


def _figures_and_texts(ahead: list[tuple[int, list[str]]], mapping: dict) -> list[tuple[str, str]] | None:
    """Each line's figure and text where the amount column has a text beside it and no direction column says
    the way (the card conventions' evidence); None where it has not."""
    if "amount" not in mapping or "description" not in mapping or "direction" in mapping:
        return None
    amount, text = mapping["amount"], mapping["description"]
    lines = [(r[amount].strip(), r[text]) for _, r in ahead if len(r) > max(amount, text)]
    return [(figure, words) for figure, words in lines if figure]


def charges_positive(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the amount column is a card's, writing its charges unsigned and its repayments negative: a
    line named a purchase written unsigned beside one named a repayment written negative, none the other way
    and no figure with a `+`. A bank account paying a card writes that repayment negative too, but its
    purchases negative as well, so the two together are needed."""
    lines = _figures_and_texts(ahead, mapping)
    if lines is None:
        return False
    bought = [bool(MINUS.match(a)) for a, text in lines if any(w in text for w in _PURCHASE)]
    repaid = [bool(MINUS.match(a)) for a, text in lines if any(w in text for w in _REPAYMENT)]
    signed_plus = any(PLUS.match(a) for a, _ in lines)
    return bool(bought) and bool(repaid) and not any(bought) and all(repaid) and not signed_plus


def payment_thanked(ahead: list[tuple[int, list[str]]], mapping: dict) -> bool:
    """Whether the amount column is a card's, writing its charges positive: a payment the card thanks its owner
    for written negative, no figure with a `+`, and more of the others positive than negative (a bank account
    paying its card writes its other spending negative too; a card's refunds are fewer than its charges)."""
    thanked, others = [], []
    for figure, text in _figures_and_texts(ahead, mapping) or ():
        (thanked if thanks_for_payment(text) else others).append(figure)
    negative = sum(1 for figure in others if MINUS.match(figure))
    signed = any(map(PLUS.match, others)) or not all(map(MINUS.match, thanked))
    return bool(thanked) and not signed and len(others) - negative > negative


# A card's number as a statement prints it, masked or not: `000000XXXXXXXXXX`, `**** 1234`, `3776 60**** *2492`.
_CARD_NUMBER = re.compile(r"^(?=(?:[^\d]*\d){4})[\dXx*•. -]{4,23}$")


# A card named with its number above a table (`Kortnummer 123456******1337`, `Kreditkarte:` beside
# `1234********1234 Kreditkarte`): the name, then the number, in one cell or the next.
_CARD_ABOVE = re.compile(
    r"(?<![a-z])(?:card number|card no|credit card|kartennummer|kreditkarte|kortnummer|kaartnummer|"
    r"numero de carte|numero de tarjeta)\W{0,3}([\dx*•][\dx*•. -]{2,21}[\dx*•])(?![\dx*•])"
)


def card_above(letterhead: list[list[str]]) -> bool:
    """Whether the lines above a table's header name the card whose statement it is, with its number."""
    for record in letterhead:
        text = " ".join(cell.strip() for cell in record if cell.strip()).casefold()
        if any(_CARD_NUMBER.match(match[1]) for match in _CARD_ABOVE.finditer(text)):
            return True
    return False


def card_statement(ahead: list[tuple[int, list[str]]], mapping: dict, card: int | None, *, above: bool = False) -> bool:
    """Whether the amount column is a card statement's, writing its charges positive: a column named for the
    card (`CardId`, `Card number`) holding a card's number on every line (a bank account's card column is
    blank on its transfers; a merchant's report names its customers' cards by token, not number), or the
    card named with its number `above` the table (card_above), no figure written with a `+`, and more
    figures positive than negative (the card's charges outnumber its refunds and repayments not named as such; a
    bank account seen from a card writes its purchases negative)."""
    if (card is None and not above) or "amount" not in mapping or "direction" in mapping:
        return False
    text = mapping.get("description")
    width = max(card or 0, mapping["amount"], text or 0)
    lines = [
        (r[card].strip() if card is not None else "", r[mapping["amount"]].strip(), r[text] if text is not None else "")
        for _, r in ahead
        if len(r) > width and r[mapping["amount"]].strip()
    ]
    if card is not None and not all(_CARD_NUMBER.match(number) for number, _, _ in lines):
        return False
    if not lines or any(PLUS.match(figure) for _, figure, _ in lines):
        return False
    # A repayment named as one (CMB's `还款`) is no refund: the charges need only outnumber the rest.
    negative = sum(1 for _, figure, words in lines if MINUS.match(figure) and not any(w in words for w in _REPAYMENT))
    return len(lines) - negative > negative


def charges_named(ahead: list[tuple[int, list[str]]], mapping: dict, *, named: bool) -> bool:
    """Whether the amount column is named for a card's charges (headers.card_charges: `利用金額`, the amount
    used), so a positive figure is a charge and a negative one a refund, unless a figure written with a `+`
    says the column is signed the account's way."""
    if not named or "amount" not in mapping or "direction" in mapping:
        return False
    return not any(PLUS.match(cell) for cell in filled(ahead, mapping["amount"]))


def unsigned_reading(
    ahead: list[tuple[int, list[str]]],
    mapping: dict,
    card: int | None = None,
    *,
    charges: bool = False,
    card_above: bool = False,
) -> str | None:
    """How the amount column's figures read against their signs: `out` where only money in is marked
    (credits_marked), `reversed` where a card writes charges positive (charges_positive, payment_thanked,
    card_statement with `card` or `card_above`, charges_named with `charges`: its header names a card's
    charges), None as signed."""
    if credits_marked(ahead, mapping) or only_credits_sided(ahead, mapping):
        return "out"
    if charges_named(ahead, mapping, named=charges):
        return "reversed"
    if (
        charges_positive(ahead, mapping)
        or payment_thanked(ahead, mapping)
        or card_statement(ahead, mapping, card, above=card_above)
    ):
        return "reversed"
    return None
