"""The demo account's 90 days of VND spending (and four months of its monthly money), as a pure function of the
user's today.

Nothing here touches the database or the clock, so tests can sweep many "todays" cheaply. The same `today`
always gives the same rows (a fixed seed; dates relative to today). Other work depends on these facts:

- income: salary 25,000,000 on the 5th; housing: rent 6,500,000 on the 1st; utilities around the 10th;
  subscriptions: Netflix 260,000 on the 12th, Spotify 59,000 on the 20th, a Viettel phone plan 120,000 on
  the 25th (monthly series, not duplicates; with the rent, salary and utilities, what the recurring
  detection finds).
- groceries twice a week, dining six days a week, Grab three or four times a week, with regular weekly totals
  and month-to-date spend held under 80 % of the demo budgets (BUDGETS).
- shopping small and steady (one purchase a week) until the last 7 days, which hold the planted spike
  (SPIKE: 7,480,000).
- entertainment most weeks; the last 7 days hold only the planted duplicate: two "CGV Cinemas" 240,000
  charges two days ago.
- no two rows share a description and an amount within a day of each other, except that duplicate; two
  "Highlands Coffee" 55,000 a week apart are planted as a look-alike that is not one.
"""

import datetime as dt
import random
import statistics
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

SEED = 4821
DAYS = 90
# The monthly money (rent, salary, bills, subscriptions) reaches further back: the recurring detection needs three
# of each, and 90 days hold only two of the 5th's salary when today falls on the 1st to the 4th.
MONTHLY_DAYS = 124
CURRENCY = "VND"

# The demo user's monthly limits. Month-to-date spend is held at _CAP of each, below the 80 % budget alert.
BUDGETS = {"dining": 5_000_000, "groceries": 6_000_000, "transport": 2_500_000}
_CAP = Decimal("0.75")

SALARY = 25_000_000
RENT = 6_500_000
NETFLIX = 260_000
SPOTIFY = 59_000
PHONE_PLAN = 120_000
SPIKE = (("Thế Giới Di Động", 5_990_000, 3), ("Uniqlo", 1_490_000, 1))  # description, amount, days ago
DUPLICATE = ("CGV Cinemas", 240_000, 2)
LOOKALIKE = ("Highlands Coffee", 55_000, (16, 9))  # the same coffee a week apart

# Which account pays: "vcb" and "momo" rows are synced from the linked accounts, "cash" rows are manual.
VCB, MOMO, CASH = "vcb", "momo", "cash"


@dataclass(frozen=True)
class Entry:
    occurred_on: dt.date
    amount: Decimal
    category: str
    description: str
    account: str
    slug: str  # unique within its day and account; with them, the synced row's external_id
    direction: str = "expense"

    @property
    def synced(self) -> bool:
        return self.account != CASH

    @property
    def external_id(self) -> str | None:
        return f"demo-{self.account}-{self.occurred_on.isoformat()}-{self.slug}" if self.synced else None


# (description, account, low, high, step) — prices in thousands of đồng.
_DINING = [
    ("Phở Hòa", CASH, 55, 85, 5),
    ("Highlands Coffee", MOMO, 39, 69, 10),
    ("Cơm tấm Ba Ghiền", CASH, 60, 95, 5),
    ("KFC", MOMO, 89, 180, 1),
]
_BIG_SHOP = ["Co.opmart", "WinMart"]
_TOP_UP = "Bách Hóa Xanh"
_SHOPS = ["Shopee", "Lazada", "Tiki", "Fahasa"]
_FUN = [("Lotte Cinema", 160, 220), ("Karaoke Nice", 250, 450), ("CGV Cinemas", 170, 230)]


class _Builder:
    def __init__(self, today: dt.date, seed: int):
        self.today = today
        self.rng = random.Random(seed)
        self.entries: list[Entry] = []
        self.last_seen: dict[tuple[str, Decimal], dt.date] = {}
        self.month_spend: dict[tuple[str, int, int], int] = defaultdict(int)

    def days_ago(self, day: dt.date) -> int:
        return (self.today - day).days

    def clashes(self, description: str, amount: int, day: dt.date) -> bool:
        seen = self.last_seen.get((description, Decimal(amount)))
        return seen is not None and abs((day - seen).days) <= 1

    def price(self, description: str, day: dt.date, low: int, high: int, step: int = 1) -> int:
        """A price in [low, high] thousand đồng that repeats no same-described row within a day."""
        choices = [k * 1000 for k in range(low, high + 1, step)]
        for _ in range(50):
            amount = self.rng.choice(choices)
            if not self.clashes(description, amount, day):
                return amount
        raise AssertionError(f"no free price for {description} on {day}")

    def capped(self, category: str, day: dt.date, amount: int, floor: int) -> int | None:
        """Holds a budgeted category's month-to-date spend under its cap (None: skip the purchase)."""
        if category not in BUDGETS:
            return amount
        room = int(BUDGETS[category] * _CAP) - self.month_spend[(category, day.year, day.month)]
        return amount if amount <= room else (room // 1000 * 1000 if room >= floor else None)

    def add(self, day, amount, category, description, account, slug, direction="expense", *, planted=False):
        if not planted and self.clashes(description, amount, day):
            raise AssertionError(f"{description} {amount} twice within a day around {day}")
        self.entries.append(Entry(day, Decimal(amount), category, description, account, slug, direction))
        self.last_seen[(description, Decimal(amount))] = day
        if direction == "expense":
            self.month_spend[(category, day.year, day.month)] += amount

    def spend(self, day, category, description, account, slug, low, high, step=1, floor=None):
        amount = self.capped(category, day, self.price(description, day, low, high, step), floor or low * 1000)
        if amount is not None and not self.clashes(description, amount, day):
            self.add(day, amount, category, description, account, slug)


def ledger(today: dt.date) -> list[Entry]:
    """The demo rows for the 90 days ending on `today`, oldest first.

    Random weekly totals can look like a spike by chance; the first seed from SEED on whose draw every
    steady category stays well inside the spike rule is taken, so the only spike is the planted one.
    """
    for seed in range(SEED, SEED + 1000):
        entries = _build(today, seed)
        if all(_steady(entries, category, today) for category in STEADY):
            return entries
    raise AssertionError(f"no steady demo ledger for {today}")


# Spent most weeks; the insight rule (modified z-score of the last 7 days against the 12 weeks before) must
# not fire on them. The margin below its 3.5 threshold leaves room for the rule's own rounding.
STEADY = ("groceries", "dining", "transport", "entertainment")
STEADY_MAX_SCORE = 2.5


def weekly_totals(entries: list[Entry], category: str, today: dt.date) -> list[Decimal]:
    """The category's spend in the last 7 days, then in each of the 12 seven-day windows before, newest first."""
    totals = [Decimal(0)] * 13
    for entry in entries:
        window = (today - entry.occurred_on).days // 7
        if entry.category == category and entry.direction == "expense" and 0 <= window < 13:
            totals[window] += entry.amount
    return totals


def spike_score(entries: list[Entry], category: str, today: dt.date) -> Decimal | None:
    """0.6745 · (x - median) / MAD for the last 7 days against the 12 windows before; None when MAD is 0."""
    last, *before = weekly_totals(entries, category, today)
    median = statistics.median(before)
    mad = statistics.median(abs(total - median) for total in before)
    return None if mad == 0 else Decimal("0.6745") * (last - median) / mad


def _steady(entries: list[Entry], category: str, today: dt.date) -> bool:
    score = spike_score(entries, category, today)
    return score is not None and score <= STEADY_MAX_SCORE


def _build(today: dt.date, seed: int) -> list[Entry]:
    # The monthly money before the 90 days, drawn apart: the 90 days' draws stay what they were.
    earlier = _Builder(today, seed)
    for offset in range(MONTHLY_DAYS - 1, DAYS - 1, -1):
        _monthly(earlier, today - dt.timedelta(days=offset))
    b = _Builder(today, seed)
    skipped_fun_last_week = False
    for offset in range(DAYS - 1, -1, -1):
        day = today - dt.timedelta(days=offset)
        ago, weekday = offset, day.weekday()
        _monthly(b, day)
        if weekday == 6:
            b.spend(day, "groceries", b.rng.choice(_BIG_SHOP), VCB, "groceries", 400, 650)
        if weekday == 2:
            b.spend(day, "groceries", _TOP_UP, VCB, "groceries", 250, 400)
        _dining(b, day)
        if weekday in (0, 2, 4) or (weekday == 5 and day.isocalendar().week % 2 == 0):
            b.spend(day, "transport", "Grab", MOMO, "grab", 35, 120)
        if weekday == 5 and ago > 6:
            b.spend(day, "shopping", b.rng.choice(_SHOPS), VCB, "shop", 100, 400)
        if weekday == 4 and ago > 6:
            skip = not skipped_fun_last_week and b.rng.random() < 0.25
            if not skip:
                name, low, high = b.rng.choice(_FUN)
                b.spend(day, "entertainment", name, VCB, "fun", low, high, 10)
            skipped_fun_last_week = skip
        for description, amount, days_ago in SPIKE:
            if ago == days_ago:
                b.add(day, amount, "shopping", description, VCB, f"spike-{days_ago}")
        if ago == DUPLICATE[2]:
            name, amount, _ = DUPLICATE
            b.add(day, amount, "entertainment", name, VCB, "cgv-1")
            b.add(day, amount, "entertainment", name, VCB, "cgv-2", planted=True)
    return earlier.entries + b.entries


def _monthly(b: _Builder, day: dt.date) -> None:
    if day.day == 1:
        b.add(day, RENT, "housing", "Tiền nhà", VCB, "rent")
    if day.day == 5:
        b.add(day, SALARY, "salary", f"Lương tháng {day:%m/%Y}", VCB, "salary", direction="income")
    if day.day == 10:
        b.add(day, b.price("Tiền điện EVN", day, 600, 700, 5), "utilities", "Tiền điện EVN", VCB, "electricity")
    if day.day == 11:
        b.add(day, b.price("Tiền nước Sawaco", day, 115, 125), "utilities", "Tiền nước Sawaco", VCB, "water")
    if day.day == 12:
        b.add(day, NETFLIX, "subscriptions", "Netflix", VCB, "netflix")
    if day.day == 20:
        b.add(day, SPOTIFY, "subscriptions", "Spotify", VCB, "spotify")
    if day.day == 25:
        b.add(day, PHONE_PLAN, "utilities", "Viettel cước di động", VCB, "phone")


def _dining(b: _Builder, day: dt.date) -> None:
    name, amount, weeks_ago = LOOKALIKE
    if b.days_ago(day) in weeks_ago:
        b.add(day, amount, "dining", name, MOMO, "dining", planted=True)
        return
    if day.weekday() == 1:  # Tuesdays she cooks
        return
    description, account, low, high, step = b.rng.choice(_DINING)
    b.spend(day, "dining", description, account, "dining", low, high, step, floor=35_000)
