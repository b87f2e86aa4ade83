"""Figures in a reply checked against the turn's tool results (docs/chat.md, "Figures checked").

The model writes the prose; the numbers must come from the tools. `extract_figures` finds every money
figure and percentage in a reply, in the formats replies use (1,250,000 ₫, 1.250.000 ₫, 1.25tr, 2 triệu,
150k, 12.50 USD, $12.50, 30 %, 30%). `unverified_figures` lists those that no number of the turn supports:
the numbers in its tool results (numbers, and strings that read as amounts), the sum of each numeric field
over a list of records, the sums and differences of two such numbers, and for percentages also the ratio
of two numbers that sit side by side (two fields of one record, two column totals of one list). The
user's own words in the turn count as support too: repeating the user's figure is not making one up. A
figure matches a number when the number, rounded to the figure's stated precision, is the figure (1.25tr
stands for anything from 1,245,000 to 1,255,000), never looser than 5 % of the figure.

Not money, never checked: dates (2026-11-30, 30/11/2026, 30.11.2026), bare numbers without a currency,
a multiplier or thousands grouping ("12 days", "3 transactions", "#42", "2026"), and grouped numbers
followed by a word that counts things ("1,200 transactions").

Pure: no ORM, no clock.
"""

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from zeus.money import AMOUNT_IN_TEXT, InvalidAmount, parse_amount

# Above this many distinct numbers the pairwise sums, differences and ratios are skipped (the leaves and
# the column sums still count): the pairs grow with the square of the numbers, and a long table would make a
# turn wait on arithmetic nobody reads.
PAIRWISE_LIMIT = 150

_DATES = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4}\b|\b\d{1,2}/\d{1,2}\b|\b\d{4}-\d{2}\b"
)
_PERCENT_AFTER = re.compile(r"\s?%")
_COUNT_WORDS = re.compile(
    r"\s*(?:days?|ngày|weeks?|tuần|months?|tháng|years?|năm|times?|lần|transactions?|giao dịch|items?|"
    r"records?|people|người|khoản|mục)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Figure:
    text: str  # as written in the reply
    value: Decimal
    unit: Decimal  # the stated precision: 1 for "1,250,000", 10,000 for "1.25tr", 0.01 for "$12.50"
    kind: str  # "money" | "percent"


def _unit(number: str, power: int) -> Decimal:
    """The last stated digit's place: `1.25` with a multiplier of 10^6 → 10,000; `1,250,000` → 1;
    `12.50` → 0.01. One kind of separator before exactly three digits groups thousands, unless a
    multiplier follows (`1.250tr` is 1,250,000 stated to the thousand)."""
    last = max(number.rfind("."), number.rfind(","))
    decimals = 0
    if last >= 0:
        tail = number[last + 1 :]
        separators = {c for c in number if c in ".,"}
        thousands = len(tail) == 3 and power == 0 and len(separators) == 1
        decimals = 0 if thousands else len(tail)
    return Decimal(1).scaleb(power - decimals)


def extract_figures(text: str) -> list[Figure]:
    masked = _DATES.sub(lambda m: " " * len(m.group(0)), text or "")
    figures = []
    for match in AMOUNT_IN_TEXT.finditer(masked):
        number, mult, pre, post = match["num"], match["mult"], match["pre"], match["post"]
        written = text[match.start() : match.end()].strip()
        after = masked[match.end() :]
        percent = _PERCENT_AFTER.match(after)
        if percent and not (pre or post or mult):
            value = _plain_number(number)
            if value is not None:
                written = text[match.start() : match.end() + len(percent.group(0))].strip()
                figures.append(Figure(written, value, _unit(number, 0), "percent"))
            continue
        grouped = bool(re.search(r"\d[.,\u00a0\u202f]\d{3}(?!\d)", number)) and not (mult or pre or post)
        if not (pre or post or mult or grouped):
            continue
        if grouped and _COUNT_WORDS.match(after):
            continue
        try:
            parsed = parse_amount(written.replace("\u00a0", " ").replace("\u202f", " "))
        except InvalidAmount:
            continue
        power = 0
        if mult:
            # Read with a multiplier, a lone separator is the decimal point (1.250tr = 1.25 million).
            plain = parse_amount(f"{number}k").amount / 1000
            power = (parsed.amount / plain).adjusted() if plain else 0
        figures.append(Figure(written, parsed.amount, _unit(number, power), "money"))
    return figures


def _plain_number(number: str) -> Decimal | None:
    try:
        return parse_amount(number).amount
    except InvalidAmount:
        try:
            return Decimal(number.replace(",", "."))
        except InvalidOperation:
            return None


def _number_of(value) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float | Decimal):
        try:
            number = abs(Decimal(str(value)))
        except InvalidOperation:
            return None
        return number if number.is_finite() else None
    if isinstance(value, str) and len(value) <= 40 and re.search(r"\d", value):
        try:
            return parse_amount(value).amount
        except InvalidAmount:
            return None
    return None


def _walk(value, leaves: list[Decimal], groups: list[list[Decimal]]) -> None:
    """Every number in `value` into `leaves`; into `groups`, the numbers that sit side by side (the
    fields of one record, the column totals of one list): a percentage is a ratio within one group."""
    if isinstance(value, dict):
        group = [n for n in map(_number_of, value.values()) if n is not None]
        leaves.extend(group)
        if len(group) > 1:
            groups.append(group)
        for item in value.values():
            if isinstance(item, dict | list | tuple):
                _walk(item, leaves, groups)
    elif isinstance(value, list | tuple):
        columns: dict[str, list[Decimal]] = {}
        for item in value:
            if isinstance(item, dict):
                for key, field in item.items():
                    number = _number_of(field)
                    if number is not None:
                        columns.setdefault(key, []).append(number)
            elif (number := _number_of(item)) is not None:
                leaves.append(number)
            if isinstance(item, dict | list | tuple):
                _walk(item, leaves, groups)
        totals = [sum(column) for column in columns.values() if len(column) > 1]
        leaves.extend(totals)
        if len(totals) > 1:
            groups.append(totals)
    elif (number := _number_of(value)) is not None:
        leaves.append(number)


def supporting_numbers(sources: Iterable) -> tuple[set[Decimal], set[Decimal]]:
    """(numbers a money figure may match, numbers a percentage may match) from tool outputs and texts."""
    leaves: list[Decimal] = []
    groups: list[list[Decimal]] = []
    for source in sources:
        if isinstance(source, str):
            leaves.extend(f.value for f in extract_figures(source))
            leaves.extend(n for n in map(_plain_number, re.findall(r"\d+(?:[.,]\d+)?", source)) if n is not None)
        else:
            _walk(source, leaves, groups)
    money = set(leaves)
    percent = set(leaves)
    if len(money) <= PAIRWISE_LIMIT:
        for a, b in itertools.combinations(sorted(money), 2):
            money.add(a + b)
            money.add(b - a)
    for group in groups:
        for a, b in itertools.permutations(group[:PAIRWISE_LIMIT], 2):
            if b:
                percent.add(a / b * 100)
                percent.add((b - a) / b * 100)
    return money, percent


def _supported(figure: Figure, candidates: set[Decimal]) -> bool:
    # Rounded to its stated precision, but never looser than 5 %: "2tr" stands for 1.9 to 2.1 million.
    half = min(figure.unit / 2, abs(figure.value) / 20)
    return any(abs(candidate - figure.value) <= half for candidate in candidates)


def unverified_figures(reply: str, sources: Iterable) -> list[str]:
    """The figures of `reply` that none of `sources` (tool outputs as JSON values, the user's texts)
    supports, as written, in order, each once."""
    figures = extract_figures(reply)
    if not figures:
        return []
    money, percent = supporting_numbers(sources)
    unmatched = [f.text for f in figures if not _supported(f, percent if f.kind == "percent" else money)]
    return list(dict.fromkeys(unmatched))
