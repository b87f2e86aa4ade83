"""Deterministic readers of Vietnamese bank and wallet notification texts. Pure: no ORM, no clock (`now` and
the user's timezone come in), one function per format, tried in order; `parse` returns None for text that
no reader knows.

Shapes (account numbers and names invented):
  Vietcombank  SD TK 0121000891319 +4,100,000VND luc 29-02-2026 00:11:31. SD 112,734,090VND. Ref MBVCB.CT tu ...
  Techcombank  TK 19034589147017 / So tien GD:+10,000,000 / So du:734,571,040 / VND_TGTT_NGUYEN TRONG HIEN
  MB           TK 7220xxxx2005|GD: +5,000,000VND 29/02/26 01:15|SD:151,495,520VND|ND: Mua hang
               TK 0123xxx789 -150,000VND 01/12 10:15 SD 2,345,000VND ND: KFC NGUYEN HUE
  BIDV         TK670xxx7492 tai BIDV +30,000,000VND vao 02:11 29/02/2026. So du:921,301,529VND. ND: CK ...
  VPBank       TK 186708598 tai VPB tang 500,000VND do KHACH HANG NOP TIEN. So du TK sau GD la 553,115,403VND
  ACB          ACB: TK 7241387(VND) + 2,000,000 luc 08:24 29/02/2026. So du 763,222,700. GD: HOANG TRONG NHAN CK
  MoMo         Bạn vừa nhận được 500.000đ từ NGUYEN VAN A. Lời nhắn: tra tien an
               Thanh toán thành công 150.000đ cho KFC Nguyễn Huệ lúc 10:15 01/12/2026
"""

import datetime as dt
import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from assets.rules.text import fold

MAX_AMOUNT = Decimal(10**12)


@dataclass(frozen=True)
class ParsedText:
    bank: str
    amount: Decimal
    direction: str  # expense or income
    occurred_at: dt.datetime
    description: str
    currency: str = "VND"
    account_mask: str = ""
    balance_after: Decimal | None = None


_NUM = r"\d{1,3}(?:[.,]\d{3})+|\d+"


def _amount(text: str) -> Decimal:
    """`150,000`, `150.000`, `2,345,000`, `150000`: VND has no minor unit, so every separator groups."""
    return Decimal(re.sub(r"[.,\s]", "", text))


def _sign(mark: str) -> str:
    return "expense" if mark.strip() in ("-", "giam") else "income"


def _mask(number: str) -> str:
    """A display mask keeping the last four digits (or what the bank already masked)."""
    digits = re.sub(r"[^0-9xX*]", "", number)
    tail = digits[-4:] if len(digits) >= 4 else digits
    return f"•••• {tail}".replace("X", "x")


def _clean(text: str) -> str:
    return " ".join(text.replace("\x00", " ").split()).strip(" .;|")[:200]


def _when(
    now: dt.datetime, tz: zoneinfo.ZoneInfo, *, day, month, year=None, hour=0, minute=0, second=0
) -> dt.datetime | None:
    local_now = now.astimezone(tz)
    try:
        if year is None:
            year = local_now.year
            candidate = dt.datetime(year, int(month), int(day), int(hour), int(minute), int(second), tzinfo=tz)
            if candidate > local_now + dt.timedelta(days=1):  # "31/12" read on the 1st of January
                candidate = candidate.replace(year=year - 1)
            return candidate
        year = int(year)
        if year < 100:
            year += 2000
        return dt.datetime(year, int(month), int(day), int(hour), int(minute), int(second), tzinfo=tz)
    except ValueError:
        return None


# Each reader: folded text → ParsedText fields, or None. The folded text keeps the original's layout of
# digits and punctuation (folding only drops case and diacritics), so positions carry over to `raw`.

_VCB = re.compile(
    rf"^(?:vietcombank[:\s]*)?so du tk (?:vcb )?(?P<acct>[0-9x*]+) (?P<sign>[+-])\s?(?P<amt>{_NUM}) ?vnd "
    r"luc (?P<d>\d{1,2})-(?P<m>\d{1,2})-(?P<y>\d{4}) (?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?\. "
    rf"so du (?P<bal>{_NUM}) ?vnd\.?\s*(?:ref (?P<nd>.*))?$"
)
_VCB_SHORT = re.compile(
    rf"^(?:vietcombank[:\s]*)?sd tk (?:vcb )?(?P<acct>[0-9x*]+) (?P<sign>[+-])\s?(?P<amt>{_NUM}) ?vnd "
    r"luc (?P<d>\d{1,2})-(?P<m>\d{1,2})-(?P<y>\d{4}) (?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?\. "
    rf"sd (?P<bal>{_NUM}) ?vnd\.?\s*(?:ref (?P<nd>.*))?$"
)
_TCB = re.compile(
    rf"^(?:techcombank[:\s]*)?tk (?P<acct>[0-9x*]+)\s+so tien gd:\s?(?P<sign>[+-])\s?(?P<amt>{_NUM})(?: ?vnd)?\s+"
    rf"so du:\s?(?P<bal>{_NUM})(?: ?vnd\b)?\s*(?P<nd>.*)$"
)
_TCB_TIMED = re.compile(
    rf"^(?:techcombank[:\s]*)?tk (?P<acct>[0-9x*]+)\s+(?P<sign>[+-])\s?(?P<amt>{_NUM}) ?vnd "
    r"luc (?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{2,4}) (?P<H>\d{1,2}):(?P<M>\d{2})\.?\s+"
    rf"(?:so du|sd):?\s?(?P<bal>{_NUM}) ?vnd\.?\s*(?:nd:\s*(?P<nd>.*))?$"
)
_MB_PIPES = re.compile(
    rf"^(?:mb(?:bank)?[:\s]*)?tk (?P<acct>[0-9x*]+)\|gd: ?(?P<sign>[+-])\s?(?P<amt>{_NUM}) ?vnd "
    r"(?P<d>\d{1,2})/(?P<m>\d{1,2})(?:/(?P<y>\d{2,4}))? (?P<H>\d{1,2}):(?P<M>\d{2})\|"
    rf"sd: ?(?P<bal>{_NUM}) ?vnd\|?\s*(?:nd: ?(?P<nd>.*))?$"
)
_MB_SPACES = re.compile(
    rf"^(?:mb(?:bank)?[:\s]*)?tk (?P<acct>[0-9x*]+) (?P<sign>[+-])\s?(?P<amt>{_NUM}) ?vnd "
    r"(?P<d>\d{1,2})/(?P<m>\d{1,2})(?:/(?P<y>\d{2,4}))? (?P<H>\d{1,2}):(?P<M>\d{2}) "
    rf"sd:? ?(?P<bal>{_NUM}) ?vnd\.?\s*(?:nd: ?(?P<nd>.*))?$"
)
_BIDV = re.compile(
    rf"^(?:bidv[:\s]*)?tk ?(?P<acct>[0-9x*]+) tai bidv (?P<sign>[+-])\s?(?P<amt>{_NUM}) ?vnd "
    r"vao (?P<H>\d{1,2}):(?P<M>\d{2}) (?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4})\. "
    rf"so du: ?(?P<bal>{_NUM}) ?vnd\.?\s*(?:nd: ?(?P<nd>.*))?$"
)
_VPB = re.compile(
    rf"^(?:vpbank[:\s]*)?tk (?P<acct>[0-9x*]+) tai vpb (?P<sign>tang|giam) (?P<amt>{_NUM}) ?vnd "
    r"(?:luc (?P<H>\d{1,2}):(?P<M>\d{2}) (?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4}) )?"
    rf"do (?P<nd>.*?)\. so du tk sau gd la (?P<bal>{_NUM}) ?vnd\.?$"
)
_ACB = re.compile(
    rf"^acb: tk (?P<acct>[0-9x*]+)\(vnd\) (?P<sign>[+-]) ?(?P<amt>{_NUM}) "
    r"luc (?P<H>\d{1,2}):(?P<M>\d{2}) (?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4})\. "
    rf"so du (?P<bal>{_NUM})\.?\s*(?:gd: ?(?P<nd>.*))?$"
)
_MOMO_IN = re.compile(
    rf"^(?:momo[:\s]*)?(?:nhan tien thanh cong[.!]?\s*)?ban (?:vua )?(?:da )?nhan(?: duoc)? "
    rf"(?P<amt>{_NUM}) ?(?:d|vnd|dong) tu (?P<party>.+?)"
    r"(?: luc (?P<H>\d{1,2}):(?P<M>\d{2}) (?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4}))?"
    r"(?:\.\s*(?:loi nhan: ?(?P<nd>.*))?)?$"
)
_MOMO_OUT = re.compile(
    rf"^(?:momo[:\s]*)?(?:thanh toan|chuyen tien) thanh cong (?P<amt>{_NUM}) ?(?:d|vnd|dong) "
    r"(?:cho|den|toi) (?P<party>.+?)"
    r"(?: luc (?P<H>\d{1,2}):(?P<M>\d{2}) (?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4}))?(?:\.\s*(?P<nd>.*))?$"
)

_BANK_FORMATS: list[tuple[str, re.Pattern]] = [
    ("Vietcombank", _VCB),
    ("Vietcombank", _VCB_SHORT),
    ("Techcombank", _TCB),
    ("Techcombank", _TCB_TIMED),
    ("MB", _MB_PIPES),
    ("MB", _MB_SPACES),
    ("BIDV", _BIDV),
    ("VPBank", _VPB),
    ("ACB", _ACB),
]


def _tidy(text: str) -> str:
    """Folded, one line, spaces collapsed: SMS and app notifications break lines and spaces at random."""
    return re.sub(r"\s+", " ", fold(text.replace("\r", "\n"))).strip()


def _original(raw_words: str, folded: str, start: int, end: int) -> str:
    """The user's own words for a folded span (folding keeps length for Vietnamese, else the folded text)."""
    return raw_words[start:end] if len(raw_words) == len(folded) else folded[start:end]


def _bank(bank: str, match: re.Match, raw: str, folded: str, now, tz) -> ParsedText | None:
    groups = match.groupdict()
    amount = _amount(groups["amt"])
    if groups.get("d"):
        when = _when(
            now,
            tz,
            day=groups["d"],
            month=groups["m"],
            year=groups.get("y"),
            hour=groups.get("H") or 0,
            minute=groups.get("M") or 0,
            second=groups.get("S") or 0,
        )
    else:
        when = now.astimezone(tz)
    if when is None:
        return None
    description = ""
    if groups.get("nd") is not None:
        description = _clean(_original(raw, folded, match.start("nd"), match.end("nd")))
    return ParsedText(
        bank=bank,
        amount=amount,
        direction=_sign(groups["sign"]),
        occurred_at=when,
        description=description,
        account_mask=_mask(groups["acct"]),
        balance_after=_amount(groups["bal"]) if groups.get("bal") else None,
    )


def _momo(match: re.Match, direction: str, raw: str, folded: str, now, tz) -> ParsedText | None:
    groups = match.groupdict()
    when = (
        _when(now, tz, day=groups["d"], month=groups["m"], year=groups["y"], hour=groups["H"], minute=groups["M"])
        if groups.get("d")
        else now.astimezone(tz)
    )
    if when is None:
        return None
    party = _clean(_original(raw, folded, match.start("party"), match.end("party")))
    note = _clean(_original(raw, folded, match.start("nd"), match.end("nd"))) if groups.get("nd") else ""
    return ParsedText(
        bank="MoMo",
        amount=_amount(groups["amt"]),
        direction=direction,
        occurred_at=when,
        description=_clean(f"{party} {note}"),
    )


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\r", "\n")).strip()


def parse(text: str, *, now: dt.datetime, tz: zoneinfo.ZoneInfo) -> ParsedText | None:
    """The first reader that knows this text, or None. An amount of zero or beyond a trillion dong is not a
    transaction and reads as None too."""
    raw = _one_line(text)
    folded = _tidy(text)
    parsed = None
    for bank, pattern in _BANK_FORMATS:
        match = pattern.match(folded)
        if match:
            parsed = _bank(bank, match, raw, folded, now, tz)
            break
    else:
        readers: list[tuple[re.Pattern, Callable]] = [
            (_MOMO_IN, lambda m: _momo(m, "income", raw, folded, now, tz)),
            (_MOMO_OUT, lambda m: _momo(m, "expense", raw, folded, now, tz)),
        ]
        for pattern, read in readers:
            match = pattern.match(folded)
            if match:
                parsed = read(match)
                break
    if parsed is None or not 0 < parsed.amount <= MAX_AMOUNT:
        return None
    return parsed


def looks_like_bank_text(text: str) -> bool:
    """A cheap test for the chat's router: a pasted notification rather than a question. True for text a
    reader knows, and for text with the marks every bank notification has (an account, a signed amount in
    dong, a balance) even when no reader knows its layout."""
    folded = _tidy(text)
    if len(folded) > 1000:
        return False
    signed = re.search(rf"(?:[+-] ?(?:{_NUM})\b|\b(?:tang|giam) \d)", folded)
    account = re.search(r"\btk ?[:]? ?[0-9x*]{4,}", folded)
    balance = re.search(r"\b(?:sd|so du|sodu)\b", folded)
    wallet = re.match(
        r"^(?:momo[:\s]*)?(?:nhan tien thanh cong|ban (?:vua )?(?:da )?nhan|(?:thanh toan|chuyen tien) thanh cong)",
        folded,
    )
    return bool(wallet or (signed and (account or balance)))
