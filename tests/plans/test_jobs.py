"""The reminder and month-end jobs: who is due, once only, in bounded batches, and the command twin."""

import datetime as dt
import zoneinfo
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from assets import categories
from assets.models import Transaction
from plans import jobs
from plans.models import MonthlyPlan, ReminderLog
from plans.reminders import reminder_due
from plans.selectors import Ledger, plan_detail, plan_ledger, plan_ledgers
from tests import factories
from tests.plans import factories as plan_factories
from zeus.models import Notification
from zeus.money import to_minor

pytestmark = pytest.mark.django_db

UTC = dt.UTC


def _user_with_plan(name, tz, *, reminder_time="20:00", month="2026-11", **extra):
    owner = factories.user(name, timezone=tz)
    plan = plan_factories.plan(owner, month=month, active=True, reminder_time=reminder_time, **extra)
    return owner, plan


def test_a_reminder_goes_out_in_the_window_and_once_per_local_date(clock):
    owner, plan = _user_with_plan("hanoi", "Asia/Ho_Chi_Minh")
    at = dt.datetime(2026, 11, 10, 12, 59, tzinfo=UTC)  # 19:59 in Saigon
    assert jobs.reminders_send_due(now=at).reminders == 0
    at = dt.datetime(2026, 11, 10, 13, 0, tzinfo=UTC)  # 20:00
    assert jobs.reminders_send_due(now=at).reminders == 1
    assert jobs.reminders_send_due(now=at + dt.timedelta(hours=1)).reminders == 0
    assert jobs.reminders_send_due(now=at + dt.timedelta(hours=24)).reminders == 1
    notes = Notification.objects.filter(user=owner, kind="plan_reminder")
    assert notes.count() == 2
    first = notes.order_by("id").first()
    assert (first.title, first.cta_url) == ("Your plan: today's check-in", f"/plans#plan-{plan.id}")
    assert first.dedupe_key == f"plan_reminder:{plan.id}:2026-11-10"
    assert first.read_at is None
    assert list(ReminderLog.objects.filter(plan=plan).values_list("local_date", flat=True).order_by("local_date")) == [
        dt.date(2026, 11, 10),
        dt.date(2026, 11, 11),
    ]


def test_reminders_follow_each_users_clock_east_and_west_of_utc(clock):
    names = {
        "saigon": "Asia/Ho_Chi_Minh",
        "tokyo": "Asia/Tokyo",
        "london": "Europe/London",
        "chicago": "America/Chicago",
        "honolulu": "Pacific/Honolulu",
        "kathmandu": "Asia/Kathmandu",
    }
    times = ["00:00", "01:15", "06:30", "07:45", "12:00", "19:00", "20:00", "21:30", "22:30", "23:45"]
    plans = []
    for name, tz in names.items():
        for index, time in enumerate(times):
            plans.append(_user_with_plan(f"{name}{index}", tz, reminder_time=time)[1])
    for instant in ["2026-11-10T13:00:00+00:00", "2026-11-10T17:20:00+00:00", "2026-11-11T00:10:00+00:00"]:
        now = dt.datetime.fromisoformat(instant)
        expected = set()
        for plan in plans:
            local_now = now.astimezone(zoneinfo.ZoneInfo(plan.user.profile.timezone))
            day = reminder_due(
                enabled=True,
                active=True,
                first=plan.month,
                local_now=local_now,
                reminder_time=plan.reminder_time,
                sent_dates=plan.reminder_logs.values_list("local_date", flat=True),
            )
            if day is not None:
                expected.add((plan.id, day))
        before = set(ReminderLog.objects.values_list("plan_id", "local_date"))
        jobs.reminders_send_due(now=now, batch_size=4)
        sent = set(ReminderLog.objects.values_list("plan_id", "local_date")) - before
        assert sent == expected, instant
        assert expected, instant


def test_a_late_reminder_window_runs_past_midnight_for_the_day_it_started(clock):
    _owner, plan = _user_with_plan("owl", "Asia/Ho_Chi_Minh", reminder_time="22:30")
    # 00:30 on 1 December in Saigon: 30 November's window, the November plan's last day.
    assert jobs.reminders_send_due(now=dt.datetime(2026, 11, 30, 17, 30, tzinfo=UTC)).reminders == 1
    assert ReminderLog.objects.get(plan=plan).local_date == dt.date(2026, 11, 30)


def test_no_reminder_for_drafts_disabled_reminders_or_another_month(clock):
    owner = factories.user("quiet")
    plan_factories.plan(owner, reminder_time="20:00")
    plan_factories.plan(owner, month="2026-12", active=True, reminder_time="20:00")
    other = factories.user("muted")
    plan_factories.plan(other, active=True, reminder_time="20:00", reminders_enabled=False)
    assert jobs.reminders_send_due(now=dt.datetime(2026, 11, 10, 13, 30, tzinfo=UTC)).reminders == 0


def test_reminders_take_a_constant_number_of_queries_per_batch(clock):
    for index in range(24):
        _user_with_plan(f"u{index}", "Asia/Ho_Chi_Minh", reminder_time="20:00")
    at = dt.datetime(2026, 11, 10, 13, 30, tzinfo=UTC)
    with CaptureQueriesContext(connection) as queries:
        result = jobs.reminders_send_due(now=at, batch_size=5)
    assert (result.reminders, result.batches) == (24, 5)
    # Per batch: select (the plans with their readers' clocks and languages), savepoint, claim (one statement
    # returning the claims won), insert inbox, the batch's mail preferences, release (the last batch is short:
    # no select after it).
    assert len(queries) == 6 * result.batches
    assert Notification.objects.filter(kind="plan_reminder").count() == 24


def test_a_reminder_batch_costs_the_same_queries_whoever_of_its_readers_is_online(clock):
    """The live push after commit renders in the languages read with the plans: no query of its own, whether
    nobody, someone or (a layer that cannot tell) everybody is online."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.test import TestCase

    from zeus.live import user_group

    owners = [_user_with_plan(f"o{index}", "Asia/Ho_Chi_Minh")[0] for index in range(4)]
    owners[0].profile.language = "en"
    owners[0].profile.save(update_fields=["language"])
    layer = get_channel_layer()
    at = dt.datetime(2026, 11, 10, 13, 30, tzinfo=UTC)

    def pass_on(day: int) -> tuple[int, int]:
        # The callbacks run as their context closes: inside the count.
        with CaptureQueriesContext(connection) as queries, TestCase.captureOnCommitCallbacks(execute=True):
            result = jobs.reminders_send_due(now=at + dt.timedelta(days=day), batch_size=2)
        return len(queries), result.reminders

    nobody = pass_on(0)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(owners[0].id), channel)
    someone = pass_on(1)
    message = async_to_sync(layer.receive)(channel)
    async_to_sync(layer.group_discard)(user_group(owners[0].id), channel)
    # Per batch of two: select, savepoint, claim, insert inbox, mail preferences, release; then the select
    # that finds no more plans (the last batch was full).
    assert nobody == someone == (6 * 2 + 1, 4)
    assert message["notification"]["title"] == "Your plan: today's check-in"  # in the reader's language


def test_a_reminder_is_pushed_live_to_the_users_sockets(clock):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from zeus.live import user_group

    owner, _ = _user_with_plan("live", "Asia/Ho_Chi_Minh")
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(owner.id), channel)
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        jobs.reminders_send_due(now=dt.datetime(2026, 11, 10, 13, 30, tzinfo=UTC))
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "notification.push"
    assert message["notification"]["kind"] == "plan_reminder"
    async_to_sync(layer.group_discard)(user_group(owner.id), channel)


def test_plans_are_finalized_when_their_month_ends_locally(clock):
    saigon, saigon_plan = _user_with_plan("vn", "Asia/Ho_Chi_Minh")
    _chicago, chicago_plan = _user_with_plan("us", "America/Chicago")
    factories.txn(saigon, amount="1000000", category="dining", occurred_on=dt.date(2026, 11, 20))
    now = dt.datetime(2026, 11, 30, 17, 5, tzinfo=UTC)  # 00:05 on 1 December in Saigon; 11:05 in Chicago
    assert jobs.plans_finalize_ended(now=now).summaries == 1
    saigon_plan.refresh_from_db()
    chicago_plan.refresh_from_db()
    assert saigon_plan.status == "completed" and chicago_plan.status == "active"
    summary = saigon_plan.summary
    assert summary["month"] == "2026-11"
    assert summary["planned"] == {
        "fixed": "7300000",
        "essential": "8850000",
        "goal": "3540000",
        "safe_to_spend": "5310000",
    }
    assert summary["actual"]["discretionary"] == "1000000"
    assert summary["goal"] == {"planned": "3540000", "contributed": "0"}
    # Activated 10 November (the clock): 10..30 tracked; only 20 November (1,000,000) runs over its guide.
    assert summary["days_tracked"] == 21
    assert summary["days_on_track"] == 20
    assert summary["final_streak"] == 10
    assert summary["result"] == "under_budget"
    assert summary["suggestion"]["kind"] == "boost_goal"
    assert summary["suggestion"]["amount"] == "4310000"
    assert jobs.plans_finalize_ended(now=now).summaries == 0
    assert jobs.plans_finalize_ended(now=now + dt.timedelta(hours=1)).summaries == 0
    assert Notification.objects.filter(user=saigon, kind="month_end_summary").count() == 1
    # Chicago's month ends at 06:00 UTC on 1 December.
    assert jobs.plans_finalize_ended(now=dt.datetime(2026, 12, 1, 6, 5, tzinfo=UTC)).summaries == 1


def test_each_plan_of_a_batch_is_stored_with_its_own_summary(clock):
    # One UPDATE writes the whole batch (plans.jobs._store_completed): each row must get its own summary.
    spent = {"p0": "120000", "p1": "6000000", "p2": "0"}  # safe-to-spend is 5,310,000
    plans = {}
    for name, amount in spent.items():
        owner, plans[name] = _user_with_plan(name, "Asia/Ho_Chi_Minh")
        if amount != "0":
            factories.txn(owner, amount=amount, category="dining", occurred_on=dt.date(2026, 11, 20))
    _other, untouched = _user_with_plan("later", "Asia/Ho_Chi_Minh", month="2026-12")
    now = dt.datetime(2026, 12, 2, 3, 4, 5, tzinfo=UTC)
    assert jobs.plans_finalize_ended(now=now, batch_size=10).batches == 1
    for name, plan in plans.items():
        plan.refresh_from_db()
        assert (plan.status, plan.completed_at, plan.updated_at) == ("completed", now, now)
        assert plan.summary["actual"]["discretionary"] == spent[name]
        assert plan.summary["month"] == "2026-11"
    assert {plans[n].summary["result"] for n in spent} == {"under_budget", "over_budget"}
    untouched.refresh_from_db()
    assert (untouched.status, untouched.summary, untouched.completed_at) == ("active", None, None)


def _ledger_by_hand(plan) -> Ledger:
    """The plan's ledger summed in Python from every row of its user's ledger (spending entries among them)
    and its goal entries."""
    fixed = {line.category for line in plan.fixed_expenses.all()}
    ledger, unconverted = Ledger(), {}
    for txn in Transaction.objects.filter(user_id=plan.user_id).order_by("id"):
        if (txn.direction, txn.occurred_on.replace(day=1)) != ("expense", plan.month):
            continue
        if txn.currency != plan.currency:  # no rate in this ledger: named, never counted at 1:1
            unconverted[txn.currency] = unconverted.get(txn.currency, 0) + txn.amount
            continue
        units = to_minor(txn.amount, plan.currency)
        ledger.expenses_by_category[txn.category] = ledger.expenses_by_category.get(txn.category, 0) + units
        if txn.category in categories.DISCRETIONARY and txn.category not in fixed:
            ledger.discretionary_by_day[txn.occurred_on] += units
    ledger.goal_entries = sum(to_minor(entry.amount, plan.currency) for entry in plan.entries.all())
    ledger.rate_missing = [{"currency": c, "amount": amount} for c, amount in sorted(unconverted.items())]
    return ledger


def test_the_batch_ledger_matches_the_per_plan_ledger(clock):
    alice = factories.user("a")
    bob = factories.user("b")
    first = plan_factories.plan(
        alice, active=True, fixed=[{"name": "Phone", "amount": "200000", "category": "subscriptions"}]
    )
    second = plan_factories.plan(bob, month="2026-12")
    for owner, day in [(alice, dt.date(2026, 11, 3)), (bob, dt.date(2026, 12, 2)), (bob, dt.date(2026, 11, 4))]:
        for category, amount in [("subscriptions", "200000"), ("dining", "150000"), ("groceries", "400000")]:
            factories.txn(owner, amount=amount, category=category, occurred_on=day)
    factories.txn(alice, amount="5", category="dining", occurred_on=dt.date(2026, 11, 3), currency="USD")
    # Several rows a category and a day, over several days: one plan's ledger is summed by the database.
    for day, category, amount in [(3, "dining", "25000"), (7, "dining", "40000"), (7, "shopping", "99000")]:
        factories.txn(alice, amount=amount, category=category, occurred_on=dt.date(2026, 11, day))
    factories.txn(alice, amount="310000", category="subscriptions", occurred_on=dt.date(2026, 11, 7))
    from plans.services import plan_entry_create

    plan_entry_create(user=alice, plan_id=first.id, kind="discretionary", amount="10000")
    plan_entry_create(user=alice, plan_id=first.id, kind="goal", amount="300000")
    plans = list(MonthlyPlan.objects.prefetch_related("fixed_expenses").order_by("id"))
    batch = plan_ledgers(plans)
    for plan in plans:
        assert plan_ledger(plan) == batch[plan.id] == _ledger_by_hand(plan)
    detail = plan_detail(user=alice, plan_id=first.id, today=dt.date(2026, 11, 10))
    assert detail.ledger == batch[first.id]
    assert batch[first.id].discretionary_by_day == {
        dt.date(2026, 11, 3): 175_000,
        dt.date(2026, 11, 7): 139_000,  # not the subscription: a fixed line's category
        dt.date(2026, 11, 10): 10_000,  # the spending entry: a row of the ledger in "other"
    }
    assert batch[first.id].expenses_by_category == {
        "subscriptions": 510_000, "dining": 215_000, "groceries": 400_000, "shopping": 99_000, "other": 10_000,
    }  # fmt: skip
    assert batch[first.id].goal_entries == 300_000
    assert batch[second.id].expenses_by_category == {"subscriptions": 200_000, "dining": 150_000, "groceries": 400_000}


def test_finalizing_takes_a_constant_number_of_queries_per_batch(clock):
    for index in range(12):
        owner, _ = _user_with_plan(f"f{index}", "Asia/Ho_Chi_Minh")
        factories.txn(owner, amount="1000", category="dining", occurred_on=dt.date(2026, 11, 12))
    with CaptureQueriesContext(connection) as queries:
        result = jobs.plans_finalize_ended(now=dt.datetime(2026, 12, 2, tzinfo=UTC), batch_size=5)
    assert (result.summaries, result.batches) == (12, 3)
    # Timezones, then per batch: savepoint, lock+select, lines, transactions, entries, update, inbox, release;
    # and the final empty select.
    assert len(queries) <= 1 + 9 * (result.batches + 1)


def test_run_plan_jobs_command(clock, alice, bob):
    plan_factories.plan(alice, active=True, reminder_time="20:00")
    plan_factories.plan(bob, active=True, reminder_time="20:00")
    call_command("run_plan_jobs", "--user", "alice", "--now", "2026-11-10T20:30:00+07:00")
    assert Notification.objects.filter(kind="plan_reminder").values_list("user__username", flat=True).get() == "alice"
    call_command("run_plan_jobs", "--now", "2026-11-10T13:30:00Z")
    assert Notification.objects.filter(kind="plan_reminder").count() == 2
    for bad in (["--now", "yesterday"], ["--now", "2026-11-10T13:30:00"], ["--user", "nobody"]):
        with pytest.raises(CommandError):
            call_command("run_plan_jobs", *bad)


def test_the_tasks_run_the_jobs(clock, alice):
    from plans.tasks import finalize_ended_plans, send_due_reminders

    plan_factories.plan(alice, active=True, reminder_time="00:00")
    clock.set("2026-11-10T17:30:00+00:00")  # 00:30 on 11 November in Saigon
    assert send_due_reminders.delay().get() == 1  # one batch: one user
    assert Notification.objects.filter(kind="plan_reminder").count() == 1
    clock.set("2026-12-01T00:00:00+00:00")
    assert finalize_ended_plans.delay().get() == 1
    assert MonthlyPlan.objects.get().status == "completed"
    assert MonthlyPlan.objects.get().summary["result"] == "under_budget"
    assert Decimal(MonthlyPlan.objects.get().summary["planned"]["safe_to_spend"]) == Decimal("5310000")


def test_each_reminder_and_summary_is_written_in_its_readers_language(clock):
    """Two readers in one batch: each notification in its reader's language, still one statement a batch."""
    readers = {}
    for name, language in [("eng", "en"), ("viet", "vi")]:
        owner = factories.user(name, timezone="Asia/Ho_Chi_Minh", language=language)
        readers[name] = plan_factories.plan(owner, month="2026-11", active=True, reminder_time="20:00")
    assert jobs.reminders_send_due(now=dt.datetime(2026, 11, 10, 13, 0, tzinfo=UTC)).reminders == 2
    reminders = dict(Notification.objects.filter(kind="plan_reminder").values_list("user__username", "title"))
    assert reminders == {"eng": "Your plan: today's check-in", "viet": "Kế hoạch của bạn: điểm danh hôm nay"}
    jobs.plans_finalize_ended(now=dt.datetime(2026, 12, 2, 1, 0, tzinfo=UTC))
    summaries = dict(Notification.objects.filter(kind="month_end_summary").values_list("user__username", "title"))
    assert summaries["eng"] == "Your November 2026 plan: under budget"
    assert summaries["viet"].startswith("Kế hoạch tháng 11 2026") or summaries["viet"].startswith("Kế hoạch ")


def test_a_reminder_whose_reader_speaks_no_language_zeus_has_is_in_the_default_one(clock):
    from zeus.models import Profile

    owner = factories.user("elsewhere", timezone="Asia/Ho_Chi_Minh", language="en")
    plan_factories.plan(owner, month="2026-11", active=True, reminder_time="20:00")
    Profile.objects.filter(user=owner).update(language="fr")
    assert jobs.reminders_send_due(now=dt.datetime(2026, 11, 10, 13, 0, tzinfo=UTC)).reminders == 1
    assert Notification.objects.get(kind="plan_reminder").title == "Kế hoạch của bạn: điểm danh hôm nay"


def test_the_homes_glance_and_current_plan_give_what_the_full_state_gives(clock):
    from plans.selectors import plan_current, plan_glance, plan_state

    owner = factories.user("glance")
    plan_factories.plan(owner, income="20000000")  # a draft of the same month: the active plan wins
    active = plan_factories.plan(owner, active=True)
    for day, amount in [(3, "900000"), (9, "2500000"), (12, "120000")]:
        factories.txn(owner, amount=amount, category="dining", occurred_on=dt.date(2026, 11, day))
    factories.txn(owner, amount="6500000", category="housing", occurred_on=dt.date(2026, 11, 1))
    today = dt.date(2026, 11, 15)
    with CaptureQueriesContext(connection) as queries:
        current = plan_current(user=owner, today=today)
    assert current.id == active.id and len(queries) == 2  # the plan, then its fixed expenses
    assert sorted(f.name for f in current.fixed_expenses.all()) == ["Rent", "Utilities"]
    ledger = plan_ledgers([current])[current.id]
    state, glance = plan_state(current, today=today, ledger=ledger), plan_glance(current, today=today, ledger=ledger)
    assert (glance.guide, glance.safe_left, glance.warning) == (state.guide, state.safe_left, state.warning)
    assert plan_current(user=owner, today=dt.date(2026, 12, 1)) is None
