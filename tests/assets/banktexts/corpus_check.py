"""Measures the bank-text reader on the corpus: a text counts as right when every field of its draft is
right (bank, amount, direction, local moment, balance, account's last digits, description), or when a text
that must be refused (an OTP, a promotion, a failed payment, an impossible date) reads as nothing.

    .venv/bin/python -m tests.assets.banktexts.corpus_check heldout   # or: tune
"""

import datetime as dt
import json
import sys
import zoneinfo
from decimal import Decimal
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
TZ = zoneinfo.ZoneInfo("Asia/Ho_Chi_Minh")
NOW = dt.datetime(2026, 12, 3, 12, 0, tzinfo=TZ)


def _same_text(a: str, b: str) -> bool:
    def norm(s):
        return " ".join((s or "").casefold().split()).strip(" .")

    return norm(a) == norm(b)


def wrong_fields(case: dict) -> list[str]:
    from assets.banktexts.parsers import parse

    got = parse(case["text"], now=NOW, tz=TZ, sender=case.get("sender", ""))
    if case.get("refused"):
        return [] if got is None else [f"not refused: {got}"]
    if got is None:
        return ["unread"]
    wrong = []
    if got.bank != case["bank"]:
        wrong.append(f"bank {got.bank!r}")
    if got.amount != Decimal(case["amount"]) or got.direction != case["direction"]:
        wrong.append(f"amount {got.direction} {got.amount}")
    if got.occurred_at.astimezone(TZ).replace(tzinfo=None).isoformat() != case["occurred_at"]:
        wrong.append(f"moment {got.occurred_at.isoformat()}")
    expected_balance = Decimal(case["balance_after"]) if case.get("balance_after") else None
    if got.balance_after != expected_balance:
        wrong.append(f"balance {got.balance_after}")
    if case.get("account_tail") and not got.account_mask.endswith(case["account_tail"]):
        wrong.append(f"account {got.account_mask!r}")
    if not _same_text(got.description, case["description"]):
        wrong.append(f"description {got.description!r}")
    return wrong


def cases(part: str) -> list[dict]:
    return [json.loads(line) for line in (CORPUS / f"{part}.jsonl").read_text().splitlines() if line.strip()]


def main(part: str) -> int:
    import django

    django.setup()
    right = 0
    every = cases(part)
    for case in every:
        wrong = wrong_fields(case)
        right += not wrong
        print(("ok   " if not wrong else "WRONG ") + case["text"][:70].replace("\n", " / "), "; ".join(wrong))
    print(f"\n{part}: {right}/{len(every)} texts read with every field right ({100 * right / len(every):.0f} %)")
    return 0


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings")
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "heldout"))
