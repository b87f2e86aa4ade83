"""The weekly review: once per user and ISO week, on Sunday from 09:00 in their timezone; its figures; the
inbox, the live push and the mail; the command; the /digest page."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from plans.services import plan_activate, plan_create
from suggestions.batches import user_batches
from suggestions.digest.job import weekly_digest_send
from suggestions.models import RecurringSeries, WeeklyDigest
from tests import factories
from tests.race import at_once
from tests.suggestions.factories import suggestion
from zeus.models import Notification

SUNDAY_9_SAIGON = dt.datetime(2026, 11, 29, 2, 0, tzinfo=dt.UTC)  # 09:00 in Asia/Ho_Chi_Minh
WEEK = "2026-W48"  # Monday 23 to Sunday 29 November 2026
MONDAY = dt.date(2026, 11, 23)


def spend(user, amount, on, category="dining", description="Pho 24"):
    return factories.txn(user, amount=amount, occurred_on=on, category=category, description=description)


def ordinary_month(user):
    """Four weeks at 1,000,000 a week, then a week of 1,500,000 with a big purchase."""
    for k in range(1, 5):
        spend(user, 1_000_000, MONDAY - dt.timedelta(days=7 * k - 2), "groceries", "Co.op Mart")
    spend(user, 300_000, MONDAY + dt.timedelta(days=1), "dining", "Pizza 4P's")
    spend(user, 1_200_000, MONDAY + dt.timedelta(days=3), "shopping", "Uniqlo")
    spend(user, 999_000, MONDAY + dt.timedelta(days=7), "shopping", "Next week")  # not this week


def netflix_due(user) -> RecurringSeries:
    """A monthly Netflix bill next due on 2 December: the review's bills due this week."""
    return RecurringSeries.objects.create(
        user=user, key="netflix", direction="expense", merchant="Netflix", kind="subscription",
        amount=260_000, currency="VND", interval="monthly", last_on=dt.date(2026, 11, 2),
        next_on=dt.date(2026, 12, 2), category="subscriptions", occurrences=3,
    )  # fmt: skip


def review(user) -> WeeklyDigest:
    return WeeklyDigest.objects.get(user=user, iso_week=WEEK)


def test_it_is_sent_on_sunday_from_nine_in_the_users_timezone_once(alice):
    ordinary_month(alice)
    assert weekly_digest_send(now=SUNDAY_9_SAIGON - dt.timedelta(minutes=1)) == 0
    assert weekly_digest_send(now=SUNDAY_9_SAIGON - dt.timedelta(days=1)) == 0
    assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 1
    assert weekly_digest_send(now=SUNDAY_9_SAIGON + dt.timedelta(hours=1)) == 0
    (note,) = Notification.objects.filter(user=alice, kind="weekly_digest")
    assert note.cta_url == f"/digest/{WEEK}"
    assert note.title == "Week 48: ₫1,500,000 spent"  # money in the reader's locale (CLDR)
    assert "50% more than your average" in note.body


def test_each_timezone_gets_it_at_its_own_nine(alice, bob):
    factories.user("paris", timezone="Europe/Paris")
    assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 2  # alice and bob, Saigon
    paris_nine = dt.datetime(2026, 11, 29, 8, 0, tzinfo=dt.UTC)
    assert weekly_digest_send(now=paris_nine - dt.timedelta(hours=1)) == 0
    assert weekly_digest_send(now=paris_nine) == 1
    assert WeeklyDigest.objects.filter(iso_week=WEEK).count() == 3


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


def test_it_is_pushed_live_and_mailed_to_those_who_opted_in(alice, bob, settings, django_capture_on_commit_callbacks):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from tests.mail import SMTPServer, use_smtp
    from zeus.live import user_group
    from zeus.services import profile_update

    server = SMTPServer().start()
    use_smtp(settings, server.port)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(alice.id), channel)
    try:
        for user, wants in ((alice, True), (bob, False)):
            user.email = f"{user.username}@example.com"
            user.save(update_fields=["email"])
            profile_update(user=user, email_notifications={"weekly_digest": wants})
        ordinary_month(alice)
        with django_capture_on_commit_callbacks(execute=True):
            assert weekly_digest_send(now=SUNDAY_9_SAIGON) == 2
        message = async_to_sync(layer.receive)(channel)
        assert message["notification"]["kind"] == "weekly_digest"
        (mail,) = server.messages
        assert mail["To"] == "alice@example.com"
        assert mail["Subject"].strip().startswith("Week 48: ")
        assert "/digest/2026-W48" in mail.get_body(("plain",)).get_content()
    finally:
        async_to_sync(layer.group_discard)(user_group(alice.id), channel)
        server.stop()


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_one_review():
    users = [factories.user(f"w{k}") for k in range(5)]

    def worker():
        return weekly_digest_send(now=SUNDAY_9_SAIGON)

    results = at_once(worker, worker)
    assert sum(results) == 5
    assert Notification.objects.filter(kind="weekly_digest").count() == 5
    assert WeeklyDigest.objects.count() == len(users)


def _queries(n, prefix):
    """The queries of one batch's send, every user with each part of a review: a goal, a bill due next week,
    an insight, a row in another currency that no rate converts, half of them in English and mailed."""
    from goals.services import goal_create
    from zeus.services import profile_update

    users = [factories.user(f"{prefix}{k}", language=("vi", "en")[k % 2]) for k in range(n)]
    for k, user in enumerate(users):
        ordinary_month(user)
        factories.txn(user, amount="40", currency="USD", occurred_on=MONDAY + dt.timedelta(days=2))
        goal_create(user=user, name=f"Fund {k}", kind="emergency_fund", target_amount="10000000",
                    current_amount="2500000", deadline=dt.date(2027, 11, 1))  # fmt: skip
        netflix_due(user)
        suggestion(user, kind="price_change", title="Netflix went up")
        if k % 2:
            user.email = f"{user.username}@example.com"
            user.save(update_fields=["email"])
            profile_update(user=user, email_notifications={"weekly_digest": True})
    with CaptureQueriesContext(connection) as ctx:
        assert weekly_digest_send(user_ids=[u.id for u in users], now=SUNDAY_9_SAIGON) == n
    assert all(review(u).payload["rate_missing"] for u in users)
    assert all(review(u).payload["goals"] and review(u).payload["due_next_week"] for u in users)
    return len(ctx)


def test_queries_per_batch_do_not_grow_with_users(db):
    assert _queries(2, "a") == _queries(9, "b")


def test_the_command_runs_one_user_at_an_instant(alice, bob):
    call_command("send_weekly_digest", "--user", "alice", "--now", "2026-11-29T09:30:00+07:00")
    assert WeeklyDigest.objects.filter(user=alice).exists() and not WeeklyDigest.objects.filter(user=bob).exists()
    with pytest.raises(CommandError):
        call_command("send_weekly_digest", "--now", "2026-11-29T09:30:00")
    with pytest.raises(CommandError):
        call_command("send_weekly_digest", "--now", "sunday")


# The page


def test_the_page_shows_the_review_with_a_chart_and_its_table(alice, client):
    ordinary_month(alice)
    weekly_digest_send(now=SUNDAY_9_SAIGON)
    client.force_login(alice)
    page = client.get(f"/digest/{WEEK}")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-chart="digest-weeks-data"' in html and 'id="digest-weeks-data" type="application/json"' in html
    assert "<table" in html and '<th scope="row">Week 44</th>' in html and "Uniqlo" in html
    assert "<script>" not in html  # no inline script: the chart reads its JSON
    assert client.get(f"/digest/{WEEK}/").status_code == 200


def test_a_week_not_sent_is_composed_on_the_page_and_the_future_is_404(alice, client):
    ordinary_month(alice)
    client.force_login(alice)
    assert client.get("/digest/2026-W40").status_code == 200
    assert not WeeklyDigest.objects.exists()
    assert client.get("/digest/2031-W10").status_code == 404
    assert client.get("/digest/2026-W60").status_code == 404


def test_the_page_shows_only_the_users_own_review(alice, bob, client):
    spend(alice, 777_000, MONDAY, "shopping", "Alice's secret")
    weekly_digest_send(now=SUNDAY_9_SAIGON)
    client.force_login(bob)
    assert "Alice&#x27;s secret" not in client.get(f"/digest/{WEEK}").content.decode()
    assert "Alice" not in client.get(f"/digest/{WEEK}").content.decode()


def test_the_page_needs_a_login(client):
    assert client.get(f"/digest/{WEEK}").status_code == 302


def test_a_batchs_inbox_texts_are_the_per_user_path_s_word_for_word(db):
    """The batch writes the titles and bodies through digest.texts (one override per language, each
    sentence looked up once): the stored reviews and the inbox rows must be what the previous path wrote,
    one translation.override and digest.title/body per user, in Vietnamese and in English alike."""
    from django.utils import translation

    from goals.services import goal_create
    from suggestions.digest import compose, texts

    users = [factories.user(f"t{k}", language=("vi", "en")[k % 2]) for k in range(6)]
    for k, user in enumerate(users):
        if k != 5:
            ordinary_month(user)  # the last one spent nothing: the shortest body
        if k % 3 == 0:
            goal_create(user=user, name=f"Fund {k}", kind="emergency_fund", target_amount="10000000",
                        current_amount="2500000", deadline=dt.date(2027, 11, 1))  # fmt: skip
        if k in (1, 2):
            netflix_due(user)
            suggestion(user, kind="price_change", title="Netflix went up")
    plan = plan_create(user=users[1], month="2026-11", expected_income="20000000", today=MONDAY)
    plan_activate(user=users[1], plan_id=plan.id, today=MONDAY)
    assert weekly_digest_send(user_ids=[u.id for u in users], now=SUNDAY_9_SAIGON) == len(users)
    for user in users:
        payload = review(user).payload
        assert (
            payload
            == compose.compose(
                [b for batch in user_batches(user_ids=[user.id]) for b in batch],
                start=MONDAY,
                now=SUNDAY_9_SAIGON,
            )[user.id]
        )
        (note,) = Notification.objects.filter(user=user, kind="weekly_digest")
        with translation.override(user.profile.language):
            assert (note.title, note.body) == (texts.title(payload)[:200], texts.body(payload))
    vi, en = (Notification.objects.get(user=users[k], kind="weekly_digest") for k in (0, 1))
    assert en.title == "Week 48: ₫1,500,000 spent"
    assert vi.title == "Tuần 48: đã chi 1.500.000\xa0₫"  # in Vietnamese


def _compose_queries(users) -> tuple[dict, int]:
    from suggestions.digest import compose

    batch = [b for part in user_batches(user_ids=[u.id for u in users]) for b in part]
    with CaptureQueriesContext(connection) as queries:
        reviews = compose.compose(batch, start=MONDAY, now=SUNDAY_9_SAIGON)
    return reviews, len(queries)


def test_a_batch_s_reads_do_not_grow_with_its_users_or_their_plans(db):
    few = [factories.user(f"f{k}") for k in range(2)]
    many = [factories.user(f"m{k}") for k in range(7)]
    for user in few + many:
        ordinary_month(user)
    _, nobody_plans = _compose_queries(few)
    assert _compose_queries(many)[1] == nobody_plans
    for user in many[:3]:
        plan = plan_create(user=user, month="2026-11", expected_income="20000000", today=MONDAY - dt.timedelta(days=20))
        plan_activate(user=user, plan_id=plan.id, today=MONDAY - dt.timedelta(days=20))
    plan = plan_create(user=few[0], month="2026-11", expected_income="20000000", today=MONDAY - dt.timedelta(days=20))
    plan_activate(user=few[0], plan_id=plan.id, today=MONDAY - dt.timedelta(days=20))
    reviews, with_plans = _compose_queries(many)
    assert _compose_queries(few)[1] == with_plans
    assert reviews[many[0].id]["plan"]["currency"] == "VND" and reviews[many[5].id]["plan"] is None
    assert reviews[many[5].id]["spent"] == "1500000"


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


def test_the_weeks_before_are_read_as_one_group_per_user_not_one_per_category(db):
    """The spending read groups the week itself by category and the four weeks before, in the user's own
    currency, as one group per user (they are shown as totals only); a row in another currency keeps its day."""
    from suggestions.digest.reads import review_spending

    vnd = factories.user("vnd")
    for days, category in ((-3, "groceries"), (-10, "transport"), (-17, "shopping"), (-24, "health")):
        spend(vnd, "100", MONDAY + dt.timedelta(days=days), category, category)
    spend(vnd, "7", MONDAY + dt.timedelta(days=1), "dining", "Tea")
    spend(vnd, "8", MONDAY + dt.timedelta(days=2), "groceries", "Rice")
    factories.rate(MONDAY - dt.timedelta(days=9), "25000")
    factories.txn(vnd, amount="2", currency="USD", category="travel", occurred_on=MONDAY - dt.timedelta(days=8))
    with CaptureQueriesContext(connection) as queries:
        spent = review_spending(currencies={vnd.id: "VND"}, week_start=MONDAY, per_user=3)
    assert spent.weeks[vnd.id] == (Decimal(15), Decimal(100), Decimal(50_100), Decimal(100), Decimal(100))
    assert dict(spent.categories[vnd.id]) == {"dining": Decimal(7), "groceries": Decimal(8)}
    (grouped,) = [q["sql"] for q in queries.captured_queries if "week_category" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute(grouped)
        rows = cursor.fetchall()
    # This week's two categories, the four weeks before as one group, the dollars on their day.
    assert sorted((category or "", day is not None) for _uid, category, _cur, day, *_sums in rows) == [
        ("", False),
        ("dining", False),
        ("groceries", False),
        ("travel", True),
    ]
