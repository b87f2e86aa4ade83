"""The weekly review's figures: the week against the four before, categories, the biggest rows, the plan, goals,
bills due and insights, in the reader's currency, another currency converted by its day's rate."""

import datetime as dt
from decimal import Decimal

from plans.services import plan_activate, plan_create
from suggestions.batches import user_batches
from suggestions.digest.job import weekly_digest_send
from suggestions.models import RecurringSeries
from tests import factories
from tests.suggestions.digest_week import MONDAY, SUNDAY_9_SAIGON, WEEK, netflix_due, ordinary_month, review, spend
from tests.suggestions.factories import suggestion
from zeus.models import Notification


def test_the_review_holds_the_weeks_figures(alice):
    ordinary_month(alice)
    plan = plan_create(user=alice, month="2026-11", expected_income="20000000", today=MONDAY - dt.timedelta(days=20))
    plan_activate(user=alice, plan_id=plan.id, today=MONDAY - dt.timedelta(days=20))
    netflix_due(alice)
    RecurringSeries.objects.create(
        user=alice, key="rent", direction="expense", merchant="Rent", kind="bill", amount=6_500_000,
        currency="VND", interval="monthly", last_on=dt.date(2026, 11, 10), next_on=dt.date(2026, 12, 10),
        category="housing", occurrences=3,
    )  # fmt: skip
    insight = suggestion(alice, kind="price_change", title="Netflix went up")
    weekly_digest_send(now=SUNDAY_9_SAIGON)
    r = review(alice).payload
    assert (r["week"], r["start"], r["end"], r["currency"]) == (WEEK, "2026-11-23", "2026-11-29", "VND")
    assert r["spent"] == "1500000" and r["average_previous"] == "1000000" and r["change_pct"] == 50
    assert [w["spent"] for w in r["previous_weeks"]] == ["1000000"] * 4
    assert r["top_categories"] == [
        {"category": "shopping", "spent": "1200000"},
        {"category": "dining", "spent": "300000"},
    ]
    assert [b["description"] for b in r["biggest"]] == ["Uniqlo", "Pizza 4P's"]
    assert r["plan"]["state"] in ("on_track", "spend_pace", "overspent", "goal_drift")
    assert isinstance(r["plan"]["streak"], int)
    assert [d["merchant"] for d in r["due_next_week"]] == ["Netflix"]  # 30 Nov - 6 Dec; rent is on the 10th
    assert r["insights"] == [{"kind": "price_change", "title": insight.title, "cta_url": insight.cta_url}]


def test_goal_progress_is_in_the_review(alice):
    from goals.services import goal_create

    goal_create(user=alice, name="Emergency fund", kind="emergency_fund", target_amount="10000000",
                current_amount="2500000", deadline=dt.date(2027, 11, 1))  # fmt: skip
    weekly_digest_send(now=SUNDAY_9_SAIGON)
    (goal,) = review(alice).payload["goals"]
    assert goal["name"] == "Emergency fund" and Decimal(goal["progress_pct"]) == Decimal(25)


def _ledger_review(user) -> dict:
    """The review's spending figures, from the user's ledger read back and added up plainly."""
    from assets.models import Transaction
    from suggestions.digest.compose import iso_week
    from zeus.money import quantize

    currency = user.profile.currency
    sunday = MONDAY + dt.timedelta(days=6)
    weeks, categories, this_week, foreign = [Decimal(0)] * 5, {}, [], [{} for _ in range(5)]
    for t in Transaction.objects.filter(
        user=user, direction="expense", occurred_on__range=(MONDAY - dt.timedelta(days=28), sunday)
    ).order_by("id"):
        k = (sunday - t.occurred_on).days // 7
        if t.currency != currency:  # no rate in this ledger: named apart, never counted at 1:1
            foreign[k][t.currency] = foreign[k].get(t.currency, Decimal(0)) + t.amount
            continue
        weeks[k] += t.amount
        if k == 0:
            categories[t.category] = categories.get(t.category, 0) + t.amount
            this_week.append(t)
    average = sum(weeks[1:]) / 4

    def money(amount):
        return str(quantize(amount, currency))

    def missing(k):
        return [{"currency": c, "amount": str(quantize(v, c))} for c, v in sorted(foreign[k].items())]

    return {
        "spent": money(weeks[0]),
        "converted": [],
        "rate_missing": missing(0),
        "previous_weeks": [
            {"week": iso_week(MONDAY - dt.timedelta(days=7 * k)), "spent": money(weeks[k]), "rate_missing": missing(k)}
            for k in range(1, 5)
        ],
        "average_previous": money(average),
        "change_pct": None if average == 0 else round((weeks[0] - average) * 100 / average),
        "top_categories": [
            {"category": cat, "spent": money(v)} for cat, v in sorted(categories.items(), key=lambda p: (-p[1], p[0]))
        ][:3],
        "biggest": [
            {
                "description": t.description,
                "amount": money(t.amount),
                "currency": currency,
                "category": t.category,
                "occurred_on": t.occurred_on.isoformat(),
                "converted": money(t.amount),
                "rate": "1",
                "rate_date": t.occurred_on.isoformat(),
            }
            for t in sorted(this_week, key=lambda t: (-t.amount, t.id))[:3]
        ],
    }


def test_the_reviews_figures_are_the_ledger_added_up_in_the_users_currency(db):
    """Amounts rounded half up to the currency's unit (đồng with cents, an average of half a cent), rows in
    another currency and income left out, categories of equal totals by name and only the three largest,
    equal expenses oldest first; a user who spent nothing, one who spent only in the weeks before."""
    from suggestions.digest import compose

    vnd, usd, idle, earlier = (factories.user(name, currency=c) for name, c in
                               (("vnd", "VND"), ("usd", "USD"), ("idle", "VND"), ("earlier", "VND")))  # fmt: skip
    wednesday = MONDAY + dt.timedelta(days=2)
    for category, amount in (("groceries", "300000"), ("transport", "300000"), ("shopping", "99999.49"),
                             ("dining", "60000.25"), ("dining", "60000.25"), ("health", "50000")):  # fmt: skip
        spend(vnd, amount, wednesday, category, f"{category} {amount}")
    factories.txn(vnd, amount="500", currency="USD", category="travel", occurred_on=wednesday, description="Hotel")
    factories.txn(vnd, amount="9000000", direction="income", category="salary", occurred_on=wednesday)
    for weeks_before, amount in ((1, "1000000"), (3, "333333.33"), (4, "10")):
        spend(vnd, amount, wednesday - dt.timedelta(days=7 * weeks_before), "groceries", "Co.op Mart")
    spend(usd, "10.00", MONDAY, "dining", "Lunch")
    spend(usd, "0.01", MONDAY + dt.timedelta(days=6), "dining", "Gum")
    spend(usd, "10.02", MONDAY - dt.timedelta(days=1), "dining", "Dinner")
    spend(earlier, "400000", MONDAY - dt.timedelta(days=10), "shopping", "Uniqlo")
    users = [b for batch in user_batches(user_ids=[vnd.id, usd.id, idle.id, earlier.id]) for b in batch]
    reviews = compose.compose(users, start=MONDAY, now=SUNDAY_9_SAIGON)
    for user in (vnd, usd, idle, earlier):
        assert {key: reviews[user.id][key] for key in _ledger_review(user)} == _ledger_review(user)
    assert (reviews[vnd.id]["spent"], reviews[vnd.id]["average_previous"]) == ("870000", "333336")
    assert [t["category"] for t in reviews[vnd.id]["top_categories"]] == ["groceries", "transport", "dining"]
    assert reviews[vnd.id]["top_categories"][2]["spent"] == "120001"
    assert [b["description"] for b in reviews[vnd.id]["biggest"]] == [
        "groceries 300000", "transport 300000", "shopping 99999.49"]  # fmt: skip
    assert (reviews[usd.id]["spent"], reviews[usd.id]["average_previous"], reviews[usd.id]["change_pct"]) == (
        "10.01", "2.51", 300)  # fmt: skip
    assert reviews[vnd.id]["rate_missing"] == [{"currency": "USD", "amount": "500.00"}]  # the hotel: no rate
    assert (reviews[idle.id]["spent"], reviews[idle.id]["change_pct"], reviews[idle.id]["biggest"]) == ("0", None, [])
    assert (reviews[earlier.id]["spent"], reviews[earlier.id]["change_pct"]) == ("0", -100)


def test_the_review_converts_another_currency_at_its_days_rate_and_names_what_no_rate_converts(alice, client):
    ordinary_month(alice)
    factories.rate(MONDAY - dt.timedelta(days=2), "25000")  # Saturday's rate serves Tuesday
    factories.txn(alice, amount="40", currency="USD", category="travel", occurred_on=MONDAY + dt.timedelta(days=1),
                  description="Hotel Hanoi")  # fmt: skip
    factories.txn(alice, amount="12", currency="EUR", category="dining", occurred_on=MONDAY + dt.timedelta(days=2),
                  description="Crêpe")  # fmt: skip
    weekly_digest_send(now=SUNDAY_9_SAIGON)
    r = review(alice).payload
    assert r["spent"] == "2500000"  # 1,500,000 ₫ and 40 $ at 25,000; the euros never at 1:1
    assert r["converted"] == [
        {"currency": "USD", "amount": "40.00", "to_currency": "VND", "converted": "1000000", "rate": "25000",
         "rate_date": "2026-11-21"}
    ]  # fmt: skip
    assert r["rate_missing"] == [{"currency": "EUR", "amount": "12.00"}]
    assert r["top_categories"][0] == {"category": "shopping", "spent": "1200000"}
    assert {"category": "travel", "spent": "1000000"} in r["top_categories"]
    hotel = next(b for b in r["biggest"] if b["description"] == "Hotel Hanoi")
    assert (hotel["amount"], hotel["currency"], hotel["converted"], hotel["rate"]) == (
        "40.00",
        "USD",
        "1000000",
        "25000",
    )
    note = Notification.objects.get(user=alice, kind="weekly_digest")
    assert "Rate missing: €12.00 not counted" in note.body
    # The page, in Vietnamese: the rate beside the dollars, the euros named as missing.
    from zeus.services import profile_update

    profile_update(user=alice, language="vi")
    client.force_login(alice)
    html = client.get(f"/digest/{WEEK}").content.decode()
    assert "theo tỷ giá 25.000 VND/USD" in html and "Thiếu tỷ giá: 12,00" in html


def test_the_weeks_are_summed_in_the_readers_currency_and_converted_by_day_in_another(db):
    """The five weeks' sums (one GROUP BY, conditional per week) hold each week's rows from its Monday to its
    Sunday and nothing outside the five; a row in another currency is converted at its own day's rate into the
    week it falls in, whichever currency the other users of the batch read in."""
    from suggestions.digest.reads import review_spending

    vnd, usd = factories.user("vnd"), factories.user("usd", currency="USD")
    for days, amount in ((-29, "1"), (-28, "10"), (-22, "20"), (-21, "30"), (-1, "40"), (0, "50"), (6, "60"),
                         (7, "70")):  # fmt: skip
        spend(vnd, amount, MONDAY + dt.timedelta(days=days), "groceries", f"Shop {days}")
    spend(vnd, "5", MONDAY + dt.timedelta(days=6), "dining", "Tea")
    factories.rate(MONDAY - dt.timedelta(days=9), "25000")
    factories.txn(vnd, amount="2", currency="USD", category="travel", occurred_on=MONDAY - dt.timedelta(days=8))
    spend(usd, "3.50", MONDAY - dt.timedelta(days=15), "dining", "Lunch")
    factories.txn(usd, amount="100000", currency="VND", category="dining", occurred_on=MONDAY + dt.timedelta(days=1))
    spent = review_spending(currencies={vnd.id: "VND", usd.id: "USD"}, week_start=MONDAY, per_user=3)
    assert spent.weeks[vnd.id] == (Decimal(115), Decimal(40), Decimal(50_000), Decimal(30), Decimal(30))
    assert dict(spent.categories[vnd.id]) == {"groceries": Decimal(110), "dining": Decimal(5)}
    assert spent.weeks[usd.id] == (Decimal(4), Decimal(0), Decimal(0), Decimal("3.50"), Decimal(0))
    assert dict(spent.categories[usd.id]) == {"dining": Decimal(4)}
    assert [c.converted for c in spent.converted[usd.id]] == [Decimal(4)]
    assert spent.missing[vnd.id] == ([], [], [], [], [])
