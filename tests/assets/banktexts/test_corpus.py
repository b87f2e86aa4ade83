"""The bank-text reader on the corpus of real shapes (corpus/tune.jsonl, see PROVENANCE.md): every field of
every text right, and what must be refused refused."""

import random
import string

import pytest

from assets.banktexts.parsers import parse
from tests.assets.banktexts.corpus_check import NOW, TZ, cases, wrong_fields

# Held-out parts gathered but not yet measured: no test, nor the bench, runs the reader on them before their one
# measurement (`corpus_check PART`); after it the part leaves this set and is asserted below like the rest.
NOT_YET_MEASURED: set[str] = set()

TUNE = cases("tune")
# tune2.jsonl: real notifications of 2017-2026 quoted verbatim, the half of a seeded split the reader was tuned on.
TUNE2 = cases("tune2")
# Spent held-out texts (measured once, then read to fix the reader) guard against regressions like the rest.
SPENT = cases("heldout") + cases("heldout2")
REAL = cases("heldout3")
# heldout6.jsonl: the other half of that split, measured once (28/31) and spent; every field read since.
HELDOUT6 = cases("heldout6")
# tune3.jsonl: 22 real notifications of 2018-2026 (SHB, VIB's dotted mask, VPBank NEO's amount in its title, a MoMo
# push), the half of the 4 December seeded split the reader was tuned on.
TUNE3 = cases("tune3")
# heldout7.jsonl: the other half of that split, measured once (21/23) and spent; every field read since.
HELDOUT7 = cases("heldout7")
# heldout8.jsonl: 28 real texts (a phone's exported inbox, VietinBank and Vietcombank pushes), measured once (27/28) and
# spent; tune4.jsonl: more of that inbox (Vietcombank, Viettel Money), read while fixing the reader.
SPENT8 = cases("heldout8") + cases("tune4")


@pytest.mark.parametrize("case", TUNE, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(TUNE)])
def test_every_field_of_each_text_is_read(case):
    assert wrong_fields(case) == []


@pytest.mark.parametrize("case", REAL)
def test_every_field_of_each_real_2018_sms_is_read(case):
    """heldout3.jsonl: real SMS of 2018 with their senders, quoted verbatim."""
    assert wrong_fields(case) == []


@pytest.mark.parametrize("case", SPENT, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(SPENT)])
def test_every_field_of_each_real_notification_is_read(case):
    """heldout.jsonl's shapes and heldout2.jsonl's real texts quoted verbatim (Vietcombank and DongA 2019,
    ShinhanBank 2022): every field."""
    assert wrong_fields(case) == []


def test_each_bank_of_the_contract_list_is_read():
    read = {c["bank"] for c in TUNE if not c.get("refused") and not wrong_fields(c)}
    contract = {
        "Vietcombank", "VietinBank", "BIDV", "Agribank", "Techcombank", "MB", "ACB", "VPBank", "TPBank",
        "Sacombank", "VIB", "HDBank", "SHB", "SeABank", "OCB", "MSB", "Eximbank", "Timo", "Cake", "MoMo",
        "ZaloPay", "ShopeePay",
    }  # fmt: skip
    assert contract <= read


@pytest.mark.parametrize("case", TUNE2, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(TUNE2)])
def test_every_field_of_each_real_notification_of_the_tuning_half_is_read(case):
    assert wrong_fields(case) == []


@pytest.mark.parametrize("case", HELDOUT6, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(HELDOUT6)])
def test_every_field_of_each_real_notification_of_the_spent_held_out_half_is_read(case):
    assert wrong_fields(case) == []


@pytest.mark.parametrize("case", TUNE3, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(TUNE3)])
def test_every_field_of_each_real_notification_of_the_third_tuning_half_is_read(case):
    assert wrong_fields(case) == []


@pytest.mark.parametrize("case", HELDOUT7, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(HELDOUT7)])
def test_every_field_of_each_real_notification_of_the_seventh_spent_held_out_half_is_read(case):
    assert wrong_fields(case) == []


@pytest.mark.parametrize("case", SPENT8, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(SPENT8)])
def test_every_field_of_each_real_text_of_a_phones_inbox_is_read_and_its_otps_and_offers_refused(case):
    assert wrong_fields(case) == []


# heldout9.jsonl: 10 real texts (MoMo pushes and a MoMo promotion, MB and ACB pushes, ACB and Vietcombank SMS), measured
# once (8/10) and spent; its two misses (MoMo's `về Túi Thần Tài` push read as money out, the shade's cut name `NGUYEN
# HOANG S...` losing its `...`) were read and fixed after (test_wallet_parties.py).
HELDOUT9 = cases("heldout9")


@pytest.mark.parametrize("case", HELDOUT9, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(HELDOUT9)])
def test_every_field_of_each_real_text_of_the_ninth_held_out_part_is_read(case):
    assert wrong_fields(case) == []


# heldout10.jsonl: 31 real texts (Vietcombank and ACB SMS of 2018, Viettel Money SMS, and OTPs, offers and a smishing
# SMS to refuse), measured once (23/31) and spent; every field read since (the last, Viettel Money's receipt naming the
# service paid for, with heldout11's misses: test_links_and_codes.py).
HELDOUT10 = cases("heldout10")


@pytest.mark.parametrize("case", HELDOUT10, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(HELDOUT10)])
def test_every_field_of_each_real_text_of_the_tenth_held_out_part_is_read(case):
    assert wrong_fields(case) == []


# heldout11.jsonl: 23 real texts (Vietcombank SMS and pushes, Techcombank SMS and app pushes, TPBank, VietinBank and
# BIDV SMS, and OTPs, a debt reminder and an invoice notice to refuse), measured once (20/23) and spent; its misses
# (Techcombank's push opening with its amount read with no bank and its closing `Ma tham chieu …` kept in the note,
# MCREDIT's overdue-instalment reminder read as money out) were read and fixed after (test_pushes_and_reminders.py).
HELDOUT11 = cases("heldout11")


@pytest.mark.parametrize("case", HELDOUT11, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(HELDOUT11)])
def test_every_field_of_each_real_text_of_the_eleventh_held_out_part_is_read(case):
    assert wrong_fields(case) == []


# heldout12.jsonl: 7 real texts (Vietcombank, BIDV and Agribank, an OTP and two scams to refuse), measured once (6/7)
# and spent; its miss (BIDV's labelled one-line SMS with no bank name read with no bank) was fixed after
# (test_pushes_and_reminders.py).
HELDOUT12 = cases("heldout12")


@pytest.mark.parametrize("case", HELDOUT12, ids=[f"{i}-{c.get('bank', 'refused')}" for i, c in enumerate(HELDOUT12)])
def test_every_field_of_each_real_text_of_the_twelfth_held_out_part_is_read(case):
    assert wrong_fields(case) == []


_RANDOM = random.Random(29)
NOISE = {
    "letters": "x" * 1000,
    "signed": "+1,000 " * 143,
    "digits": "TK 1 " + "9" * 995,
    "dates": "1/1/1 " * 167,
    "labels": "SD " * 334,
    "times": "1:11 " * 200,
    "card-approvals": "Transaction Approved A(**40) " + "/1" * 486,
    "bracketed-signs": "(+) 1 " * 167,
    "notification-marks": "TK 1234 +1,000VND SD 5,000VND ND: " * 30,
    "random": "".join(_RANDOM.choice(string.ascii_letters + string.digits + " .,:;+-/|()") for _ in range(1000)),
    # Shapes that cost the most per character: a word boundary at every other character, a line per word (a push's
    # title lines are looked at), approvals and slashes repeated (a card approval is matched where a line opens).
    "short-words": "a " * 499 + "12",
    "short-lines": "a\n" * 499 + "12",
    "approvals": ("Transaction Approved /" * 46)[:998] + "12",
    "approval-slashes": ("Transaction Approved " + "/x" * 490)[:998] + "12",
}


@pytest.mark.parametrize("noise", NOISE.values(), ids=NOISE.keys())
def test_a_thousand_characters_of_noise_are_refused(noise):
    """Hostile input: 1,000 characters of noise (repeated amounts, dates, labels, whole notifications) never
    become a draft, however many amounts they hold."""
    assert len(noise[:1000]) == 1000
    assert parse(noise[:1000], now=NOW, tz=TZ) is None


def test_a_balance_beyond_the_column_is_dropped_not_stored():
    got = parse("SD TK 0071000123456 -45,000VND luc 02-12-2026 12:01:44. SD 99999999999999999VND.", now=NOW, tz=TZ)
    assert got is not None and got.balance_after is None
