"""Table tests of the readers on the Czech exports found on heldout36 after its one measurement: Komerční banka's
CSV in Windows-1250, whose `ě` after a letter looked like a Vietnamese tone in Windows-1258 (and `š`, `ž` are bytes
Windows-1258 does not have), and ČSOB's Czech column names. Figures and names made up; and the guard that a
Vietnamese Windows-1258 file still reads as one."""

import io

from assets.statements.headers import auto_mapping
from assets.statements.textfile import encoding_of
from tests.assets.statements.test_corpus import cp1258

CZECH = "Datum;Částka;Poznámka\n01.06.2022;-323,00;Předchozí výpis ze dne, poštovné, Plzeň\n"


def test_czech_text_in_windows_1250_is_read_as_such():
    raw = CZECH.encode("cp1250")
    assert encoding_of(io.BytesIO(raw), raw) == "cp1250"
    assert raw.decode("cp1250") == CZECH


def test_vietnamese_in_windows_1258_is_still_read_as_vietnamese():
    raw = cp1258("Ngày;Số tiền;Nội dung\n01/06/2022;-50.000;Chuyển tiền mua cà phê\n")
    assert encoding_of(io.BytesIO(raw), raw) == "cp1258"


def test_csob_names_its_columns_in_czech():
    header = ["číslo účtu", "datum zaúčtování", "částka", "měna", "zůstatek", "název účtu protiúčtu", "poznámka"]
    assert auto_mapping(header) == {
        "date": "datum zaúčtování",
        "amount": "částka",
        "currency": "měna",
        "description": "název účtu protiúčtu",
    }
