"""The names banks write over their statement columns, by the mapping key each names (headers.py reads a
header with them). Written lower case without diacritics, as a header cell reads once folded; headers.py
folds them once more as it folds cells. Of two columns for one key, the name listed first wins. Pure data."""

# A balance column (so du, balance) is recognised so it is never taken for an amount, and then left out of
# the mapping.
NAMES = {
    "date": (
        "ngay giao dich", "ngay gd", "thoi gian giao dich", "ngay gio giao dich", "ngay hach toan", "ngay thuc hien",
        # The day the bank booked it (a card's `Posted Date`, Chase's `Post Date`) before the day it was made
        # (`Transaction Date`): what a statement line is booked on.
        "ngay ghi so", "posting date", "posted date", "post date", "booking date", "booked at", "booked on",
        # Bank Norwegian's card sheet writes its names as one word (`BookDate`, `TransactionDate`, `ValueDate`).
        "bookdate",
        # The day the bank carried the order out (BCV's `Execution date`), Italian's registration day, the day a
        # card's charge was entered (Halifax's `Date entered`, beside the day of purchase).
        "execution date", "date d execution", "date de l execution", "data registrazione", "data di registrazione",
        "date entered", "transaction date", "trans date", "txn date", "transactiondate",
        # Bank of Baroda's `TRAN DATE` (beside its `VALUE DATE`).
        "tran date",
        # Revolut's day a line completed (Italian `Data di completamento`) before the day it started.
        "completed date", "date completed", "data di completamento",
        "buchungsdatum", "boekdatum", "transactiedatum", "buchungstag",
        # Swiss German's `Verbucht am` (booked on), a card's booking beside its `Einkaufs-Datum`; Swedish's
        # booked (`Bokfört`, Swedbank's `Bokfdag`) and ledger day (`Reskontradatum`) beside a `Datum` or `Transdag`.
        "verbucht am", "gebucht am", "bokfort", "bokforingsdatum", "bokfdag", "reskontradatum", "transdag",
        "data contabile", "data operazione", "data op", "konyveles datuma", "konyvelesi datum",
        # Romanian: the day BCR completed the transaction, beside its statement's own dates on every line.
        "data finalizarii tranzactiei",
        "date de comptabilisation",
        "date comptable", "date operation", "fecha", "fecha operacion",
        # Polish: the booking day (`Data księgowania`, BNP Paribas' `Data zaksięgowania`) before the operation's
        # (`Data operacji`, Credit Agricole's; BNP Paribas' `Data transakcji`).
        "data ksiegowania", "data zaksiegowania", "data operacji",
        "bokforingsdag", "kirjauspaiva", "fecha de operacion",
        # Estonian banks' day (LHV's, SEB's and Swedbank's `Kuupäev`).
        "kuupaev",
        # Caixa Geral de Depósitos' booking day (`Data mov.`) beside its `Data-valor`.
        "data mov", "data movimento",
        # Indonesian: the day (BNI's `Tanggal Kirim`, the day and time it was sent).
        "tanggal transaksi", "tanggal kirim", "tanggal",
        # Malay (`Tarikh Transaksi`), Turkish (`İşlem Tarihi`, `Tarih`), Greek, Croatian and Serbian booking days
        # (`Datum knjiženja`), Korean (`거래일시`, `거래일자`) and Thai (`วันที่ทำรายการ`).
        "tarikh transaksi", "tarikh", "islem tarihi", "tarih", "ημερομηνια συναλλαγης", "ημερομηνια",
        "datum knjizenja", "거래일시", "거래일자", "거래일", "วันที่ทำรายการ", "วันที่",
        # A Korean card's day of use (Lotte Card's `이용일`).
        "이용일", "이용일자",
        # Hebrew: a card's purchase day (Max's `תאריך עסקה`); its charge day (`תאריך חיוב`) is not the line's.
        "תאריך עסקה",
        # Czech's booking day (ČSOB's `datum zaúčtování`).
        "datum zauctovani",
        # Norwegian's booking day (Skandiabanken's `BOKFØRINGSDATO`).
        "bokføringsdato", "bokført",
        # Ukrainian banks: the day the bank processed it (OTP's `Дата обробки операції в банку`), then the
        # operation's day and time (monobank, Sense Bank, OTP's `Дата здійснення операції`), the day (PrivatBank).
        "дата обробки операціі в банку",
        "дата і час операціі", "дата і час", "дата операціі", "дата проведення", "дата",  # noqa: RUF001
        # Russian banks: the day a card's operation was processed (Sberbank) or paid (T-Bank), before the day it was
        # made.
        "дата обработки операции", "дата платежа", "дата операции", "дата проводки", "дата совершения операции",
        # A Swiss card's booking (UBS's `Buchung`, in French `Ecriture`) beside its day of purchase.
        # PayPay's `Date & Time`.
        "ngay", "thoi gian", "date", "date time", "datum", "data", "dato", "buchung", "ecriture",
        "started date", "data di inizio", "created", "datetime", "tranzakcio datuma", "tranzakcio idopontja",
        "date posted",
        # Chinese banks: the booking day (`记账日期`, `入账日期`) before the day the card was used (`交易日期`).
        "记账日期", "入账日期", "记账日", "交易日期", "交易日", "日期",
        # WeChat Pay's bill: the moment of each payment (`交易时间`).
        "交易时间",
        # Japanese banks' booking day (`記帳日`, `取引日`, JA Bank's `取扱日付`), then a card's day of use (`利用日`).
        "記帳日", "取引日", "お取引日", "取引日付", "取扱日付", "取扱日", "日付", "年月日", "利用日", "ご利用日",
        "利用年月日", "ご利用年月日",
        # Seven Bank's debit card: the day the account was debited (`お振替日`), or a rebate arose (`差額発生日`).
        "お振替日", "差額発生日",
        # A broker's cash account: the day it settles (Bull Market Brokers' `Liquida`) before the trade's
        # (`Operado`).
        "liquida", "fecha de liquidacion", "operado",
        # A card's settlement day (KBC's `Datum verrekening`, M&S's `Date Processed`) before its purchase day.
        "datum verrekening", "verrekeningsdatum", "date processed", "processed date", "datum verrichting",
        "verrichtingsdatum",
        # The day a card was used (`Transaktionsdatum`, the receipt's `Belegdatum`), after any booking date.
        "transaktionsdatum", "belegdatum", "data transakcji",
        # A value date is the interest's, not the booking's: only when no other date column is there.
        "ngay hieu luc", "datum valute", "value date", "valuedate", "valuta date", "effective date", "valutadatum",
        "valuta",
        "wertstellung", "data valuta", "data val", "date de valeur", "fecha valor", "fecha de valor", "erteknap",
        "起算日",
        # Luminor Estonia's only date (`Väärtuspäev`); Portuguese's value date (`Data-valor`).
        "vaartuspaev", "data valor", "rentedato",
    ),
    "description": (
        "noi dung", "noi dung giao dich", "noi dung chi tiet", "dien giai", "mo ta", "chi tiet giao dich",
        "chi tiet", "description", "descriptions", "detail", "details", "transaction details", "narrative", "memo",
        "payee", "transaction description", "remarks", "noi dung chuyen khoan",
        "umsatztext", "umsatzbeschreibung", "text", "buchungstext", "texte comptable", "testo contabile",
        "verwendungszweck", "beschreibung", "descrizione",
        "descrizione completa", "causale", "omschrijving", "naam omschrijving", "mededelingen", "buchungsdetails",
        "kozlemeny", "megnevezes", "descrizione operazioni", "desc", "libelle", "libelle operation", "concepto",
        "descripcion", "descricao", "historico", "opis", "tytul", "paaiskinimai", "tekst", "selite", "specifikation",
        # Etsy's statement: the line's `Title`.
        "title",
        # Turkish (`Aciklama`, its i dotless), Greek, Croatian (`Opis plaćanja`), Slovenian (`Namen`), Romanian,
        # Malay (`Butiran`), Korean (`적요`, `기재내용`, `거래내용`) and Thai (`รายการ`, `รายละเอียด`) line texts.
        "aciklama", "islem aciklamasi", "περιγραφη", "αιτιολογια", "opis placanja", "namen", "descriere", "detalii",
        "butiran", "적요", "기재내용", "거래내용", "รายการ", "รายละเอียด",
        # A Korean card's merchant (Lotte Card's `이용가맹점`).
        "이용가맹점", "가맹점명",
        # Estonian banks' explanation (`Selgitus`) and Luminor's payment details (`Makse andmed`); mBank's (Poland)
        # `Opis operacji`.
        "selgitus", "makse andmed", "opis operacji",
        # A broker's cash account: the voucher a line is booked by (Bull Market Brokers' `Comprobante`).
        "comprobante",
        # Indonesian banks' line text (BNI's `Deskripsi`, `Keterangan`).
        "deskripsi", "keterangan",
        # Vietnamese banks' English names for `Nội dung` and `Chi tiết giao dịch` (`Content`, `Transactions in
        # detail`), and a `Remark`.
        "content", "transaction content", "transactions in detail", "remark",
        # Hebrew: the merchant's name (Max's `שם בית העסק`).
        "שם בית העסק",
        # Santander Chile's `Descripción movimiento`; BCR's `Tranzactii finalizate (detalii)` (Romanian).
        "descripcion movimiento", "tranzactii finalizate",
        # A line's text named for what the table lists (BCV's `Transactions`) or its designation (`Denominazione`).
        "transactions", "denominazione",
        # Indian banks' line text (Axis Bank's `Particulars`, HDFC's `Narration`, ICICI's `Transaction Remarks`).
        "particulars", "narration", "transaction remarks",
        # Who paid or was paid, where a file has no text of its own (PayPal's `Name`).
        "name", "payee name", "merchant", "merchant name",
        # A wallet's note on the line (Cash App's `Notes`, Venmo's `Note`), then who paid or was paid.
        "notes", "note", "name of sender receiver", "counterparty", "partner name", "ten doi tac",
        "partner neve", "ellenoldali nev", "toelichting", "handelaar",
        # German banks' payee or payer (1822direkt's `Empfänger/Auftraggeber Name`, Sparkassen's
        # `Beguenstigter/Zahlungspflichtiger`), where no `Verwendungszweck` is named.
        "empfanger auftraggeber name", "auftraggeber empfanger", "empfanger auftraggeber",
        "beguenstigter zahlungspflichtiger", "name zahlungsbeteiligter",
        # Czech: the counter-account's name (ČSOB's `název účtu protiúčtu`, Česká spořitelna's English export's).
        "nazev uctu protiuctu", "counteraccount name",
        # Chinese banks' summary of the line (`摘要`), then who was paid (`对方户名`, `对手信息`).
        "交易摘要", "摘要", "交易名称", "交易详情", "对方户名", "对手信息", "交易对方",
        # China Merchants Bank's remark on the line (`交易备注`), its only text beside a type code.
        "交易备注", "备注",
        # China CITIC Bank's counterparty (`对方名称`), after its `摘要`.
        "对方名称",
        # Japanese banks' line text (`摘要`, `取引内容`, `内容`), a card's shop (`利用店名・商品名`), then a memo.
        "取引内容", "お取引内容", "入出金内容",
        # SMBC's `お取り扱い内容` (what was handled).
        "お取り扱い内容", "お取扱い内容", "取扱内容", "内容", "利用店名", "ご利用店名", "利用先", "ご利用先",
        # EPOS's card: where it was used (`ご利用場所`).
        "利用場所", "ご利用場所", "ご利用先など",
        "利用箇所", "ご利用箇所", "メモ",
        "деталі операціі", "деталі", "опис операціі", "опис", "призначення платежу",
        "описание операции", "описание", "назначение платежа",
        # Last: Handelsbanken's line text is its `Referens`; beside a `Text`, that is the line's.
        "referens",
    ),
    "amount": (
        # A net figure (PayPal's `Net`, Cash App's `Net Amount`) before the gross one beside it: what the balance
        # moved by, its fee taken off already.
        "net amount", "net",
        "so tien", "so tien giao dich", "amount", "transaction amount", "so tien gd", "gia tri", "betrag",
        # DEGIRO's `Mutatie` and, in Italian, `Variazioni`.
        "umsatz", "importo", "bedrag", "mutatie", "variazioni",
        "osszeg", "montant", "importe", "valor", "kwota", "suma",
        "castka", "belopp", "belob", "belop", "maara", "tranzakcio osszege", "billing amount", "summa",
        # Indian banks abbreviate it (HDFC's card `AMT`).
        "amt",
        # Indonesian and Malay: BCA's `Jumlah` (its side written after it, `DB` or `CR`), a `Nominal`.
        "jumlah", "nominal",
        # Turkish (`Tutar`, `Islem Tutari`), Malay (`Amaun`), Greek, Croatian and Serbian (`Iznos`), Slovenian
        # (`Znesek`), Korean (`거래금액`) and Thai (`จำนวนเงิน`).
        "tutar", "islem tutari", "amaun", "ποσο", "iznos", "znesek", "거래금액", "จำนวนเงิน",
        # A Korean card's figure used (`이용금액`), or the part of it billed this month (Lotte Card's `원금`, the
        # principal, under `이번 달 입금하실 금액`: never its `이용총액`, an instalment purchase's whole price).
        "이용금액", "원금",
        # Portuguese's `Montante`, Chilean Spanish's `Monto`.
        "montante", "monto",
        # One column signed both ways (Raiffeisen's `Credit/Debit Amount`, Handelsbanken's `Insättning/Uttag`).
        "credit debit amount", "debit credit amount", "insattning uttag",
        # The booked figure (`记账金额`) before the one in the currency the card was used in (`交易金额`).
        "记账金额", "入账金额", "交易金额", "金额", "人民币金额",
        # Japanese: a signed `入出金` (in and out), a figure, a card's charge (`利用金額`: see card_charges).
        "入出金", "入出金額", "取引金額", "金額", "利用金額", "ご利用金額", "利用額", "ご利用額",
        # Seven Bank's debit card: the figure debited for a use (`お振替金額`), and a rebate on it (`差額`).
        "お振替金額", "差額",
        # A Ukrainian card's figure in the card's or account's currency (monobank, PrivatBank, OTP) before the
        # operation's own.
        "сума в валюті картки", "сума операціі в валюті рахунку", "сума",
        # A Russian card's figure in the account's currency (Sberbank, T-Bank's payment) before the operation's own.
        "сумма в валюте счета", "сумма платежа", "сумма",
        # Hebrew: a card's charge in shekels (Max's `סכום חיוב`), never the purchase's own `סכום עסקה מקורי`.
        "סכום חיוב",
    ),
    "debit": (
        "ghi no", "tien ra", "so tien ghi no", "phat sinh no", "so tien rut", "rut", "chi", "debit",
        # ACB's `Số tiền rút ra` (withdrawn), VPBank's `Số tiền chi tiêu` (spent) and the balance's `Giảm`.
        "so tien rut ra", "so tien chi tieu", "giam",
        "debits", "debit amount", "withdrawal", "withdrawals", "money out", "paid out", "so tien chi",
        # ICICI's `Withdrawal Amount (INR )`.
        "withdrawal amount",
        # Turkish (`Borç`), Greek (`Χρέωση`), Croatian and Serbian (`Isplata`, `Duguje`), Slovenian (`Breme`),
        # Bulgarian (`Дебит`), Korean (`출금액`, KB's `찾으신금액`) and Thai (`ถอนเงิน`) money out.
        "borc", "χρεωση", "isplata", "duguje", "breme", "дебит", "출금액", "출금", "찾으신금액", "ถอนเงิน",
        # Simplii's `Funds Out`; China CITIC Bank's `支出金额` (paid out); PayPay's `Amount Outgoing (Yen)`.
        "funds out", "支出金额", "amount outgoing",
        "soll", "uscite", "addebiti", "addebito", "debet", "debito",
        # Skandiabanken's `UT FRA KONTO` (out of the account) and `INN PÅ KONTO`.
        "ut fra konto",
        # Swiss German: the account charged (`Belastung`, `Belastungsbetrag`).
        "belastung", "belastungen", "belastungsbetrag",
        # ICBC's `记账金额(支出)` (booked, paid out) before `交易金额(支出)`; `支出` alone is money out.
        "记账金额 支出", "交易金额 支出", "支出",
        "出金", "出金金額", "お支払金額", "引出金額", "お引出金額",
        # SMBC's `お引出し` (withdrawn) and `お預入れ` (deposited).
        "お引出し", "お引き出し", "支払い金額", "お支払い金額",
        "сума списання", "списання", "видаток", "расход",
        # Last: Vietnamese's bare `Nợ`, folded as English's `No` (a line number) is written.
        "no",
    ),
    "credit": (
        "ghi co", "tien vao", "so tien ghi co", "phat sinh co", "so tien gui", "gui", "thu", "credit",
        # ACB's `Số tiền gửi vào` (paid in) and VPBank's `Tăng` (the balance went up).
        "so tien gui vao", "tang",
        "credits", "credit amount", "deposit", "deposits", "deposit amount", "money in", "paid in", "so tien thu",
        "haben", "entrate", "accrediti", "accredito", "gutschrift", "gutschriften", "gutschriftsbetrag", "credito",
        "inn pa konto",
        # Turkish (`Alacak`), Greek (`Πίστωση`), Croatian and Serbian (`Uplata`, `Potražuje`), Slovenian (`Dobro`),
        # Bulgarian (`Кредит`), Korean (`입금액`, KB's `맡기신금액`) and Thai (`ฝากเงิน`) money in.
        "alacak", "πιστωση", "uplata", "potrazuje", "dobro", "кредит", "입금액", "입금", "맡기신금액", "ฝากเงิน",
        "记账金额 收入", "交易金额 收入", "收入", "收入金额", "funds in", "amount incoming",
        "入金", "入金金額", "お預り金額", "お預入金額", "預入金額",
        "お預入れ", "お預け入れ", "預かり金額", "お預かり金額",
        "сума зарахування", "зарахування", "надходження", "приход",
        "co",
    ),
    # Charges on their own lines or beside the amount (Techcombank's `Phí/Lãi Fee/Interest`, `Thuế/VAT`).
    "fee": (
        "phi", "fee", "fees", "costo", "phi giao dich", "transaction fee", "bank charges", "комиссия", "комісія",
        # Korean (Lotte Card's `수수료` beside its `원금`).
        "수수료",
    ),
    "tax": ("thue", "vat", "transaction vat", "thue vat", "thue gtgt"),
    # Which way the money went, beside an unsigned amount (Mint's `Transaction Type`: debit or credit).
    "direction": (
        "debit credit", "credit debit", "dr cr", "cr dr", "soll haben", "af bij", "creditdebet",
        "credit debet", "bij af", "be ki", "d k", "db cr", "cr db", "bevetel kiadas", "debit kredit", "kredit debit",
        # A card's flag column (Swisscard's `Debit/Credit Flag`: D or C).
        "debit credit flag", "credit debit flag", "billingamountsign",
        # Estonian banks' `Deebet/Kreedit (D/C)` (Swedbank's D or K) and Luminor's `Deebet/krediit`.
        "deebet kreedit", "deebet krediit",
        # The same column in SEB's English export, named by its letters alone (`(D/C)`), and in Caixa's
        # (`Deb_Cred`: D or C).
        "d c", "deb cred",
        # WeChat Pay's `收/支` (in or out), a Chinese bank's `借贷标志` (debited or credited). Not Spanish
        # `Cargo/Abono`: Santander Chile's writes `C` for a cargo (money out) where `C` is a credit everywhere else.
        "收 支", "收支", "借贷标志", "借贷",
        # Last: a `Transaction type` may name the kind of line (HDFC's card: `Domestic`) beside a `Debit / Credit`.
        "transaction type",
    ),
    # Whether the bank has booked the line (Revolut's `State`, Fineco's `Stato`): pending lines are not in.
    "status": ("state", "status", "stato", "trang thai", "transaction status", "info", "статус"),
    "external_id": (
        "so tham chieu", "so but toan", "ma giao dich", "ma gd", "so giao dich", "so gd", "so ct", "so chung tu",
        "reference", "ref", "reference number", "referentie", "transaction id", "transaction reference", "ref no",
        "banki azonosito",
    ),
    "currency": (
        "loai tien", "tien te", "currency", "ccy", "don vi tien", "wahrung", "waehrung", "divisa", "devizanem",
        "penznem", "valiuta", "valuuta", "mena", "monn", "monnaie", "devise", "devise du compte", "moneda", "waluta",
        "munt",
        "记账币种", "入账货币", "交易币种", "交易货币", "货币", "币种", "币别", "通貨",
        # The card's or account's currency (PrivatBank, OTP), never monobank's bare `Валюта`, the operation's
        # beside card figures.
        "валюта картки", "валюта рахунку",
        # T-Bank's payment currency, the account's (never its `Валюта операции`, the operation's).
        "валюта платежа",
        # Hebrew: the charge's currency (Max's `מטבע חיוב`), not the purchase's (`מטבע עסקה מקורי`).
        "מטבע חיוב",
    ),
    "balance": (
        "so du", "so du cuoi", "balance", "running balance", "so du sau giao dich", "saldo", "kontostand", "egyenleg",
        # HDFC's balance after the line.
        "closing balance",
        # Caixa Geral de Depósitos' booked balance after the line, and the balance one may spend.
        "saldo contabilistico", "saldo contabilistico apos movimento", "saldo disponivel", "zustatek",
        "saldo po transakcji", "saldo po operacji", "bokfort saldo",
        # Turkish (`Bakiye`), Malay (`Baki`), Greek, Croatian and Serbian (`Stanje`), Romanian (`Sold`), Bulgarian
        # (`Салдо`), Korean (`잔액`, `거래후잔액`) and Thai (`ยอดคงเหลือ`).
        "bakiye", "baki", "υπολοιπο", "stanje", "sold", "салдо", "잔액", "거래후잔액", "ยอดคงเหลือ",
        "余额", "本次余额", "联机余额", "账户余额", "残高", "取引後残高", "差引残高", "お取引後残高", "現在残高",
        "залишок після операціі", "залишок", "залишок на кінець періоду",
    ),
    # A contra-account column (`TK đối ứng`) is found only in a company's own books (a cash or bank-deposit
    # ledger, `Sổ quỹ tiền mặt`), where the account's Nợ (debit) is money in and its Có money out: the bank's
    # own statement reads them the other way.
    "contra": ("tk doi ung", "tai khoan doi ung", "contra account", "gegenkonto"),
    # A row-number column (`STT/No.`): its `No.` must not be read as `Nợ` (debit).
    "index": ("stt", "so thu tu", "tt", "seq", "#"),
}  # fmt: skip
