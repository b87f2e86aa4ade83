"""The statements benchmark's files in the three fixed-width bank standards and in BAI2, written record by record
after each standard's layout (the records of tests/assets/statements/corpus/tune's Norma 43, CODA and CFONB 120
files, and heldout48's BAI2): each a file of `rows` movements, in statements small enough for each standard's
counters (Norma 43 counts an account's movements in 5 digits, CODA numbers a statement's in 4), with balances and
totals that add up."""

import datetime as dt

OPENING_CENTS = 10_000_000_000  # 100,000,000.00 EUR: no statement's balance goes below zero


def _movement(n: int) -> tuple[dt.date, int, bool]:
    """The n-th movement's booking date, amount in cents and whether it is money in (one in seven)."""
    return dt.date(2026, 1, 1) + dt.timedelta(days=n % 330), (n % 500 + 1) * 100, n % 7 == 0


def norma43(rows: int) -> bytes:
    """Accounts (11) of 10,000 movements each (22), two in three with a text record (23; the others' text is the
    movement's references), each account closed (33) with its counts and totals; the file's end (88)."""
    per = 10_000
    lines = []
    for account in range(0, rows, per):
        number = f"{account // per:010d}"
        lines.append(f"11018270130{number[1:]}2601012612312{OPENING_CENTS:014d}9783{'ZEUS BENCH':<26}")
        debits = credits = debit_count = credit_count = 0
        for n in range(account, min(account + per, rows)):
            day, cents, income = _movement(n)
            credits, credit_count = (credits + cents, credit_count + 1) if income else (credits, credit_count)
            debits, debit_count = (debits, debit_count) if income else (debits + cents, debit_count + 1)
            key, concept = ("2", "04") if income else ("1", "12")
            references = f"{n:010d}{n:012d}BIZUM {n:010d}"  # document number, reference 1, reference 2
            lines.append(f"22    7013{day:%y%m%d}{day:%y%m%d}{concept}408{key}{cents:014d}{references}")
            if n % 3:
                lines.append(f"2301{f'COMPRA TARJETA 1234 SUPERMERCADO CEN{n:08d}':<38}{f'TRO MADRID {n}':<38}")
        final = OPENING_CENTS - debits + credits
        lines.append(
            f"3301827013{number}{debit_count:05d}{debits:014d}{credit_count:05d}{credits:014d}2{final:014d}978"
        )
    lines.append(f"88{'9' * 18}{len(lines):06d}")
    return "".join(f"{line:<80}\r\n" for line in lines).encode("latin-1")


def _coda_day(day: dt.date) -> str:
    return f"{day:%d%m%y}"


def coda(rows: int) -> bytes:
    """Statements of 5,000 movements, each a header (0), old balance (1), movements (21; a 22, the payment
    reference, on seven in ten and a 23, the counterparty's account and name, on five in ten, as the corpus's real
    CODA files carry them), new balance (8) and trailer (9)."""
    per = 5_000
    lines = []
    for first in range(0, rows, per):
        seq = first // per + 1
        created = _coda_day(_movement(first)[0])
        statement = [
            f"00000{created}20005 {'':17}{'ZEUS BENCH':<26}GEBABEBB   00847615989 00000{'':39}2",
            f"12{seq % 1000:03d}BE12341676096039{'':18}EUR0{OPENING_CENTS * 10:015d}{created}{'ZEUS BENCH':<26}"
            f"{'CPTE A VUE / ZICHTREK':<35}{seq % 1000:03d}",
        ]
        debits = credits = 0
        for number, n in enumerate(range(first, min(first + per, rows)), start=1):
            day, cents, income = _movement(n)
            credits, debits = (credits + cents, debits) if income else (credits, debits + cents)
            sign, when = ("0" if income else "1"), _coda_day(day)
            more, most = n % 10 < 7, n % 10 < 5  # a 22 follows; a 23 follows it (the next-code flags say so)
            statement.append(
                f"21{number:04d}0000{f'B{n:012d}':<21}{sign}{cents * 10:015d}{when}00150000"
                f"0{f'REDEVANCE {n}':<53}{when}{seq % 1000:03d}0{int(more)} 0"
            )
            if more:
                statement.append(f"22{number:04d}0000{'':53}{f'FT{n:010d}':<35}GEBABEBB   {'':16}{int(most)} 0")
            if most:
                statement.append(
                    f"23{number:04d}0000{'BE12201702625236':<37}{f'XXXX MARKET ZAVENTEM {n}':<35}{'':43}0 0"
                )
        final = OPENING_CENTS - debits + credits
        closed = _coda_day(_movement(min(first + per, rows) - 1)[0])
        statement.append(f"8{seq % 1000:03d}BE12341676096039{'':18}EUR0{final * 10:015d}{closed}{'':64}0")
        count = len(statement) - 1  # the records between the header and the trailer
        statement.append(f"9{'':15}{count:06d}{debits * 10:015d}{credits * 10:015d}{'':75}2")
        lines += statement
    assert all(len(line) == 128 for line in lines)
    return "".join(f"{line}\r\n" for line in lines).encode("latin-1")


_OVERPUNCH = {"+": "{ABCDEFGHI", "-": "}JKLMNOPQR"}


def _cfonb_amount(cents: int) -> str:
    """A signed amount of 14 characters, its last digit carrying the sign (`{`, A to I above zero)."""
    digits = f"{abs(cents):014d}"
    return digits[:13] + _OVERPUNCH["+" if cents >= 0 else "-"][int(digits[13])]


def cfonb120(rows: int) -> bytes:
    """Statements of 10,000 movements, each an old balance (01), movements (04, one in two with a detail record
    05 of its label's rest) with their entry numbers, and the new balance (07)."""
    per = 10_000
    account = "10278    02204EUR2 00012345603  "
    lines = []
    balance = OPENING_CENTS
    for first in range(0, rows, per):
        opened = _movement(first)[0]
        lines.append(f"01{account}{opened:%d%m%y}{'':50}{_cfonb_amount(balance)}{'':16}")
        for n in range(first, min(first + per, rows)):
            day, cents, income = _movement(n)
            balance += cents if income else -cents
            when = f"{day:%d%m%y}"
            code = "05" if income else "B1"
            head = f"1055667720220{n % 10}EUR2 00012345603{code}{when}"
            amount = _cfonb_amount(cents if income else -cents)
            lines.append(f"04{head}  {when}{f'PRLV SEPA ONLINE SAS {n}':<31}  {n + 1:07d}0 {amount}{'':16}")
            if n % 2:
                lines.append(f"05{head}     LIB{f'DEDIBOX {n}':<70}  ")
        closed = _movement(min(first + per, rows) - 1)[0]
        lines.append(f"07{account}{closed:%d%m%y}{'':50}{_cfonb_amount(balance)}{'':16}")
    assert all(len(line) == 120 for line in lines)
    return "".join(f"{line}\r\n" for line in lines).encode("latin-1")


def bai2(rows: int, *, per: int = 10_000) -> bytes:
    """A BAI2 file (laid out as tests/assets/statements/corpus/heldout48's are): a file header (01), one group (02)
    of accounts (03, no summaries) of `per` transaction details each (16: an incoming or outgoing money transfer,
    its amount in cents, immediate availability, the bank's reference, a text), each account's trailer (49), the
    group's (98) and the file's (99), their control totals and record counts adding up as the format requires."""
    group, total, accounts = [], 0, 0
    for first in range(0, rows, per):
        account = [f"03,{first // per + 1:010d},USD,/"]
        sums = 0
        for n in range(first, min(first + per, rows)):
            _, cents, income = _movement(n)
            sums += cents
            account.append(f"16,{195 if income else 495},{cents},0,B{n:010d},,BENCH TRANSFER {n}/")
        account.append(f"49,{sums},{len(account) + 1}/")
        group += account
        total, accounts = total + sums, accounts + 1
    group = ["02,ZEUSBENCH,BANKBIC,1,260101,,USD,/", *group, f"98,{total},{accounts},{len(group) + 2}/"]
    lines = ["01,BANKBIC,ZEUSBENCH,260101,0900,1,,,2/", *group, f"99,{total},1,{len(group) + 2}/"]
    return "".join(f"{line}\r\n" for line in lines).encode("ascii")


def onec(rows: int) -> bytes:
    """A Russian 1C client-bank exchange file (kl_to_1c.txt, Windows-1251, laid out as tests/assets/statements/corpus/
    tune's are): the header naming one account, its section with opening balance, totals and closing balance that
    the documents add up to, and `rows` documents, one in seven paying into the account. Each document carries the
    fields a bank's export always writes (number, dates, amount, both accounts, both names, the purpose) and no more:
    a bank's full documents are 1-2 KB, and 100,000 of them would pass the importer's 32 MB cap."""
    ours, theirs = "40702810900000000001", "40702810500000000777"
    documents, out, into = [], 0, 0
    for n in range(rows):
        day, cents, income = _movement(n)
        into, out = (into + cents, out) if income else (into, out + cents)
        payer, payee = (theirs, ours) if income else (ours, theirs)
        documents.append(
            f"СекцияДокумент=Платежное поручение\r\nНомер={n}\r\nДата={day:%d.%m.%Y}\r\n"
            f"Сумма={cents // 100}.{cents % 100:02d}\r\nПлательщикСчет={payer}\r\nДатаСписано={day:%d.%m.%Y}\r\n"
            "Плательщик1=ООО Ромашка\r\n"
            f"ПолучательСчет={payee}\r\nДатаПоступило={day:%d.%m.%Y}\r\nПолучатель1=ИП Иванов {n}\r\n"
            f"НазначениеПлатежа=Оплата по счету {n}\r\nКонецДокумента\r\n"
        )
    closing = OPENING_CENTS + into - out
    header = (
        "1CClientBankExchange\r\nВерсияФормата=1.03\r\nКодировка=Windows\r\nОтправитель=Банк\r\n"
        f"ДатаНачала=01.01.2026\r\nДатаКонца=31.12.2026\r\nРасчСчет={ours}\r\nСекцияРасчСчет\r\nДатаНачала=01.01.2026\r\n"
        f"ДатаКонца=31.12.2026\r\nРасчСчет={ours}\r\nНачальныйОстаток={OPENING_CENTS // 100}.00\r\n"
        f"ВсегоСписано={out // 100}.{out % 100:02d}\r\nВсегоПоступило={into // 100}.{into % 100:02d}\r\n"
        f"КонечныйОстаток={closing // 100}.{closing % 100:02d}\r\nКонецРасчСчет\r\n"
    )
    return (header + "".join(documents) + "КонецФайла\r\n").encode("cp1251")
