"""Deterministic reader of Vietnamese bank and e-wallet notification texts (SMS and app pushes, with or without
diacritics, on one line or many). Pure: no ORM, no clock (`now` and the user's timezone come in).

Banks change their layouts more often than their vocabulary, so the reader does not keep one pattern per
layout: it finds each field by what labels it (banks.py names the sender and refuses OTPs, promotions and
failed payments; fields.py finds the amount and its direction, the balance, the account, the moment and the
note). A text with no amount it can place, or a moment that cannot be, reads as None.

Shapes it reads (account numbers and names invented), among others:
  Vietcombank  SD TK 0121000891319 +4,100,000VND luc 29-11-2026 00:11:31. SD 112,734,090VND. Ref MBVCB...
               So du TK VCB 0071000123456 giam 1,250,000 VND luc 02-12-2026 08:15:02. So du 9,876,000 VND. Ref ...
  VietinBank   VietinBank:02/12/2026 09:15|TK:108000123456|GD:-250,000VND|SDC:4,750,000VND|ND:...
  BIDV         TK12510000123456 tai BIDV +2,000,000VND vao 08:30 02/12/2026. So du:15,000,000VND. ND: ...
               BIDV: TK12510000123456; -150,000VND; 02/12/2026 12:05; SD: 3,200,000VND; ND: ...
               Tài khoản 12510000123456 tăng 3,000,000 VND vào 14:22 01/12/2026. Số dư: ... Nội dung: ...
  Techcombank  Tài khoản: … / Số tiền: -120,000 VND / Số dư: … / Nội dung: … / 02/12/2026 19:45 (one per line)
               - VND 120,000 / Tài khoản: … / Số dư: VND 5,430,000 / GRAB FOOD. / Ma tham chieu 123456 (app push)
  MB           TK 0123xxx789|GD: -500,000VND 02/12/26 18:20|SD:1,234,000VND|ND: ...
  MoMo         Bạn đã chuyển thành công 300.000đ tới … lúc 19:20 01/12/2026. Số dư ví: 700.000đ
               Nhận tiền chuyển khoản từ NGUYEN VAN A / Số tiền 5.000 đ, kèm lời nhắn: "…"
  SHB          SDTK 1000006789 den 17:56:38 ngay 13/11/2022 la 8,668,033 VND. GD moi nhat: +2,500,000 VND: ...
  VCB card     The Visa 452404...6779 su dung tai SHOP so tien 13,608 VND luc 17-12-2022 17:37:45. SD TK trich no ...
  Viettel Money TK ViettelPay 9704...1278 GD -1,000 VND luc 2023-08-11 14:13:34 So du 3,372 VND Phi: -0 VND ND: ...
  VPBank NEO   + 20,000 ₫ / Tài khoản: 77****94 / Số dư: 860,000 ₫ / NHAN TU … TRACE 519345 ND ... (title first)
"""

import datetime as dt
import re
import unicodedata
import zoneinfo
from dataclasses import dataclass
from decimal import Decimal

from assets.banktexts import fields
from assets.banktexts.banks import OWED, REFUSED, bank_of, bank_of_closing
from assets.rules.text import fold
from assets.vietqr.reading import looks_like_vietqr

MAX_AMOUNT = Decimal(10**12)
# What the draft's balance column holds (17 digits, 2 of them decimals): a larger "balance" is no balance.
MAX_BALANCE = Decimal(10**15) - 1
MAX_TEXT = 1000
# A notification names one transaction: its amount, a balance, an account, a moment and a note's few numbers
# (the longest real ones in the corpus hold 20). More is a list or noise, refused before the slower searches.
MAX_NUMBERS = 40
MAX_TITLE_LINES = 3
_DIGIT = re.compile(r"\d")
_NUMBERS = re.compile(r"\d+(?:[.,]\d+)*")
WALLETS = ("MoMo", "ZaloPay", "ShopeePay", "Viettel Money")
# A wallet's counterparty: `từ NGUYEN VAN A`, `cho KFC`, `tới …`, `về tài khoản …`, up to what follows it.
# `tài khoản` (an account) after the amount is a field, never a party.
# A payment `cho dich vu cua <payee>` (for the service of) names its payee after those words.
_PARTY = re.compile(
    r"^\s*(?:tu|cho(?: dich vu(?: cua)?)?|toi|den|ve|tai(?! khoan\b))\s+"
    r"(?P<party>.+?)(?=\s+(?:luc|vao vi|vao)\b|\.\s|\.$|$)"
)
_VPB_PARTY = re.compile(r"\bdo (?P<party>.+?)\.\s*so du")
# A wallet's counterparty named before its amount: MoMo's `Nhận tiền chuyển khoản từ NGUYEN VAN A / Số tiền …`.
_PARTY_BEFORE = re.compile(r"\b(?:tu|cho|toi)\s+(?P<party>.+?)\s+so tien\s*:?\s*$")
# A card payment names its merchant before its amount: `The Visa 452404...6779 su dung tai SHOP so tien 13,608 VND`.
_MERCHANT = re.compile(r"\bsu dung tai (?P<merchant>.+?) so tien\b")
# A wallet's receipt names the service paid for between its words, before the amount: `Quy khach da thanh toan dich vu
# Mua bao hiem thanh cong. … So tien 99.000 VND`. Within one sentence: `thanh cong` in another is no end of the name.
_SERVICE = re.compile(r"\bthanh toan dich vu (?P<service>[^.]+?) thanh cong\b")
# Or after them, between its words and the amount: ViettelPay's `Quy khach da thanh toan thanh cong hoa don tien Dien
# 51.117 cho khach hang …` paid a bill (what was paid is the note, before the bill's customer the sentence goes on to).
_PAID = re.compile(r"thanh toan thanh cong (?P<service>[a-z][^.0-9]*?)\s+\d")


# A field's label glued to the figure before it, the spaces between fields lost on the way (Techcombank's `TK
# 19029824194881So tien GD:+300,000So du:382,668Cao …`): a space is put back, in the user's words as in the folded text.
_GLUED_LABEL = re.compile(r"(\d)(s[oố] (?:ti[eề]n|d[uư])\b)", re.I)
_GLUED = re.compile(r"\d[sS]")  # what any glued label has, looked for first (a plain scan, no case folding)


# A fee notice's opening sentence, saying what the fee is for, before any figure, sign or label of it (no colon in it):
# `THU PHI DICH VU SMS CHU DONG THANG 09/2015. …`, `Thu phi quan ly TK thang 11. …`.
_OPENING_NOTE = re.compile(r"(?P<note>thu phi [^.:;|+\-]*)\.\s")


# A signed figure glued to a label of its own that says what it is (VIB's `PERIOD TRAN: SMS FEE:-11,000 VND`): those
# words, after the field, label or currency before them, are the note; a label that only says "amount" is none.
_NAMED_FIGURE = re.compile(
    r"(?:(?:^|\s)vnd\b|[:;|])\s*(?!(?:giao dich|so tien|gd|ps|phat sinh|amount|transaction amount|change|gia ?tri)\s*:)"
    r"(?P<name>[a-z][a-z ]*[a-z])\s*:\s*$"
)


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


def _composed(text: str) -> str:
    """The text with each tone mark composed into its letter (NFC). Some phones and apps write a tone as a combining
    mark after its vowel (Vietcombank's `lúc` as `lu`, U+0301, `c`); folding drops the marks either way, but only the
    composed text is as long as its folded form, which is how a note is cut from the user's own words."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _tidy(text: str) -> str:
    """Folded, one line, spaces collapsed: SMS and app notifications break lines and spaces at random."""
    return re.sub(r"\s+", " ", fold(text.replace("\r", "\n"))).strip()


def _openings(text: str) -> tuple[int, ...]:
    """Where, in the folded text, each line opens up to the notification itself: an app push's title and header
    lines come before the first line that holds a figure (`Thông báo biến động số dư`, the shade's `Ngân hàng • Bây
    giờ`, MoMo's `Nhận tiền chuyển khoản từ …`), and what is said where a notification opens (`SD TK …`, `Huy GD …`,
    `(QC) …`, the way its money went) is said after them too. The last is where the notification opens."""
    # A push opens with three such lines at most (a header, a title, a wallet's title); a text whose first figure
    # comes later is read as it is, and costs no more than that to look at.
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", MAX_TITLE_LINES + 1)[: MAX_TITLE_LINES + 1]
    first = next((i for i, line in enumerate(lines) if _DIGIT.search(line)), 0)
    starts, at = [], 0
    for line in filter(None, map(_tidy, lines[:first])):
        starts.append(at)
        at += len(line) + 1  # _tidy joins the lines with one space
    return (*starts, at)


def _refused(folded: str, body_at: int) -> bool:
    # A web link: no bank's or wallet's transaction notice carries one, while offers (`truy cap https://km.…`) and
    # smishing posing as a credit (`Nhận 500.000 VND … nhận tiền VND vào website: https://…`) do.
    if "://" in folded or "www." in folded:
        return True
    if REFUSED.search(folded) or (body_at and REFUSED.search(folded[body_at:])):
        return True
    # A debt reminder (`So tien qua han: …`) is refused where its sender says it, not where a transfer's note does:
    # after a note's label (`ND: tra so tien qua han HD 12`) or after the balance (Techcombank's SMS write their note
    # there unlabelled) it is money moved to pay the debt.
    owed = OWED.search(folded)
    if owed is None:
        return False
    ends = [fields.note_start(folded) or len(folded), *(end for _, end in fields.balance(folded)[1])]
    return owed.start() < min(ends)


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\r", "\n")).strip()


def _clean(text: str) -> str:
    # A note quoted whole (MoMo's `kèm lời nhắn: "…"`) is the words inside the quotes.
    return " ".join(text.replace("\x00", " ").split()).strip(' .;|,"“”')[:200]


def _name(text: str) -> str:
    """A counterparty's name, keeping the ellipsis the notification shade leaves on a name it cut short (`NGUYEN
    HOANG S...`): the name is not whole, and the dots say so."""
    cut = re.search(r"\w(?P<dots>\.{3}|…)\s*$", text)
    return _clean(text) + (cut["dots"] if cut else "")


def _words(raw: str, folded: str, start: int, end: int) -> str:
    """The user's own words for a folded span (folding keeps length for Vietnamese, else the folded text)."""
    return raw[start:end] if len(raw) == len(folded) else folded[start:end]


def _unlabelled(folded: str) -> str:
    """A span less its account (`TK: xxxx1662401`) and amount labels (`PS:`): what is left is words, if any."""
    return re.sub(r"\b(?:ps|so tien(?: gd)?|gd)\b\s*:?", " ", fields.masked(folded, fields.account_spans(folded)))


def _description(raw, folded, bank, figure, note_at, balance_spans, moment, openings) -> str:
    note = ""
    if note_at is not None:
        # The note runs to the end, or to a balance or the moment written after it.
        ends = [start for start, _ in balance_spans if start > note_at]
        ends += [fields.labelled_start(folded, moment.start)] if moment and moment.start > note_at else []
        ends += [m.start() for m in [fields.NOTE_END.search(folded, note_at)] if m]
        note = _clean(_words(raw, folded, note_at, min(ends, default=len(folded))))
    paid = None if note else _PAID.match(folded, figure.start, figure.end)
    if paid:
        return _clean(_words(raw, folded, *paid.span("service")))
    if bank in WALLETS or (bank == "" and note_at is None):
        # The party a push's title names before the amount (`Nhận chuyển khoản từ NGUYEN VAN A` / `Số tiền …`) is the
        # transfer's own; words after the amount then say where in the wallet it landed (`về Túi Thần Tài`).
        before = _PARTY_BEFORE.search(folded, 0, figure.start)
        party = None if before else _PARTY.match(folded[figure.end :])
        if party or before:
            start, end = (
                (figure.end + party.start("party"), figure.end + party.end("party")) if party else before.span("party")
            )
            who = _name(_words(raw, folded, start, end))
            if not note and moment and folded[moment.end : moment.end + 2] == ". ":
                # A wallet's note after its time, up to the balance when one follows, or the sender's own reference
                # or closing thanks (from the space before the note, which a reference's label opens with).
                ends = [b for b, _ in balance_spans if b > moment.end]
                ends += [m.start() for m in [fields.NOTE_END.search(folded, moment.end + 1)] if m]
                end = min(ends, default=len(folded))
                note = _clean(_words(raw, folded, moment.end + 2, end))
            return _clean(f"{who} {note}")
    if note_at is not None:
        return note
    merchant = _MERCHANT.search(folded, 0, figure.start)
    if merchant:
        return _clean(_words(raw, folded, *merchant.span("merchant")))
    service = _SERVICE.search(folded, 0, figure.start)
    if service:
        return _clean(_words(raw, folded, *service.span("service")))
    if any(folded.startswith("transaction approved", at) for at in openings):  # `…/857,000/MERCHANT,Remaining …`
        return _clean(_words(raw, folded, figure.end + 1, len(folded)).split(",")[0])
    vpb = _VPB_PARTY.search(folded)
    if vpb:
        return _clean(_words(raw, folded, vpb.start("party"), vpb.end("party")))
    dates = [m.span() for m in fields.date_matches(folded)]
    dates += [m.span() for m in fields.EN_DATE.finditer(folded)]
    # An account field right after the amount is no note (VPBank NEO: `+ 5,000 đ / Tài khoản: 01******23 / Số dư: …`).
    lead = figure.end + re.match(r"\s*(?:(?:vnd|d)\b|₫)?\s*", folded[figure.end :]).end()
    opening = [span for span in fields.account_spans(folded) if span[0] == lead]
    words = fields.masked(
        _words(raw, folded, 0, len(folded)), dates + opening + [m.span() for m in fields.TIME.finditer(folded)]
    )
    # DongA's SMS: the note sits between the amount and a balance label (`So du hien tai la:...`).
    label = re.search(r"\bso du\b|\bavailable balance\b", folded[figure.end :])
    after = [start - figure.end for start, _ in balance_spans if start > figure.end]
    label_at = min(after) if after else (label.start() if label else None)
    if label_at is not None:  # the note between the amount and the balance (DongA, Agribank's bracketed note)
        # Less the currency, the account a deposit names right after its amount (Sacombank's `… VND vao TK 0200…`)
        # and a dash before the balance.
        between = re.sub(
            r"^\s*(?:(?:vnd|vnđ|d)\b)?\s*(?:[0-9x*]{6,}(?=\s))?|\b(?:luc|vao|ngay)\b|\s-\s*$",
            " ",
            words[figure.end : figure.end + label_at],
            flags=re.I,
        )
        if re.search(r"[A-Za-z]{3,}", between):  # words, not a channel's mark such as `MB(8888888)`
            between = _clean(between)
            # An opening bracket the bank never closed (`(BPMENT: … T5/18(...)`) is no part of the note.
            return (
                _clean(between[1:]) if between.startswith("(") and between.count("(") > between.count(")") else between
            )
    if moment and moment.end < figure.start and re.search(r"[a-z]{3,}", _unlabelled(folded[moment.end : figure.start])):
        named = _NAMED_FIGURE.search(fields.masked(folded, fields.account_spans(folded)), moment.end, figure.start)
        if named:
            return _clean(_words(raw, folded, *named.span("name")))
        return _clean(_words(raw, folded, moment.end, figure.start))  # Eximbank: the note between moment and amount
    # Techcombank's and Shinhan's SMS: the note follows the balance, or the amount when the text gives no balance (an
    # account fee's `So tien GD:-22,900  Phi quan ly tai khoan`), in the text's own words less the dates in it (with the
    # words that introduce them and the dot that closes them) and a card's last digits, `(**32)`.
    cut = [(fields.labelled_start(folded, a), b + (folded[b : b + 1] == ".")) for a, b in dates]
    # The moment's time too (Techcombank's app push).
    cut += [(fields.labelled_start(folded, moment.start), moment.end)] if moment else []
    tail = fields.masked(
        _words(raw, folded, 0, len(folded)), cut + [m.span() for m in fields.CARD_MASK.finditer(folded)]
    )
    # The note runs to the bank's own reference, when one closes the text, as a labelled note does.
    at = balance_spans[-1][1] if balance_spans else figure.end
    end = next((m.start() for m in [fields.NOTE_END.search(folded, at)] if m), len(folded))
    tail = re.sub(r"\(\s*\)", " ", re.sub(r"^[\s.]*vnd(?=[\s.,;]|$)\s*", "", tail[at:end], flags=re.I))
    tail = _clean(tail.lstrip(" ."))
    # Nothing after the fields: a fee notice that opens with what the fee is for, in a sentence of its own before them,
    # has its note there (Vietcombank's `THU PHI DICH VU SMS CHU DONG THANG 09/2015. SDT: … So tien 8800VND. So du …`).
    opening = None if tail else _OPENING_NOTE.match(folded, 0, figure.start)
    return _clean(_words(raw, folded, *opening.span("note"))) if opening else tail


def never_a_transaction(text: str) -> bool:
    """A one-time code, a promotion, a failed payment, or noise (more numbers than one notification holds): no
    reader, the model included, is to make a draft of it."""
    if len(_NUMBERS.findall(text)) > MAX_NUMBERS:
        return True
    text = _composed(text)
    folded = _tidy(text)
    return len(folded) > MAX_TEXT or _refused(folded, _openings(text)[-1])


def parse(text: str, *, now: dt.datetime, tz: zoneinfo.ZoneInfo, sender: str = "") -> ParsedText | None:
    """What the text says, or None: not a transaction notice (an OTP, a promotion, a failed payment), no
    amount to place, an amount of zero or beyond a trillion dong, or a date that cannot be."""
    if not _DIGIT.search(text) or len(_NUMBERS.findall(text)) > MAX_NUMBERS:
        return None  # no amount to find, or a list or noise: refused before any of the slower searches run
    text = _composed(text)
    text = _GLUED_LABEL.sub(r"\1 \2", text) if _GLUED.search(text) else text
    raw = _one_line(text)
    folded = _tidy(text)
    if not folded or len(folded) > MAX_TEXT:
        return None
    openings = _openings(text)
    if _refused(folded, openings[-1]):
        return None
    balance, balance_spans = fields.balance(folded)
    note_at = fields.note_start(fields.masked(folded, balance_spans))
    head = folded[:note_at] if note_at is not None else folded
    # Each field is looked for before the note first, then in the whole text: once, when there is no note.
    texts = (head, folded) if note_at is not None else (folded,)
    dated = next(filter(None, (fields.moment(fields.masked(text, balance_spans)) for text in texts)), None)
    skip = list(balance_spans)
    skip += [m.span() for m in fields.DATE.finditer(folded)] + [m.span() for m in fields.ISO_DATE.finditer(folded)]
    skip += [m.span() for m in fields.TIME.finditer(folded)]
    figure = next(filter(None, (fields.figure(fields.masked(text, skip), openings) for text in texts)), None)
    if figure is None:
        return None
    figure = fields.with_fees(figure, fields.masked(head, skip))
    if not 0 < figure.amount <= MAX_AMOUNT:
        return None
    occurred_at = fields.when(dated, now=now, tz=tz)
    if occurred_at is None:
        return None
    # The SMS sender (`VPBank`, `ShinhanBank`), when the phone passed it on, names the bank before the text does:
    # the same `TK … -350,000VND luc …` comes from more than one bank.
    # A push recorded with its title after the body (`… ║ Thông báo BIDV`): the title names the app, as one first does.
    title = folded.rpartition("║")[2] if "║" in folded else ""
    bank = (
        (bank_of(_tidy(sender)) if sender else "")
        or (bank_of(title) if title else "")
        or bank_of(head, openings[-1])
        or bank_of_closing(folded)
    )
    if bank == "" and re.search(r"(?<!don )\bvi\b|so du vi", folded):  # a wallet (ví), not a unit (đơn vị)
        bank = "MoMo"
    currency = "USD" if re.match(r"\s?usd\b", folded[figure.end : figure.end + 5]) else "VND"
    return ParsedText(
        bank=bank,
        amount=figure.amount,
        direction=figure.direction,
        occurred_at=occurred_at,
        description=_description(raw, folded, bank, figure, note_at, balance_spans, dated, openings),
        currency=currency,
        # A wallet's text names the bank account it tops up from, not its own; Viettel Money's names its own.
        account_mask=fields.account(head) if bank not in WALLETS else fields.wallet_account(head),
        balance_after=balance if balance is not None and balance <= MAX_BALANCE else None,
    )


def looks_like_bank_text(text: str) -> bool:
    """A cheap test for the chat's router: a pasted notification rather than a question. True for text the
    reader knows, for text with the marks every bank notification has (an account, a signed amount in
    dong, a balance) even when the reader cannot place its amount, and for a pasted VietQR payload (a transfer
    the user is about to make, read into a draft the same way)."""
    if looks_like_vietqr(text):
        return True
    folded = _tidy(_composed(text))
    if len(folded) > MAX_TEXT:
        return False
    signed = re.search(rf"(?:[+-] ?(?:{fields.NUM})\b|\b(?:tang|giam) \d)", folded)
    account = re.search(r"\btk ?[:]? ?[0-9x*]{4,}", folded)
    balance = re.search(r"\b(?:sd|so du|sodu)\b", folded)
    wallet = re.match(
        r"^(?:momo[:\s]*)?(?:nhan tien thanh cong|ban (?:vua )?(?:da )?nhan|(?:thanh toan|chuyen tien) thanh cong)",
        folded,
    )
    return bool(wallet or (signed and (account or balance)))
