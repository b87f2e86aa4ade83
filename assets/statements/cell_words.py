"""The words banks write in a statement's cells, folded as a cell is read (assets.rules.text.fold): which way a
line's money went, and whether the bank has booked it. Pure data."""

from assets.rules.text import fold

# A direction column's words for money in and money out: English, Vietnamese (`Ghi có`, `Nợ`), German (`Haben`,
# `Soll`, `Gutschrift`, `Lastschrift`), Dutch (`Bij`, `Af`), Hungarian, Lithuanian, Spanish (`Abono`, `Cargo`),
# Portuguese and Italian, Polish (`Uznanie`, `Obciążenie`), Czech (`Příchozí`, `Odchozí`), Turkish (`Alacak`,
# `Borç`), Russian and Ukrainian (`Зачисление`, `Списание`), Chinese (`收入`, `支出`; a bank's `贷`, credited, and
# `借`, debited), Japanese (`入金`, `出金`; a prepaid card's `チャージ`, top-up, and `お買い物`, a purchase), Korean
# (`입금`, `출금`) and Thai (`ฝาก`, `ถอน`).
MONEY_IN = frozenset(map(fold, (
    "in", "income", "credit", "cr", "c", "+", "co", "ghi co", "thu", "nhan", "deposit", "bij", "j", "jovairas",
    "kreditas", "inflow", "bevetel", "gutschrift", "kredit", "h", "haben", "abono", "ingreso", "crédito",
    "accredito", "entrada", "uznanie", "příchozí", "alacak", "зачисление", "приход", "зарахування", "надходження",
    "收入", "收", "贷", "入金", "入", "입금", "ฝาก", "チャージ",
)))  # fmt: skip
MONEY_OUT = frozenset(map(fold, (
    "out", "expense", "debit", "dr", "db", "d", "-", "no", "ghi no", "chi", "withdrawal", "af", "terheles", "debetas",
    "outflow", "kiadas", "belastung", "lastschrift", "s", "soll", "cargo", "retiro", "egreso", "débito", "addebito",
    "saída", "obciążenie", "odchozí", "borç", "списание", "расход", "списання", "видаток", "支出", "支", "借", "出金",
    "出", "출금", "ถอน", "お買い物",
)))  # fmt: skip
# A column's words for the account's side alone, `DEBIT` or `CREDIT`, `DR` or `CR`: a type column Zeus does not
# know by name says each line's way with them (inference.names_sides, conventions.sides_column).
SIDE_WORDS = frozenset(("debit", "credit", "dr", "cr"))
# A kind column's words that say the way too: a Japanese prepaid card's purchase (`お買い物`) and top-up (`チャージ`),
# a money-manager app's `Expense` and `Income` (1Money's `TYPE`).
KIND_WAYS = frozenset(map(fold, ("お買い物", "チャージ", "expense", "income")))
# `K` is money in beside `D` (Swedbank Lithuania's D/K: kreditas) and money out beside `J` (OTP's Be/Ki: ki):
# its figure's own sign decides, and an unsigned one is kreditas.
# Chinese wallets' `不计收支` (counted as neither income nor spending: a transfer between one's own accounts, a
# refund into the wallet's balance) moves money all the same, the way its figure is written.
EITHER_WAY = frozenset(("k", fold("不计收支")))
# A status column's words for a line the bank has not booked (yet): a card hold, a pending or failed transfer.
NOT_BOOKED = frozenset((
    "pending", "declined", "reverted", "failed", "cancelled", "canceled", "rejected", "authorised", "authorized",
    "autorizzato", "in attesa", "vorgemerkt", "umsatz vorgemerkt", "offen", "cho xu ly", "dang xu ly", "that bai",
    "da huy", "huy",
    # Danske Bank's `Venter` (waiting); Handelsbanken's `PREL-  -` (preliminär) where its booking day goes;
    # PayPal's Dutch `In behandeling` (being processed), its English `Pending`.
    "venter", "prel", "in behandeling",
    # Revolut's Italian `OPERAZIONE ANNULLATA` (cancelled) and `In sospeso` (pending).
    "operazione annullata", "annullata", "annullato", "in sospeso",
))  # fmt: skip
# A status's first word for an order still to be carried out (USAA's `Scheduled Funds Transfer`, dated after the
# download) or a line awaiting the bank (`Pending authorization`).
NOT_YET = ("scheduled", "pending")
