"""The home's budget and goal rows (their text made in Python, goals/home.py) are byte for byte what the
pages' own row templates (goals/budget_bar.html, goals/goal_progress.html) render, in both languages and in
every branch: over and under a limit, achieved, on track and behind, names that need escaping."""

import datetime as dt
from decimal import Decimal

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.utils import translation

from goals.home import budget_row_text, goal_row_text
from goals.models import Budget, Goal
from goals.pages import goal_rows

# The home's panels as they were, an include per row: what the new templates must equal.
OLD_BUDGETS = """{% load i18n %}<h2 id="budgets-title">{% translate "Budgets" %}</h2>
{% if rows %}{% for row in rows %}{% include "goals/budget_bar.html" %}{% endfor %}
{% if more %}<p class="muted">{% blocktranslate count n=more %}and {{ n }} more{% plural %}and {{ n }} more{% endblocktranslate %}</p>{% endif %}
{% else %}<p class="muted">{% translate "No budgets yet." %}</p>{% endif %}
<p class="card-links"><a href="/budgets">{% translate "All budgets" %}</a> <a href="/chat?prompt={{ prompt|urlencode }}">{% translate "Ask Zeus" %}</a></p>
"""  # noqa: E501
OLD_GOALS = """{% load i18n %}<h2 id="goals-title">{% translate "Goals" %}</h2>
{% if rows %}{% for row in rows %}{% include "goals/goal_progress.html" %}{% endfor %}
{% else %}<p class="muted">{% translate "No goals yet." %}</p>{% endif %}
<p class="card-links"><a href="/goals">{% translate "All goals" %}</a> <a href="/chat?prompt={{ prompt|urlencode }}">{% translate "Ask Zeus" %}</a></p>
"""  # noqa: E501

TODAY = dt.date(2026, 6, 15)


# A budget's spending partly converted from dollars, and partly in euros no rate converts.
CONVERTED = ({"currency": "USD", "amount": Decimal("12.50"), "to_currency": "VND", "converted": Decimal("325000"),
              "rate": Decimal("26000"), "rate_date": dt.date(2026, 6, 2)},)  # fmt: skip
RATE_MISSING = ({"currency": "EUR", "amount": Decimal("30.00")},)


def _budget_rows():
    rows = []
    for category, amount, spent, currency, converted, missing in [
        ("dining", "2000000", "2500000", "VND", CONVERTED, RATE_MISSING),  # over
        ("groceries", "6000000", "5000000", "VND", (), RATE_MISSING),  # warn
        ("travel", "4000000", "0", "VND", CONVERTED, ()),  # good
        ("<b>&\"'", "120.50", "12.25", "USD", (), ()),  # a code with no label: escaped; cents
        ("health", "1000", "25000", "VND", (), ()),  # 2500 % used
    ]:
        budget = Budget(category=category, amount=Decimal(amount), currency=currency)
        spent = Decimal(spent)
        remaining = budget.amount - spent
        pct = int(min(100, spent * 100 / budget.amount))
        rows.append(
            {
                "budget": budget,
                "label": category if category.startswith("<") else category.title(),
                "spent": spent,
                "remaining": remaining,
                "pct": pct,
                "used_pct": int(spent * 100 / budget.amount),
                "state": "over" if remaining < 0 else "warn" if pct >= 80 else "good",
                "converted": converted,
                "rate_missing": missing,
            }
        )
    return rows


def _goals():
    started = dt.date(2025, 6, 1)
    return [
        Goal(name="Trip to Đà Lạt", kind="travel", target_amount=Decimal("10000000"), current_amount=Decimal("9000000"),
             currency="VND", deadline=dt.date(2026, 12, 1), started_on=started, status="active"),
        Goal(name="<i>&\"'", kind="saving", target_amount=Decimal("1000000000"), current_amount=Decimal("1234567"),
             currency="VND", deadline=dt.date(2027, 1, 1), started_on=started, status="active"),
        Goal(name="Car", kind="car", target_amount=Decimal("300.00"), current_amount=Decimal("300.00"),
             currency="USD", deadline=dt.date(2027, 1, 1), started_on=started, status="achieved"),
        Goal(name="House", kind="house", target_amount=Decimal("3000000"), current_amount=Decimal("1000"),
             currency="VND", deadline=dt.date(2030, 1, 1), started_on=started, status="active"),
    ]  # fmt: skip


@pytest.mark.parametrize("language", ["vi", "en"])
def test_the_homes_budget_rows_render_as_the_budget_bar_does(language):
    rows = _budget_rows()
    old = engines["django"].from_string(OLD_BUDGETS)
    with translation.override(language):
        expected = old.render({"rows": rows, "more": 2, "prompt": "p"})
        got = render_to_string(
            "goals/home/budgets.html", {"rows": [budget_row_text(r) for r in rows], "more": 2, "prompt": "p"}
        )
    assert got == expected
    assert "&lt;b&gt;&amp;" in got
    assert got.count('class="converted"') == 2 and got.count('class="rate-missing"') == 2


@pytest.mark.parametrize("language", ["vi", "en"])
def test_the_homes_goal_rows_render_as_goal_progress_does(language):
    rows = goal_rows(_goals(), today=TODAY)
    assert {r["achieved"] for r in rows} == {True, False}
    assert {r["progress"].on_track for r in rows if not r["achieved"]} == {True, False}
    old = engines["django"].from_string(OLD_GOALS)
    with translation.override(language):
        expected = old.render({"rows": rows, "prompt": "p"})
        got = render_to_string("goals/home/goals.html", {"rows": [goal_row_text(r) for r in rows], "prompt": "p"})
    assert got == expected
    assert "&lt;i&gt;&amp;" in got
