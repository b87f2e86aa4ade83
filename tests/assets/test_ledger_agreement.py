"""Every figure of income and spending agrees with a plain sum written by hand (docs/ledger.md, "Money that
counts"): over random ledgers with transfers, splits, exclusions and two currencies (with and without rates),
the home's this-month panel, the budgets' spent, the plan's actuals, the weekly review and the assistant's
`summarize_spending` all count the same money, convert the same rows at their own day's rate and name the
same rows as "rate missing"."""

import datetime as dt
import itertools
import uuid
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets.ledger.totals import list_total_in
from assets.selectors import transaction_list, transaction_totals
from assets.summary import ledger_summary
from chat.tools.base import ToolContext
from chat.tools.reads import summarize_spending
from goals.selectors import budget_statuses
from plans.models import MonthlyPlan
from plans.selectors import plan_ledgers
from suggestions.digest.reads import review_spending
from tests import factories
from tests.assets.test_ledger_counted import CATEGORIES, START, build_ledger, rates_strategy, row_strategy
from tests.plans.factories import plan
from zeus.money import to_minor

TODAY = START + dt.timedelta(days=20)  # the ledger's last day: the whole ledger is "this month"
WEEK = START + dt.timedelta(days=14)  # the review's week: the ledger's last seven days
_names = itertools.count()


def _by_category(entries, direction) -> tuple[dict[str, Decimal], dict[str, int]]:
    """The hand sum in VND per category, and how many USD rows went into each (each may round by half a dong
    when a query sums a day's USD rows before converting them)."""
    totals, foreign = {}, {}
    for e in entries:
        if e["direction"] == direction and e["vnd"] is not None:
            totals[e["category"]] = totals.get(e["category"], Decimal(0)) + e["vnd"]
            foreign[e["category"]] = foreign.get(e["category"], 0) + (e["currency"] == "USD")
    return totals, foreign


def _close(got: dict[str, Decimal], want: dict[str, Decimal], foreign: dict[str, int], what: str) -> None:
    got = {c: v for c, v in got.items() if v}
    want = {c: v for c, v in want.items() if v}
    assert set(got) == set(want), what
    for category, total in want.items():
        assert abs(got[category] - total) <= Decimal(foreign[category]) / 2, (what, category)


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(row_strategy, max_size=10), rates=rates_strategy)
def test_every_figure_counts_the_same_money(rows, rates):
    owner = factories.user(f"agree{next(_names)}")
    expected = build_ledger(owner, rows, rates)
    spending, foreign = _by_category(expected, "expense")
    income, income_foreign = _by_category(expected, "income")
    missing = sum((e["raw"] for e in expected if e["vnd"] is None and e["direction"] == "expense"), Decimal(0))

    summary = ledger_summary(user=owner, currency="VND", today=TODAY)
    _close({c: s.now for c, s in summary.spending_by_category.items()}, spending, foreign, "home by category")
    month = summary.net_worth.months[-1]
    assert abs(month.expense - sum(spending.values(), Decimal(0))) <= sum(foreign.values()) / Decimal(2)
    assert abs(month.income - sum(income.values(), Decimal(0))) <= sum(income_foreign.values()) / Decimal(2)
    assert sum((m["amount"] for m in summary.rate_missing), Decimal(0)) == sum(
        (e["raw"] for e in expected if e["vnd"] is None), Decimal(0)
    )

    # "other": the category of a suggested transfer's other side, which still counts.
    budgets = [factories.budget(owner, category=c, amount=Decimal(1000000)) for c in (*CATEGORIES, "other")]
    statuses = budget_statuses(user=owner, budgets=budgets, month=(TODAY.year, TODAY.month))
    _close({s.budget.category: s.spent for s in statuses}, spending, foreign, "budgets")
    # What no rate converts is named on the budget of its own category; what converts, beside the figure.
    assert sum((m["amount"] for s in statuses for m in s.rate_missing), Decimal(0)) == missing
    converted_usd = sum(
        (e["raw"] for e in expected if e["vnd"] is not None and e["direction"] == "expense" and e["currency"] == "USD"),
        Decimal(0),
    )
    assert sum((c["amount"] for s in statuses for c in s.converted), Decimal(0)) == converted_usd

    made = plan(owner, month=f"{dt.date.today():%Y-%m}", fixed=())  # a month that has not ended yet
    MonthlyPlan.objects.filter(pk=made.pk).update(month=START)  # then moved onto the ledger's month
    made.refresh_from_db()
    actuals = plan_ledgers([made])[made.id].expenses_by_category
    _close(actuals, {c: to_minor(v, "VND") for c, v in spending.items()}, foreign, "plan")

    context = ToolContext(user=owner, thread_id=uuid.uuid4(), today=TODAY, currency="VND", timezone="Asia/Ho_Chi_Minh")
    told = summarize_spending(context, {"period": "this_month", "group_by": "category"})
    _close({g["label"]: Decimal(g["amount"]) for g in told["groups"]}, spending, foreign, "summarize_spending")
    assert sum((Decimal(m["amount"]) for m in told["rate_missing"]), Decimal(0)) == missing
    assert sum((Decimal(c["amount"]) for c in told["converted"]), Decimal(0)) == converted_usd
    assert all(Decimal(c["rate"]) > 0 and c["to_currency"] == "VND" for c in told["converted"])

    # The /transactions totals of the whole list, added up in VND beside their per-currency figures.
    qs = transaction_list(user=owner)
    own = next(((t.income, t.expense) for t in transaction_totals(qs) if t.currency == "VND"), (0, 0))
    listed = list_total_in(qs, currency="VND", own=own)
    assert abs(listed.expense - sum(spending.values(), Decimal(0))) <= sum(foreign.values()) / Decimal(2)
    assert sum((m["amount"] for m in listed.rate_missing["expense"]), Decimal(0)) == missing
    assert sum((c["amount"] for c in listed.converted["expense"]), Decimal(0)) == converted_usd

    # The review converts every row into the reader's currency at its day's rate, names what none converts.
    review = review_spending(currencies={owner.id: "VND"}, week_start=WEEK, per_user=3)
    week = [e for e in expected if e["direction"] == "expense" and e["day"] >= WEEK]
    want, week_foreign = _by_category(week, "expense")
    _close(dict(review.categories.get(owner.id, [])), want, week_foreign, "review")
    total = review.weeks.get(owner.id, (Decimal(0),))[0]
    assert abs(total - sum(want.values(), Decimal(0))) <= sum(week_foreign.values()) / Decimal(2)
    week_missing = review.missing.get(owner.id, ([],))[0]
    assert sum((m.amount for m in week_missing), Decimal(0)) == sum(
        (e["raw"] for e in week if e["vnd"] is None), Decimal(0)
    )
