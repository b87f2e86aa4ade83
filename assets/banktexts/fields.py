"""The fields every bank notification carries, each found by what labels it rather than by where one bank
puts it: the signed or worded amount, the balance after, the account, the moment (on any line, in any of
the banks' date and time spellings) and the free-text note. Pure functions over folded text (lower case, no
diacritics, one line), returning spans so the note can be cut from the user's own words."""

import datetime as dt
import re
import zoneinfo
from dataclasses import dataclass
from decimal import Decimal

NUM = r"\d{1,3}(?:[.,]\d{3})+(?:\.\d{1,2})?|\d+"
_GROUPED = r"\d{1,3}(?:[.,]\d{3})+"
# `₫`, the dong's sign (VPBank NEO's pushes: `+ 20,000 ₫`), is no word character: no \b after it.
_CUR = r"(?:(?:vnd|vnđ|dong|d)\b|₫)"

_BALANCE = re.compile(
    # Vietcombank's fee SMS: `So du tai thoi diem gd 1,162,670VND` (the balance when the fee was taken).
    r"(?:\bso du(?: kha dung| hien tai| vi| cuoi| moi| tk sau gd la| sau gd| tai khoan| tai thoi diem gd)*|\bsdc|\bsdkd"
    r"|\bavailable balance|\bbalance|\bsodu"
    # Vietcombank's card payment: the debited account's balance, `SD TK trich no tam tinh 1033311702: 486,392VND`, in
    # full words where the text has its accents (`Số dư TK trích nợ tạm tính 1027959072: …`).
    r"|\b(?:sd|so du) tk trich no(?: tam tinh)? [0-9x*]+"
    r"|\bsd(?: kha dung)?)\b\s*(?:la\s*)?:?\s*\+?(?:vnd\s*)?"
    rf"(?P<num>{_GROUPED}(?:\.\d{{1,2}}(?!\d))?|\d+(?=\s?{_CUR}|\s*$|\s*[.;|]))\s?(?:{_CUR})?"
)
# SHB's SMS says its balance last, after the account and the moment: `SDTK 1000006789 den 17:56:38 ngay 13/11/2022 la
# 8,668,033 VND.` Only `la …` is the balance's span: the account and the moment before it are fields of their own.
_SDTK_BALANCE = re.compile(rf"\bsd ?tk [0-9x*]+ den\b[^.|;]*?\b(?P<label>la)\s+(?P<num>{_GROUPED}|\d+)\s?(?:{_CUR})")
DATE = re.compile(r"(?<![\d.,/-])(?P<d>\d{1,2})[/-](?P<m>\d{1,2})(?:[/-](?P<y>\d{4}|\d{2}))?(?![\d,])")
# The year first, as wallets' SMS write it (Viettel Money's `luc 2023-08-11 14:13:34`).
ISO_DATE = re.compile(r"(?<![\d.,/-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?![\d,])")
TIME = re.compile(r"(?<![\d.,:])(?P<H>\d{1,2})(?::|h)(?P<M>\d{2})(?:(?::|m)(?P<S>\d{2}))?p?(?![\d,])")
# A signed figure after its label, with or without a currency: `So tien GD:+10,000,000`, `PS: -50,000`, and in English
# (`Amount: + 1,247,272`, `Transaction amount: -500,000 VND`, VIB's `AMOUNT:+2,500,000`).
_LABELLED = re.compile(
    r"(?:\bso tien(?: gd| giao dich)?|\bgd|\bps|\bphat sinh|\bamount)"
    rf"\s*:?\s*(?P<sign>[+-])\s?(?:vnd\s*)?(?P<num>{NUM})"
)
# A figure with a sign: `+4,100,000VND`, `GD: -500,000VND`, `PS:+50,000`, `- VND 253,160`, `+ 2,000,000 luc`.
_SIGNED = re.compile(
    rf"(?:^|(?<=[\s:|;(]))(?P<sign>[+-])\s?(?:vnd\s*)?(?P<num>{NUM})(?:\s?{_CUR}|(?=\s+(?:luc|vao|ngay)\b)"
    rf"|(?=\s*(?:\||;|\.\s|$)))"
    rf"|\((?P<psign>[+-])\)\s?(?P<pnum>{NUM})(?![\d.,])"  # a sign in brackets: `(+) 1,200,000 VND` (OCB, MSB)
    # The currency before the figure already says it is money, whatever follows: Techcombank's push `+ VND 208,080
    # Tài khoản: …`.
    rf"|(?:^|(?<=[\s:|;(]))(?P<csign>[+-])\s?vnd\s*(?P<cnum>{NUM})(?![\d.,])"
)
# A fee or its tax as a signed figure of its own after the amount (TPBank's `PS:-10.000VND  VAT:-1.000VND`, Viettel
# Money's `GD -15,203,220 VND … So du 31,495 VND Phi: -3,300 VND`): the account paid both, as MSB's `(-) 1.911.000
# (GD:1.900.000,Thue/Phi: 11.000)` says in one figure.
_FEE = re.compile(rf"\b(?:vat|thue|phi)(?:/(?:vat|thue|phi))?(?: gd| giao dich)?\s*:?\s*-\s?(?P<num>{NUM})\s?{_CUR}")
# A figure after words that say which way it went. `cong` (plus) is money in, but `thanh cong` (success) says no way:
# `… thanh toan dich vu X thanh cong. So tien 99.000 VND` is a payment.
_WORDED = re.compile(
    r"\b(?P<word>duoc thanh toan|tang|giam|ghi no|ghi co|nhan duoc|nhan|chuyen thanh cong|chuyen tien thanh cong|chuyen"
    r"|thanh toan thanh cong|thanh toan|rut tien thanh cong|rut tien|rut ra|nap tien thanh cong|nap tien|hoan tien"
    rf"|tru|(?<!thanh )cong)\b(?:[^0-9+-]{{0,20}}?)\s?(?P<num>{NUM})"
    # Its currency after it; or none, when the figure is grouped by thousands and the sentence goes on to say whom it
    # was for (ViettelPay's `thanh toan thanh cong hoa don tien Dien 51.117 cho khach hang …`).
    rf"(?:\s?(?:{_CUR})|(?<=[.,]\d{{3}})(?=\s+cho\b))"
)
# Sacombank's unsigned deposit and withdrawal: `gui 3,484,000 VND vao TK …`, `rut 500,000 VND tu TK …`.
_DEPOSIT = re.compile(rf"\b(?P<word>gui|rut)\s+(?P<num>{NUM})\s?(?:{_CUR})\s+(?:vao|tu)\s+tk\b")
# English SMS (Shinhan's): `debit VND 15,175,650`, `credit VND …`; a card's approval: `…/19:17/857,000/…`.
_ENGLISH = re.compile(rf"\b(?P<word>debit|credit)\s+vnd\s*(?P<num>{NUM})")
# Matched where the text or one of its lines opens (after a push's title too), never searched for inside a text.
_APPROVED = re.compile(rf"transaction approved\b.*?/\s*(?P<num>{NUM})/")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
EN_DATE = re.compile(rf"(?<![\d.,/-])(?P<d>\d{{1,2}}) (?P<m>{'|'.join(_MONTHS)})[a-z]*\b(?: (?P<y>\d{{4}}))?")
CARD_MASK = re.compile(r"\((?:\*{2,}|x{2,})(?P<digits>\d{2,4})\)")
# A card number masked with dots after its first digits: Vietcombank's `The Visa 452404...6779`, and its 2015 SMS that
# keep three digits after the dots (`The VCB MasterCard 526418...019`); or masked whole with stars, VIB's `THE TT
# VIB:****4588` (thẻ thanh toán, a payment card).
_DOTTED_CARD = re.compile(r"\bthe\b\D{0,20}?(?:\b\d{4,6}\.{2,}|\*{2,})(?P<digits>\d{3,4})\b")
# An unsigned figure in dong with the way it went said anywhere before it (Eximbank's `THANH TOAN … 544,885VND`); after
# `So tien` (the amount) its thousands need no separator (Vietcombank's `THU PHI … So tien 8800VND`).
_PLAIN = re.compile(rf"(?<![\w.,])(?P<num>{_GROUPED}|(?<=so tien )\d+)\s?(?:(?:vnd|d)\b|₫)")
# `su dung tai` is a card used at a merchant (Vietcombank's `The Visa …6779 su dung tai SHOP so tien 13,608 VND`),
# `tt` is `thanh toan` cut short (VIB's card payment `THE TT VIB:****4588 GIATRI:71,000 VND TAI:…`), `thu phi` a
# fee charged (`THU PHI DICH VU SMS … So tien 8800VND`); `duoc thanh toan` (was paid) is money in, not out, and so is
# a transfer received (`nhan chuyen khoan`, MoMo's `Nhận chuyển khoản từ …` / `Số tiền 10.000 ₫ về Túi Thần Tài`, `nhan
# tien chuyen khoan`).
_OUT_WORDS = re.compile(
    r"\b(?:(?<!duoc )thanh toan|tt|chuyen tien|(?<!nhan )(?<!nhan tien )chuyen khoan|rut tien|ghi no|su dung tai"
    r"|thu phi)\b"
)
_IN_WORDS = re.compile(r"\b(?:nhan tien|nhan chuyen khoan|ghi co|nop tien|hoan tien|duoc thanh toan)\b")
_INCOME_WORDS = ("tang", "ghi co", "nhan", "nap tien", "hoan tien", "cong", "duoc thanh toan")
_ACCOUNT = re.compile(
    # `acc no.` needs no word boundary: Shinhan's SMS arrive with a stray letter glued to it (`TAcc no. **5106`).
    # SHB's `SDTK 1000006789` (số dư tài khoản) names the account too; VIB masks with dots (`Tài khoản ....7213`).
    # In English: `Account 4623…`, BIDV's push `Accounts: 8808…`, VIB's SMS `ACCT:023901788VND`.
    r"(?:(?<![a-z])(?:tai khoan(?: thanh toan)?|so tk|stk|sdtk|tk|accounts?|acct)|acc(?:ount)? no\.?)"
    r"\s*(?:vcb\s*)?:?\s*"
    r"(?P<acct>[*x]*\d[0-9x*]{2,}|[*x]{2,}\d{3,}|\.{2,}\d{3,})",
    re.I,
)
NOTE_LABELS = (
    # `ND`, `Ref` and `N/dung` label a note with or without a colon; the longer words only with one, else they are
    # words of the note itself (`… Noi dung khac Tieu dung noi bo`).
    r"(?:(?:\bnd|\bn/dung|\bref)\s*:?\s*"
    r"|(?:\bnoi dung(?: giao dich| gd| chuyen khoan)?|\bmo ta|\bloi nhan|\bdien giai)\s*:\s*"
    # In English: BIDV's push `Transaction note: …`, VIB's SMS `SUBJECT:NOP TIEN`; and where a card was used, VIB's
    # `TAI:<merchant>` (`tại`, at), which `Số dư hiện tại:` (the balance now) is not.
    r"|(?:\bnote|\bsubject|(?<!hien )\btai)\s*:\s*"
    # `GD:` before a figure labels the amount (`GD: -500,000VND`); before a plain code and words it labels ACB's note
    # (`So du 20,380,085.GD: 43242 TRAN HUY PHUONG`).
    r"|\bdetail\s*:\s*|(?<!so )(?<!thoi gian )\bgd\s*:\s*(?![+-]\s?\d)(?!\d(?!\d*\s+(?!(?:vnd|vnđ|d|dong)\b)[a-z]))"
    # SHB's `GD moi nhat: +2,500,000 VND: PHAM …`: a colon right after the amount's currency opens the note.
    r"|(?:(?<=\d vnd)|(?<=\dvnd)):\s*)(?=\S)(?!:)"
)
# Each label above opens with one of these characters: the engine passes over any other position at once (as for
# banks.REFUSED, and compared with the labels alone by the same test).
NOTE = re.compile(r"(?=[ndrmlgst:])" + NOTE_LABELS)
# A bank's own reference after the note (TPBank's `SO GD: 570CTMB…`, BIDV's `Mã giao dịch: 0832…`) ends it; so does
# a reference that closes the text, one code after its label (Techcombank's push ends on a line `Ma tham chieu 9704…`);
# so does the fee the sender reports in a sentence of its own (Viettel Money's `Noi dung: Anh cho vay. Phi GD 0 VND.`),
# a transaction id (MoMo's `… luc 10:43 05/08/2014. TID: 33885065. Xin cam on.`) and the sender's closing thanks, a
# sentence of its own at the very end (a note's own `cam on` has no full stop before it).
# BIDV's English push ends its note with `Transaction code: …`. A push recorded with its title after the body (`… Ref
# … ║ Thông báo VCB`) ends its note where the title begins.
_TRACED = re.compile(r"\btrace \d+\s*$")
NOTE_END = re.compile(
    r"\s*║|\s(?:so gd|ma giao dich|ma gd|tid|transaction code)\s*:|\sma tham chieu\s*:?\s*[0-9a-z]+[\s.]*$"
    r"|\.\s+(?:xin )?cam on(?: quy khach)?\W*$"
    r"|\.\s+phi(?: gd| giao dich)?\s*:?\s*-?\s?\d[\d.,]*\s?(?:vnd|d)\b"
)


@dataclass(frozen=True)
class Figure:
    amount: Decimal
    direction: str
    start: int
    end: int


def number(text: str) -> Decimal:
    """VND has no minor unit, so `.` and `,` both group: `150,000`, `150.000`. A two-digit tail after the last
    separator is a decimal part (`12.50`)."""
    text = text.strip()
    if re.search(r"[.,]\d{1,2}$", text) and not re.fullmatch(_GROUPED, text):
        whole, cents = re.split(r"[.,](?=\d{1,2}$)", text)
        return Decimal(re.sub(r"[.,]", "", whole) + "." + cents)
    return Decimal(re.sub(r"[.,\s]", "", text))


def masked(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with the spans blanked (same length), so later searches skip what is already read."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def balance(folded: str) -> tuple[Decimal | None, list[tuple[int, int]]]:
    found = [(m.start(), m.end(), m["num"]) for m in _BALANCE.finditer(folded)]
    found += [(m.start("label"), m.end(), m["num"]) for m in _SDTK_BALANCE.finditer(folded)]
    found.sort()
    return (number(found[-1][2]) if found else None), [(start, end) for start, end, _ in found]


def figure(folded: str, openings: tuple[int, ...] = (0,)) -> Figure | None:
    """The transaction's amount and direction: a signed figure first, else one after a direction word.
    `openings` are where the text's lines open (an app push's title lines, then its body)."""
    signed = _LABELLED.search(folded) or _SIGNED.search(folded)
    worded = _WORDED.search(folded) or _DEPOSIT.search(folded) or _ENGLISH.search(folded)
    approved = next(filter(None, (_APPROVED.match(folded, at) for at in openings)), None)
    if approved:  # a card payment approved: money out, whatever else the text holds
        return Figure(number(approved["num"]), "expense", approved.start("num"), approved.end("num"))
    if signed and (not worded or signed.start() <= worded.end()):
        sign, num = next(
            (signed[s], signed[n]) for s, n in (("sign", "num"), ("psign", "pnum"), ("csign", "cnum")) if signed[n]
        )
        direction = "expense" if sign == "-" else "income"
        return Figure(number(num), direction, signed.start(), signed.end())
    if not worded and (plain := _PLAIN.search(folded)):
        ways = {
            "expense": _OUT_WORDS.search(folded, 0, plain.start()),
            "income": _IN_WORDS.search(folded, 0, plain.start()),
        }
        found = [way for way, match in ways.items() if match]
        # One way said, not both; or the way a line of the text opens with (a push's title, MoMo's `Nhận tiền chuyển
        # khoản từ …`, after the shade's header too): the words after it are the transfer's own.
        found = found if len(found) == 1 else [way for way, m in ways.items() if m and m.start() in openings]
        if len(found) == 1:
            return Figure(number(plain["num"]), found[0], plain.start(), plain.end())
    if worded:
        word = worded["word"]
        direction = "income" if word.startswith(_INCOME_WORDS) or word in ("credit", "gui") else "expense"
        return Figure(number(worded["num"]), direction, worded.start(), worded.end())
    return None


def with_fees(found: Figure, folded: str) -> Figure:
    """A payment out with the fees and taxes the text debits beside it, each a signed figure of its own after it."""
    if found.direction != "expense" or not ("phi" in folded or "vat" in folded or "thue" in folded):
        return found
    fees = sum((number(m["num"]) for m in _FEE.finditer(folded, found.end)), Decimal(0))
    return Figure(found.amount + fees, found.direction, found.start, found.end) if fees else found


def account(folded: str) -> str:
    found = _ACCOUNT.search(folded)
    card = CARD_MASK.search(folded) or _DOTTED_CARD.search(folded)
    if not found and card:  # a card's last digits, `NAME(**40)`, `The Visa 452404...6779`
        return f"•••• {card['digits']}"
    if not found or sum(c.isdigit() for c in found["acct"]) < 3:
        return ""
    digits = re.sub(r"[^0-9xX*]", "", found["acct"])
    return f"•••• {digits[-4:]}".replace("X", "x")


# Viettel Money's own account: `TK ViettelPay 9704...1278`.
_WALLET_ACCOUNT = re.compile(r"\btk viettel ?pay (?:\d{4,6}\.{2,})?(?P<acct>[0-9x*]*\d{4})\b")


def wallet_account(folded: str) -> str:
    """The last digits of the account a wallet's text names as the wallet's own, else ""."""
    found = _WALLET_ACCOUNT.search(folded)
    return f"•••• {found['acct'][-4:]}" if found else ""


def account_spans(folded: str) -> list[tuple[int, int]]:
    return [m.span() for m in _ACCOUNT.finditer(folded)]


def note_start(folded: str) -> int | None:
    """Where the free-text note begins (after `ND:`, `Nội dung:`, `Ref`, `Lời nhắn:`…), or None."""
    # The first labelled note (`ND:`, `Ref`) wins: what follows it is the sender's own words, which may hold
    # the same words again (`ND: NHAN TU … TRACE 560102 ND Chuyen tien`). A bare `ND ` with no colon is weaker:
    # the last one, when no label with a colon is there.
    found = [match for match in NOTE.finditer(folded)]
    strong = [m for m in found if ":" in m.group(0) or m.group(0).startswith("ref")]
    if strong:
        return strong[0].end()
    # Napas's `NHAN TU <account> TRACE <number> ND <words>` is one note (VPBank NEO's push has no label before it):
    # a bare `ND` after a trace number is a word of that note.
    found = [m for m in found if not _TRACED.search(folded, 0, m.start())]
    return found[-1].end() if found else None


@dataclass(frozen=True)
class Moment:
    day: int
    month: int
    year: int | None
    hour: int
    minute: int
    second: int
    start: int
    end: int


def date_matches(folded: str) -> list[re.Match]:
    """The dates a text holds, day first or year first, in the order they are written: each match has `d`, `m`, `y`."""
    found = [*DATE.finditer(folded), *ISO_DATE.finditer(folded)]
    return sorted((m for m in found if 1 <= int(m["d"]) <= 31 and 1 <= int(m["m"]) <= 12), key=lambda m: m.start())


def moment(folded: str) -> Moment | None:
    """The first date in the text and the time nearest to it, on any line."""
    dates = date_matches(folded)
    if not dates:
        worded = EN_DATE.search(folded)  # `(15 Feb)`: a day and an English month, no time
        if worded is None or not 1 <= int(worded["d"]) <= 31:
            return None
        month = _MONTHS.index(worded["m"]) + 1
        year = int(worded["y"]) if worded["y"] else None
        return Moment(int(worded["d"]), month, year, 0, 0, 0, worded.start(), worded.end())
    date = dates[0]
    times = [m for m in TIME.finditer(folded) if int(m["H"]) < 24 and int(m["M"]) < 60]
    near = min(times, key=lambda t: abs(t.start() - date.start()), default=None)
    year = int(date["y"]) if date["y"] else None
    if year is not None and year < 100:
        year += 2000
    return Moment(
        day=int(date["d"]),
        month=int(date["m"]),
        year=year,
        hour=int(near["H"]) if near else 0,
        minute=int(near["M"]) if near else 0,
        second=int(near["S"]) if near and near["S"] else 0,
        start=min(date.start(), near.start()) if near else date.start(),
        end=max(date.end(), near.end()) if near else date.end(),
    )


# The words that introduce a moment (`NGAY 09/01/2016`, `Ngay GD: 26/08/2020 …`, `luc …`, `vao …`, `Thoi gian GD: …`)
# belong to it: where the moment is cut from a note, or ends one, its label goes with it.
_MOMENT_LABEL = re.compile(r"\b(?:ngay|luc|vao|thoi gian)(?: gd| giao dich)?\s*:?\s*$")


def labelled_start(folded: str, start: int) -> int:
    """Where a moment (or a date) starting at `start` opens with the words that introduce it."""
    label = _MOMENT_LABEL.search(folded, max(0, start - 24), start)
    return label.start() if label else start


def when(found: Moment | None, *, now: dt.datetime, tz: zoneinfo.ZoneInfo) -> dt.datetime | None:
    """The moment as an aware datetime in the user's timezone; now when the text names none; None for a
    date that cannot be (30 February) or lies in the future (beyond a day's clock skew)."""
    local_now = now.astimezone(tz)
    if found is None:
        return local_now
    year = found.year if found.year is not None else local_now.year
    try:
        stamp = dt.datetime(year, found.month, found.day, found.hour, found.minute, found.second, tzinfo=tz)
    except ValueError:
        return None
    if stamp > local_now + dt.timedelta(days=1):
        if found.year is not None:
            return None
        stamp = stamp.replace(year=year - 1)  # "31/12" read on the 1st of January
    return stamp
