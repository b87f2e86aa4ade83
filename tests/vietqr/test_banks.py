"""The NAPAS bank list (assets/vietqr/banks.json) parses, names each bank once by a six-digit BIN, and keeps
where it was checked."""

import json
import re
from pathlib import Path

from assets.vietqr import banks

DATA = Path(banks.__file__).with_name("banks.json")

# NAPAS's BINs as thanhtinhpas1/vietqr-parser (386d29f, pkg/constants/bankbin.go) copies them from NAPAS's own
# member list: a wrong digit typed into banks.json fails here.
NAPAS_MEMBERS = {
    "970436": "Vietcombank",
    "970416": "ACB",
    "970403": "Sacombank",
    "970431": "Eximbank",
    "970423": "TPBank",
    "970443": "SHB",
    "970437": "HDBank",
    "970422": "MBBank",
    "970408": "GPBank",
    "970432": "VPBank",
    "970441": "VIB",
    "970414": "Oceanbank",
    "970427": "VietABank",
    "970407": "Techcombank",
    "970448": "OCB",
    "970419": "NCB",
    "970442": "HongLeong",
    "970449": "LPBank",
    "970415": "VietinBank",
    "970425": "ABBANK",
    "970409": "BacABank",
    "970438": "BaoVietBank",
    "970424": "ShinhanBank",
    "970439": "PublicBank",
    "970440": "SeABank",
    "970429": "SCB",
    "970426": "MSB",
    "970418": "BIDV",
    "970406": "DongABank",
    "970452": "KienLongBank",
    "970430": "PGBank",
    "970400": "SaigonBank",
    "970405": "Agribank",
    "970412": "PVcomBank",
    "970421": "VRB",
    "970454": "BVBank",
    "970428": "NamABank",
    "970434": "IndovinaBank",
    "970457": "Woori",
    "970446": "Co-opBank",
    "970458": "UnitedOverseas",
    "970462": "KookminHN",
    "970463": "KookminHCM",
}


def rows() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["banks"]


def test_every_bin_is_six_digits_and_named_once():
    bins = [row["bin"] for row in rows()]
    assert all(re.fullmatch(r"\d{6}", value) for value in bins), [b for b in bins if not re.fullmatch(r"\d{6}", b)]
    assert len(bins) == len(set(bins))
    assert all(row["short_name"].strip() and row["name"].strip() for row in rows())
    assert len(banks.all_banks()) == len(bins) >= 60


def test_napas_members_carry_their_published_bins():
    for bank_bin, short_name in NAPAS_MEMBERS.items():
        assert banks.bank_for(bank_bin) is not None, bank_bin
        assert banks.bank_for(bank_bin).short_name == short_name, bank_bin


def test_the_list_says_where_it_was_checked():
    document = json.loads(DATA.read_text(encoding="utf-8"))
    sources = document["checked"]["sources"]
    assert {"thanhtinhpas1/vietqr-parser", "neopayvn/neopay-library"} <= {s.get("repository") for s in sources}
    assert all(re.fullmatch(r"[0-9a-f]{40}", s["commit"]) for s in sources if "repository" in s)
    assert "NAPAS" in banks.source()
    assert banks.bank_for("999999") is None
