"""Who sent a notification, and which notifications are never transactions. Pure tables over folded text
(lower case, no diacritics: assets.rules.text.fold)."""

import re

# (display name, how the text names it). Checked in order, wallets first; the first that names itself wins.
BANKS: tuple[tuple[str, str], ...] = (
    ("ZaloPay", r"\bzalopay\b|\bzalo pay\b"),
    ("ShopeePay", r"\bshopeepay\b|\bairpay\b"),
    ("MoMo", r"\bmomo\b|\bvi momo\b"),
    ("Viettel Money", r"\bviettel ?money\b|\bviettel ?pay\b|\bvtmoney\b"),
    ("VietinBank", r"vietinbank|vietin bank|\bctg\b"),
    ("Vietcombank", r"vietcombank|\btk vcb\b|\bvcb\b"),
    ("BIDV", r"\bbidv\b"),
    ("Agribank", r"\bagribank\b"),
    ("Techcombank", r"techcombank|\btcb\b"),
    ("MB", r"\bmb ?bank\b|\bmbbank\b|^mb\b"),
    ("ACB", r"\bacb\b"),
    ("VPBank", r"\bvpbank\b|\bvpb\b"),
    ("TPBank", r"\btpbank\b|\btpb\b"),
    ("Sacombank", r"\bsacombank\b|\bstb\b"),
    ("VIB", r"\bvib\b"),
    ("HDBank", r"\bhdbank\b"),
    ("SHB", r"\bshb\b"),
    ("SeABank", r"\bseabank\b"),
    ("OCB", r"\bocb\b"),
    ("MSB", r"\bmsb\b|\bmaritime ?bank\b"),
    ("Eximbank", r"\beximbank\b|\beib\b"),
    ("Shinhan", r"\bshinhan(?: ?bank)?\b"),
    ("DongA Bank", r"\bdong ?a ?bank\b|\bdongabank\b"),
    ("Timo", r"\btimo\b"),
    ("Cake", r"\bcake\b"),
)
_BANKS = tuple((name, re.compile(pattern)) for name, pattern in BANKS)

# What stands between a notification's lines once folded: the line break (a space by then), or the ` / `, `|` or `;`
# a user or an app joined them with.
_LINE = r" ?[|/;]? ?"

# Layouts only one bank sends, for texts that do not name their sender (an SMS's sender is not in its text).
_LAYOUTS: tuple[tuple[str, re.Pattern], ...] = (
    ("Vietcombank", re.compile(r"^(?:so du|sd) tk (?:vcb )?[0-9x*]+ (?:[+-]|tang|giam)")),
    ("VietinBank", re.compile(r"\bsdc ?:")),
    # VietinBank's app push labels its first lines `Thời gian: <date time>`, `Tài khoản: <number>`, `Giao dịch: ±…`
    # (BIDV's say `Thời gian giao dịch`, `Tài khoản thanh toán`, `Số tiền`). However the lines reach the reader (broken,
    # or joined by ` / `, `|` or `;` when pasted), it is the same layout: any one such separator may stand between them.
    (
        "VietinBank",
        re.compile(
            rf"\bthoi gian ?: ?\d{{1,2}}/\d{{1,2}}/\d{{4}} \d{{1,2}}:\d{{2}}{_LINE}"
            rf"tai khoan ?: ?[0-9x*]+{_LINE}giao dich ?: ?[+-]"
        ),
    ),
    # Vietcombank's fee SMS name the balance `So du tai thoi diem gd` (its card fees `Thu phi quan ly the …
    # No:5264…8019. So du tai thoi diem gd …`, the fee for its `SMS chu dong` alerts, as VCB calls them).
    ("Vietcombank", re.compile(r"\bso du tai thoi diem gd\b")),
    # BIDV's SMS and push since 2023 label each field: `Tài khoản thanh toán: …`, `Số tiền[ GD]: ±…`, `Số dư cuối: …`
    # (before Techcombank's `So tien GD:`, which has no `Số dư cuối`). Agribank's `Tài khoản …: -22,000VND` names no
    # `thanh toán` and no `Số tiền`; Techcombank's push no `Số dư cuối`.
    (
        "BIDV",
        re.compile(
            r"\btai khoan thanh toan ?:? ?[0-9x*]+\.? so tien(?: gd)? ?: ?[+-] ?[0-9][0-9.,]* ?vnd\.? so du cuoi\b"
        ),
    ),
    ("Techcombank", re.compile(r"\bso tien gd ?:|^tk [0-9x*]+ (?:ghi (?:no|co)|[+-] ?[0-9][0-9.,]* ?vnd luc \d)")),
    # Techcombank's app push: the signed amount with its currency first, then the account, then the balance with its
    # currency first (`- VND 10,000 / Tài khoản: … / Số dư: VND …`). Shinhan also writes `VND` first, but after `TK …
    # thay doi` and with `So du kha dung`; VPBank NEO's push has these lines with the dong sign after the figures.
    ("Techcombank", re.compile(r"^[+-] ?vnd ?\d[\d.,]* tai khoan(?: thanh toan)? ?: ?[0-9x*]+ so du ?: ?vnd ?\d")),
    ("MB", re.compile(r"^tk [0-9x*]+(?: ?\| ?gd ?:| [+-] ?[0-9][0-9.,]* ?vnd \d{1,2}/\d{1,2}\S* \d{1,2}:\d{2} sd)")),
    ("VPBank", re.compile(r"\bso du tk sau gd la\b")),
    ("BIDV", re.compile(r"^tai khoan [0-9x*]+ (?:tang|giam) .* vao \d")),
    ("Agribank", re.compile(r"^\d{1,2}h\d{1,2}p? ")),
    # Shinhan's SMS: `So du kha dung: VND …`, and its English ones (`Acc no. **8468 debit VND …`, a card's
    # `Transaction Approved NAME(**40) …`).
    (
        "Shinhan",
        re.compile(r"\bso du kha dung ?: ?vnd \d|^acc no\b|\bavailable balance ?: ?vnd \d|^transaction approved\b"),
    ),
    (
        "MoMo",
        re.compile(
            r"^(?:nhan tien thanh cong|ban (?:vua |da )?(?:nhan|chuyen)"
            r"|(?:thanh toan|chuyen tien|rut tien|nap tien) thanh cong|hoan tien)"
        ),
    ),
)

# How only one sender closes its texts, looked for at the text's end (after the note, which the fee sentence ends):
# Viettel Money's receipts report the fee, then the moment (`Phi GD 0 VND. 25/08/2020 13:22:30.`, `Phi giao dich 0 VND.
# Ngay GD 21/04/2021 21:38:26.`, `phi giao dich 0 VND. Thoi gian giao dich 07/02/2025 17:26:26. Cam on Quy khach!`).
_CLOSINGS: tuple[tuple[str, re.Pattern], ...] = (
    (
        "Viettel Money",
        re.compile(
            r"\bphi (?:gd|giao dich) ?:? ?\d[\d.,]* ?vnd\. (?:(?:ngay|thoi gian) (?:gd|giao dich) ?:? ?)?"
            r"\d{1,2}/\d{1,2}/\d{4} \d{1,2}:\d{2}(?::\d{2})?\.?(?: cam on quy khach!?)?$"
        ),
    ),
)
# A bank named as where the money went (`sang TK cua <name>, so TK 10364827 tai ACB`, `den tai khoan … ngan hang X`) is
# the receiver's, not the sender's: no name for the text.
_RECEIVERS_BANK = re.compile(r"\b(?:sang|den|toi) (?:tk|tai khoan|stk)\b[^.;|]*?\b(?:tai|ngan hang|nh)\b[^.;|]*")

# One-time codes, promotions and failed payments: never a transaction, whatever amounts they hold.
REFUSED_WORDS = (
    r"\b(?:otp|ma xac thuc|ma xac nhan|mat khau|khong chia se|khong cung cap|ma kich hoat"
    r"|uu dai|khuyen mai|giam ngay|giam gia|voucher|qua tang|trung thuong|toi da|len den|ma giam|quay so"
    r"|khong thanh cong|that bai|bi tu choi|da bi huy|bi huy|khong du so du|giao dich loi|failed|unsuccessful"
    r"|declined)\b|\d ?%"
    # A card payment cancelled (Vietcombank's `Huy GD the VCB Visa … so tien 13,608 VND`): the payment did not happen.
    r"|(?:^|[:.]\s?)huy (?:gd|giao dich)\b"
    # A bill's details answered to a look-up (ViettelPay's `Chi tiet hoa don thanh toan tien dien cua khach hang … la:
    # 6/2018: … 267.210VND`): the amount a bill asks, none moved. Where the text or a sentence opens, not in a note.
    r"|(?:^|[:.]\s?)(?:chi tiet|thong tin|tra cuu) hoa don\b"
    # An advertisement: the law has it open with `QC` (`(QC)`, `[QC]`, `(QC-VTL2)`) and say how to opt out (`Tu choi
    # soan BL gui 1379`, `De tu choi QC, soan TC gui 1313`) — whatever amounts it holds.
    r"|^\W{0,2}qc\b|\btu choi,? (?:qc|nhan qc|soan)\b|\bde tu choi\b"
    # A transaction being made, not made: the step that asks to confirm it names its amount (Vietcombank's `Quy khach
    # dang thuc hien gd Chuyen khoan … voi so tien 480,000VND … Ma giao dich …`, ACB's `dang thuc hien Tat toan …`).
    r"|\bdang thuc hien\b"
    # A request to pay (`Vui long TT ma … 210.000d truoc … vao TK …`, `vui long thanh toan`, `vui long chuyen khoan`):
    # money asked for, none moved yet.
    r"|\bvui long (?:tt|thanh toan|chuyen khoan|chuyen tien|ck|nop tien)\b"
)
# Every alternative above opens with one of these characters, or at the text's start: the lookahead lets the
# engine pass over any other position at once instead of trying each alternative there (noise of short words
# cost most). A new alternative adds its first character; tests/assets/banktexts/test_prefilters.py compares the
# two on the corpus.
REFUSED = re.compile(r"(?:(?=[bdfgklmoqtuv\d:.])|^)(?:" + REFUSED_WORDS + ")")

# A reminder of a debt, not money that moved: an amount called overdue, due or still owed (`So tien qua han:`, `so
# tien can thanh toan`), the borrower told how many days late they are (`da tre hen thanh toan 17 ngay`), or a payment
# said to fall due. Only the sender's words count: a transfer's own note may speak of the debt it pays (parsers.py).
# Not `so tien phai tra` (the amount payable): a wallet's receipt may say what it charged that way.
OWED = re.compile(
    r"\bso tien (?:qua han|den han|con no|no|can tra|can thanh toan)\b"
    r"|\b(?:tre hen|tre han|qua han)(?: thanh toan)? \d+ ngay\b"
    r"|\bden han thanh toan\b"
)


def bank_of(folded: str, body: int = 0) -> str:
    """The bank or wallet the text names (in its first part, before its free-text note), else the one whose
    own layout it has; "" when neither says. `body` is where the notification itself opens, after the title and
    header lines an app push may carry (`Thông báo biến động số dư`, the shade's `Ngân hàng • Bây giờ`): the sender's
    name and a layout's opening are looked for there too."""
    openings = (folded, folded[body:]) if body else (folded,)
    for opening in openings:  # the sender's own name first: `VPBank: …`
        for name, pattern in _BANKS:
            if pattern.match(opening):
                return name
    # Wallets before banks: a wallet's text names the bank it tops up from. A name where the receiver's bank is said is
    # passed over (that span looked for only when the text says where the money went).
    said = "sang " in folded or "den " in folded or "toi " in folded
    receivers = [m.span() for m in _RECEIVERS_BANK.finditer(folded)] if said else []
    for name, pattern in _BANKS:
        if any(not any(start <= m.start() < end for start, end in receivers) for m in pattern.finditer(folded)):
            return name
    for opening in openings:
        for name, pattern in _LAYOUTS:
            if pattern.search(opening):
                return name
    return ""


def bank_of_closing(folded: str) -> str:
    """The sender whose own way of closing a text this one ends with, else ""."""
    return next((name for name, pattern in _CLOSINGS if pattern.search(folded)), "")
