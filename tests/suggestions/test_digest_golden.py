"""The weekly review as sent, byte for byte, on a fixed set of users: what the job stored, the inbox rows it
wrote and the reviews composed for every user (one in a timezone where the week is not over). The golden file
was written by the review's code before its reads and words were restructured for speed; any restructuring must
leave every byte the same. Regenerate it only for a change meant to alter the review: ZEUS_GOLDEN_WRITE=1."""

import datetime as dt
import json
import os
from decimal import Decimal
from pathlib import Path

from assets.models import Transaction, TransactionSplit
from goals.services import goal_create
from plans.services import plan_activate, plan_create
from suggestions.batches import user_batches
from suggestions.digest import compose
from suggestions.digest.job import weekly_digest_send
from suggestions.models import RecurringSeries, WeeklyDigest
from tests import factories
from tests.suggestions.factories import suggestion
from zeus.models import Notification

GOLDEN = Path(__file__).parent / "golden" / "weekly_review.json"
SUNDAY_9_SAIGON = dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC)
MONDAY = dt.date(2026, 11, 23)


def _spend(user, amount, days, category, description, currency=None):
    return factories.txn(user, amount=amount, occurred_on=MONDAY + dt.timedelta(days=days), category=category,
                         description=description, currency=currency)  # fmt: skip


def _people() -> list:
    """Users who between them meet every branch of the review: two languages, three currencies, a timezone
    still on Saturday, ties in categories and in expenses, a split, an excluded row, income, rates found and
    missing, goals, bills due, insights, a plan, and someone who spent nothing."""
    people = [
        factories.user("vi_vnd", language="vi"),
        factories.user("en_vnd", language="en"),
        factories.user("en_usd", currency="USD", language="en"),
        factories.user("vi_usd", currency="USD", language="vi"),
        factories.user("idle", language="vi"),
        factories.user("west", timezone="America/Los_Angeles", language="en"),
    ]
    factories.rate(MONDAY - dt.timedelta(days=2), "25000")
    factories.rate(MONDAY + dt.timedelta(days=3), "25500")
    for n, user in enumerate(people[:4] + people[5:]):
        usd = user.profile.currency == "USD"
        scale = (lambda v: f"{v / 25000:.2f}") if usd else (lambda v: str(v))
        for k in range(1, 5):
            _spend(user, scale(900_000 + 37_000 * k * (n + 1)), 2 - 7 * k, "groceries", "Co.op Mart")
            _spend(user, scale(120_000 + k), 4 - 7 * k, "dining", "Pho 24")
        _spend(user, scale(300_000), 1, "dining", "Pizza 4P's")
        _spend(user, scale(300_000), 2, "transport", "Grab")  # ties with the pizza, by name and by id
        _spend(user, scale(1_200_000 + n), 3, "shopping", "Uniqlo")
        _spend(user, scale(999_000), 7, "shopping", "Next week")
        _spend(user, scale(33_333), 6, "health", "Pharmacity")
        whole = _spend(user, scale(800_000), 2, "groceries", "Big C")
        half = Transaction.objects.get(pk=whole.pk).amount / 2
        TransactionSplit.objects.create(transaction=whole, amount=half, category="groceries", position=0)
        TransactionSplit.objects.create(transaction=whole, amount=half, category="gifts", position=1)
        left_out = _spend(user, scale(5_000_000), 4, "travel", "Reimbursed")
        Transaction.objects.filter(pk=left_out.pk).update(excluded=True)
        factories.txn(user, amount=scale(25_000_000), direction="income", category="salary",
                      occurred_on=MONDAY + dt.timedelta(days=4))  # fmt: skip
        if not usd:
            _spend(user, "40", 1, "travel", "Hotel Hanoi", currency="USD")
            _spend(user, "12", 2, "dining", "Crêpe", currency="EUR")  # no rate
            _spend(user, "3.50", -10, "dining", "Bagel", currency="USD")
        else:
            _spend(user, "150000", 5, "dining", "Bún chả", currency="VND")
        if n % 2 == 0:
            goal_create(user=user, name=f"Fund {n}", kind="emergency_fund", target_amount=scale(10_000_000),
                        current_amount=scale(2_500_000), deadline=dt.date(2027, 11, 1))  # fmt: skip
            goal_create(user=user, name=f"House {n}", kind="house", target_amount=scale(900_000_000),
                        current_amount=scale(1_000_000), deadline=dt.date(2036, 1, 1))  # fmt: skip
        RecurringSeries.objects.create(
            user=user, key="netflix", direction="expense", merchant="Netflix", kind="subscription",
            amount=scale(260_000), currency=user.profile.currency, interval="monthly",
            last_on=dt.date(2026, 11, 2), next_on=dt.date(2026, 12, 2), category="subscriptions", occurrences=3,
        )  # fmt: skip
        if n in (1, 2):
            suggestion(user, kind="price_change", title=f"Netflix went up {n}")
        if n == 0:
            plan = plan_create(user=user, month="2026-11", expected_income="20000000", today=MONDAY)
            plan_activate(user=user, plan_id=plan.id, today=MONDAY)
    return people


def _named(review: dict, names: dict) -> dict:
    """The review with the database ids it holds replaced by what they name (ids depend on the test order)."""
    out = json.loads(json.dumps(review))
    for item in out.get("goals") or []:
        item["id"] = names[("goal", item["id"])]
    for item in out.get("due_next_week") or []:
        item["id"] = names[("series", item["id"])]
    return out


def test_the_reviews_sent_are_byte_for_byte_those_of_the_golden_file(db):
    from goals.models import Goal

    people = _people()
    names = {("goal", g.id): g.name for g in Goal.objects.all()}
    names |= {("series", s.id): f"{s.user.username}:{s.merchant}" for s in RecurringSeries.objects.all()}
    ids = [u.id for u in people]
    composed = {
        u.id: review
        for batch in user_batches(user_ids=ids)
        for u in batch
        for uid, review in compose.compose([u], start=MONDAY, now=SUNDAY_9_SAIGON).items()
    }
    batch = [u for part in user_batches(user_ids=ids) for u in part]
    assert compose.compose(batch, start=MONDAY, now=SUNDAY_9_SAIGON) == composed  # a batch reads as each alone
    assert weekly_digest_send(user_ids=ids, now=SUNDAY_9_SAIGON) == len(people) - 1  # the west: Saturday
    result = {}
    for user in people:
        stored = WeeklyDigest.objects.filter(user=user).first()
        notes = Notification.objects.filter(user=user, kind="weekly_digest")
        result[user.username] = {
            "composed": _named(composed[user.id], names),
            "stored": None if stored is None else _named(stored.payload, names),
            "inbox": [
                {
                    "title": n.title,
                    "body": n.body,
                    "cta_url": n.cta_url,
                    "dedupe_key": n.dedupe_key,
                    "facts": {"review": _named(n.facts["review"], names)},
                }
                for n in notes
            ],
        }
    text = json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if os.environ.get("ZEUS_GOLDEN_WRITE"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()


def test_the_largest_expenses_are_ranked_whole_whatever_the_database_leaves_out(db):
    """The database keeps only the first three of a user's week in their own currency (equal amounts by the
    order they were recorded) and every row in another currency, which the rate ranks: a user reading in USD
    whose VND rows outrank dollars once converted, beside one reading in VND in the same batch."""
    from suggestions.digest.reads import review_spending

    vnd, usd = factories.user("vnd"), factories.user("usd", currency="USD")
    factories.rate(MONDAY, "25000")
    for k in range(5):
        _spend(vnd, "300000", k, "dining", f"Tie {k}")
        _spend(usd, "10.00", k, "dining", f"Lunch {k}")
    _spend(vnd, "10", 6, "travel", "Taxi", currency="USD")  # 250,000 ₫: below the ties
    _spend(usd, "500000", 6, "travel", "Hotel", currency="VND")  # 20.00 $
    _spend(usd, "250000", 5, "travel", "Bus", currency="VND")  # 10.00 $: ties with the lunches, its amount larger
    spent = review_spending(currencies={vnd.id: "VND", usd.id: "USD"}, week_start=MONDAY, per_user=3)
    assert [b.description for b in spent.biggest[vnd.id]] == ["Tie 0", "Tie 1", "Tie 2"]
    assert [b.description for b in spent.biggest[usd.id]] == ["Hotel", "Bus", "Lunch 0"]
    assert spent.biggest[usd.id][0].conversion.converted == Decimal("20.00")
