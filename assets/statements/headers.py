"""The column mapping a bank's header implies on its own: the Vietnamese, English and German names banks
put on their CSV and XLSX exports (`Ngày giao dịch`, `Ghi nợ`, `Ghi có`, `Số dư`, `Nội dung`, `Posting Date`,
`Debit`, `Credit`, `Buchungsdatum`, `Betrag`, `Währung`…), often bilingual (`Ghi nợ/Debit`) or with a unit
(`Số tiền (VND)`). Pure."""

import re
from dataclasses import dataclass

from assets.rules.text import fold
from assets.statements.header_names import NAMES
from zeus.money import CURRENCY_EXPONENTS

# Folded names → mapping key, folded as header cells are (Japanese kana lose their voicing marks: `ご利用日` is
# read as `こ利用日`).
_NAMES = {key: tuple(fold(name) for name in names) for key, names in NAMES.items()}
_KEY_OF = {name: key for key, names in _NAMES.items() for name in names}
_VALUE_DATES = frozenset(_NAMES["date"][_NAMES["date"].index("ngay hieu luc") :])
# The names of a ledger's two sides (Nợ, Có), which a company's own book reads the other way round from its bank
# (header_names' "contra"); a bank's words for money moving (`Số tiền rút ra`, withdrawn) read one way only.
_BOOK_SIDES = frozenset(
    fold(name)
    for name in ("ghi no", "no", "so tien ghi no", "phat sinh no", "ghi co", "co", "so tien ghi co", "phat sinh co",
                 "debit", "debits", "credit", "credits", "debet")
)  # fmt: skip
# A direction column's names that name both sides in words (`Soll/Haben`, `Debit/Credit`), over which a bank may
# write the signed figure itself; not a kind of line (`Transaction type`), nor letters' or words' columns (`D/C`,
# `收/支`, `借贷标志`).
_BOTH_SIDES = frozenset(
    fold(name) for name in ("soll haben", "debit credit", "credit debit", "debit kredit", "kredit debit", "dr cr",
                            "cr dr", "db cr", "cr db", "deebet kreedit", "deebet krediit")
)  # fmt: skip
_NET = frozenset(("net", "net amount"))
_NOTES = frozenset(("note", "notes"))
_CLOSING = {"(": ")", "[": "]"}
# A unit written in words after the name (PostFinance's `Accredito in CHF`, `Montant en EUR`), or the code
# alone (Cumulus' `Gutschrift CHF`).
# Tried only where a run of spaces starts, and possessive: a bracket-only cell (`()()()…`) leaves a long run of
# spaces once its units are taken out, and each space of it must not start a scan of the whole run.
_IN_CURRENCY = re.compile(r"(?<!\s)\s++(?:(?:in|en)\s++)?([a-z]{3})\s*+$")


# Latin letters that look like Cyrillic ones, as a Cyrillic header may mix them in (Sense Bank writes the C of
# its `Suma` in Latin, monobank the i of its `Data i chas`): read as the Cyrillic letters they stand for.
_LOOK_ALIKES = str.maketrans(
    "abcehikmoptxy", "\u0430\u0432\u0441\u0435\u043d\u0456\u043a\u043c\u043e\u0440\u0442\u0445\u0443"
)
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_NOT_NAME = re.compile(
    r"[^a-z0-9 \u0370-\u03ff\u0400-\u04ff\u05d0-\u05ea\u0e00-\u0e7f\u1100-\u11ff"
    r"\u3041-\u30fa\u30fc-\u30ff\u4e00-\u9fff\uac00-\ud7a3]"
)


def _without_units(text: str) -> str:
    r"""Each `(…)` or `[…]` (to its first closing bracket) as one space. Not the pattern
    `\((?:[^)]*)\)|\[(?:[^]]*)\]`: from every opening bracket no closing one follows, it ran to the end of the text
    again (a cell of `((((…`). Here the next opening bracket of each kind is kept, and a kind with no closing
    bracket after it is given up at once."""
    last = {opening: text.rfind(closing) for opening, closing in _CLOSING.items()}
    ahead = {opening: text.find(opening) for opening in _CLOSING}
    kept, at = [], 0
    while True:
        for opening in _CLOSING:
            while ahead[opening] != -1 and (ahead[opening] < at or ahead[opening] > last[opening]):
                ahead[opening] = -1 if ahead[opening] > last[opening] else text.find(opening, at)
        opened = min((i for i in ahead.values() if i >= 0), default=-1)
        if opened < 0:
            return "".join([*kept, text[at:]])
        kept += [text[at:opened], " "]
        at = text.index(_CLOSING[text[opened]], opened + 1) + 1


def _names(cell: str) -> list[str]:
    """The folded names one header cell offers: `Ghi nợ/Debit (VND)` offers `ghi no` and `debit`; a bracket
    that qualifies rather than gives a unit offers the whole (ICBC's `记账金额(支出)`: the booked figure paid
    out) before the name without it."""
    # Turkish's dotless i (`Aciklama`, U+0131) is the `i` the names are written with.
    whole = fold(cell or "").replace("\u0131", "i")
    if _CYRILLIC.search(whole):
        whole = whole.translate(_LOOK_ALIKES)
    text = _without_units(whole)
    if (unit := _IN_CURRENCY.search(text)) and unit[1].upper() in CURRENCY_EXPONENTS:
        text = text[: unit.start()]
    # Japanese joins two names with a middle dot (Rakuten Card's `利用店名・商品名`: the shop, the goods).
    parts = [whole, text, *re.split(r"[/\n|\u30fb]", text)]
    # Chinese, Japanese, Hebrew, Greek, Thai and Korean (its syllables split into jamo by NFKD) names are words of
    # their own (NFKD made full-width brackets and colons ASCII).
    return [" ".join(_NOT_NAME.sub(" ", p).split()) for p in parts]


def _known(cell: str) -> list[str]:
    """The names one header cell offers that Zeus knows, in order; none where its parts name both sides
    (BEKB's `Gutschrift / Belastung`: which way each line went, in words of its own), which is neither the
    debit nor the credit column."""
    names = [name for name in _names(cell) if name in _KEY_OF]
    keys = [_KEY_OF[name] for name in names]
    if keys and keys[0] in ("debit", "credit") and {"debit", "credit"} <= set(keys):
        return []
    return names


def column_keys(header: list[str]) -> dict[int, str]:
    """The role each header cell's words give its column, by index (`date`, `amount`, `balance`, `index`…),
    one column a role: of two (`Transaction Date` and `Posted Date`), the name listed first for it wins."""
    found: dict[str, tuple[int, int]] = {}
    for column, cell in enumerate(header):
        names = _known(cell or "")
        keys = [_KEY_OF[name] for name in names]
        if not keys:
            continue
        key, place = ("index", 0) if "index" in keys else (keys[0], _NAMES[keys[0]].index(names[0]))
        if key not in found or place < found[key][1]:
            found[key] = (column, place)
    return {column: key for key, (column, _) in found.items()}


# A column naming the card a line was paid with (Viseca's `CardId`, Swisscard's `Card number`).
_CARD_NAMES = frozenset((
    "card id", "cardid", "card number", "card no", "card used for transaction", "card", "kartennummer",
    "karte", "kartyaszam", "numero de carte", "numero carte", "numero de tarjeta", "tarjeta", "kaartnummer",
    "so the", "卡号",
    # China Merchants Bank's card: its last four digits (`卡号末四位`; `卡号后四位` in its 2016 export).
    "卡号末四位", "卡号后四位",
    # Max's (Israel) card: its last four digits.
    "4 ספרות אחרונות של כרטיס האשראי",
))  # fmt: skip


def card_column(header: list[str]) -> int | None:
    """The index of the one column whose header names the card a line was paid with; None if none or two."""
    found = [i for i, cell in enumerate(header) if any(name in _CARD_NAMES for name in _names(cell or ""))]
    return found[0] if len(found) == 1 else None


# A card's word for what was spent with it (`利用金額`, the amount used; Seven Bank's debit card's `お振替金額`, debited
# for a use, and `差額`, a rebate on one): the column's figures are charges.
_CARD_CHARGES = frozenset(
    fold(name) for name in ("利用金額", "ご利用金額", "利用額", "ご利用額", "이용금액", "お振替金額", "差額")
)
# A card bill's word for what each line costs this bill (Rakuten Card's `9月支払金額`, Life Card's `当月支払金額`,
# Seven Card's `お支払い金額`), after the month it names: beside the amount used, the line's charge this month.
_BILLED = frozenset(fold(name) for name in ("支払金額", "お支払金額", "支払い金額", "お支払い金額", "ご請求金額"))
_THIS_MONTH = re.compile(r"^(?:\d{1,2} ?月|当月|今回)")


def _billed(header: list[str]) -> str | None:
    """The column of a card bill's figures for this bill, by its name as written; None if none."""
    for cell in header:
        if any(_THIS_MONTH.sub("", name) in _BILLED for name in _names(cell or "")):
            return cell.strip()
    return None


# A column only a card's statement has: the day a card was used to buy (American Express Mexico's `Fecha de
# Compra` beside its `Fecha`, Swiss cards' `Einkaufs-Datum`), the day a charge was entered (the Lloyds group's
# cards: Halifax's `Date entered` beside its `Date`), the name a charge appears under on the card's statement
# (American Express' `Appears On Your Statement As`), the card member who used it (American Express' `Card
# Member`: not a `Card Holder`, which Wise's account statement names too), the amount in a purchase's own currency
# (Strawberry Card's `Utl.belopp`, utländskt belopp), a Korean card's card used and merchant (Lotte Card's `이용카드`,
# `이용가맹점`), folded as header cells are.
_CARD_ONLY = frozenset(fold(name) for name in (
    "fecha de compra", "purchase date", "date of purchase", "einkaufs datum", "einkaufsdatum", "kaufdatum",
    "date d achat", "data acquisto", "data di acquisto", "data da compra", "date entered",
    "appears on your statement as",
    "card member", "cardmember", "purchased by", "utl belopp", "utlandskt belopp", "이용카드", "이용가맹점",
))  # fmt: skip


def names_card_table(header: list[str]) -> bool:
    """Whether a header has a column only a card's table has: the table is a card's."""
    return any(name in _CARD_ONLY for cell in header for name in _names(cell or ""))


def namesakes_apart(header: list[str], mapping: dict, sample: list[list[str]]) -> list[str]:
    """The header with each mapped name that heads two or more columns (Credit Agricole Polska's two `Kwota`,
    the first blank on every line) left on the one column the `sample` lines fill, where exactly one is filled
    and it is not the first: the others are renamed after their place (`Kwota (73)`), so the mapping's name
    reads the filled one. A mapping names columns, and a name reads the first column it heads."""
    for name in {value for key, value in mapping.items() if key != "date_format"}:
        same = [i for i, cell in enumerate(header) if fold(cell) == fold(name)]
        filled = [i for i in same if any(i < len(record) and record[i].strip() for record in sample)]
        if len(same) > 1 and len(filled) == 1 and filled != same[:1]:
            header = [f"{cell} ({i + 1})" if i in same and i not in filled else cell for i, cell in enumerate(header)]
    return header


def card_charges(cell: str | None) -> bool:
    """Whether an amount column's header names a card's charges, so its positive figures are money out
    (signs.unsigned_reading)."""
    return any(name in _CARD_CHARGES or _THIS_MONTH.sub("", name) in _BILLED for name in _names(cell or ""))


def names_columns(record: list[str]) -> bool:
    """Whether a line is only column names, none holding a digit (Santander Chile's `SALDO`, `FECHA` over the
    daily balances under its movements): the header of another table, no line of this one."""
    cells = [cell for cell in record if cell.strip()]
    return bool(cells) and all(
        not any(char.isdigit() for char in cell) and any(name in _KEY_OF for name in _names(cell)) for cell in cells
    )


def side_within(cell: str) -> str | None:
    """The one side, `debit` or `credit`, a header cell's words hold a name of within a longer name Zeus does not
    know (`Withdrawal Amt.`, `支出金额`), or else say with `out` or `in` alone (Simplii's `Funds Out`); None where
    they name both or neither. Only for two columns the cells already make debit and credit (columns.py)."""
    text = _names(cell or "")[1]
    words = f" {text} "
    sides = {
        key
        for key in ("debit", "credit")
        for name in _NAMES[key]
        if name not in ("no", "co") and (f" {name} " in words if name.isascii() else name in text)
    }
    if not sides:
        sides = {key for key, word in (("debit", "out"), ("credit", "in")) if word in text.split()}
    return sides.pop() if len(sides) == 1 else None


def credit_second(first: str, second: str) -> bool | None:
    """Of two header cells over the debit and credit columns, whether the second is the credit one by the side
    each names within its words (side_within): None unless they name opposite sides."""
    return {("debit", "credit"): True, ("credit", "debit"): False}.get((side_within(first), side_within(second)))


def names_value_date(cell: str) -> bool:
    """Whether a header cell names the value date (`Valuta`, `Value date`), the interest's day."""
    return any(name in _VALUE_DATES for name in _names(cell or ""))


# What paid for a line (Venmo's `Funding Source`), where a wallet's statement lists payments made from a bank or card;
# which of the holder's products a line is in (Revolut's `Product`: `Current`, `Savings`).
_FUNDING_NAMES = frozenset(("funding source", "funding", "paid with"))
_PRODUCT_NAMES = frozenset(("product", "prodotto", "produkt", "produit", "producto", "produto"))


@dataclass(frozen=True)
class Beside:
    """Columns a header names beside the mapping's, which say how to read its lines: the running balance (`Số dư`,
    `Balance`), what paid for each line (Venmo's `Funding Source`) and which product it is in (Revolut's `Product`)."""

    balance: int | None = None
    funding: int | None = None
    product: int | None = None


def beside(header: list[str]) -> Beside:
    keys = [_KEY_OF[names[0]] if (names := _known(cell)) else None for cell in header]
    folded = [fold(cell or "").strip() for cell in header]

    def first(names: frozenset) -> int | None:
        return next((i for i, cell in enumerate(folded) if cell in names), None)

    balance = keys.index("balance") if "balance" in keys else None
    return Beside(balance=balance, funding=first(_FUNDING_NAMES), product=first(_PRODUCT_NAMES))


def auto_mapping(header: list[str]) -> dict | None:
    """The mapping this header implies (column names as written), or None unless it names a date, an amount
    (or debit and credit) and a description column: fewer is too little to be sure it is a statement."""
    found: dict[str, str] = {}
    rank: dict[str, int] = {}
    for cell in header:
        names = _known(cell)
        keys = [_KEY_OF[name] for name in names]
        if not keys or "index" in keys:
            continue
        # Two columns for one key (`Details` and `Description`): the name listed first for it wins.
        place = _NAMES[keys[0]].index(names[0])
        if keys[0] not in found or place < rank[keys[0]]:
            found[keys[0]], rank[keys[0]] = cell.strip(), place
    found.pop("balance", None)
    for side, other in (("debit", "credit"), ("credit", "debit")):
        if side in found and other not in found and _known(found[side])[0] in ("no", "co"):
            found.pop(side)  # `No.` alone numbers the lines (BNI's, Bank Jatim's): Nợ only beside a Có
    sides = [found[key] for key in ("debit", "credit") if key in found]
    if found.pop("contra", None) and sides and all(_known(cell)[0] in _BOOK_SIDES for cell in sides):
        money_in, money_out = found.pop("debit", None), found.pop("credit", None)
        found.update({k: v for k, v in (("credit", money_in), ("debit", money_out)) if v})
    amount = next((i for i, cell in enumerate(header) if "amount" in found and cell.strip() == found["amount"]), None)
    if amount is not None and "currency" not in found and amount + 1 < len(header) and not header[amount + 1].strip():
        # DEGIRO's `Mutatie`: the named column holds the currency, the unnamed one beside it the figure.
        found["currency"] = found["amount"]
    if "amount" in found and card_charges(found["amount"]) and (billed := _billed(header)):
        # What a line costs this bill, not what it cost when used: an instalment's part, a cash advance's fee.
        found["amount"] = billed
        found.pop("debit", None)
    if "amount" in found and ("debit" in found or "credit" in found):
        found.pop("amount")
    if "fee" in found and "amount" in found and _known(found["amount"])[0] in _NET:
        found.pop("fee")  # a net figure (PayPal's `Net`) has its fee taken off already: not charged twice
    if (
        "direction" in found
        and not {"amount", "debit", "credit"} & set(found)
        and _known(found["direction"])[0] in _BOTH_SIDES
    ):
        # A column named for both sides with no figure beside it holds the signed figure (1822direkt's `Soll/Haben`).
        found["amount"] = found.pop("direction")
    if "debit" in found or "credit" in found:
        # Beside debit and credit columns a `Transaction Type` names the transaction (K-Bank's `Transfer
        # Withdrawal NB`), not a direction: the text, where there is no other.
        kind = found.pop("direction", None)
        if kind and ("description" not in found or _known(found["description"])[0] in _NOTES):
            found["description"] = kind  # before a `Note` column, which K-Bank leaves empty
    if "date" not in found or "description" not in found or not ({"amount", "debit", "credit"} & set(found)):
        return None
    return found
