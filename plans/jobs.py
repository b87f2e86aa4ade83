"""The plan jobs (CONTRACT §5): daily reminders and month-end finalization.

Both take an explicit `now`, work per timezone in bounded batches with a constant number of queries per
batch, and claim their work in the database so a re-run or a second worker does nothing twice:
- reminders: a `ReminderLog` row per (plan, local date), inserted with ON CONFLICT DO NOTHING; a run
  notifies only for the rows it inserted itself (tagged with its run id);
- month end: the batch is locked with SELECT ... FOR UPDATE SKIP LOCKED and flipped to completed in the
  same transaction; the notification also carries a dedupe key.
"""

import asyncio
import datetime as dt
import logging
import uuid
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Exists, OuterRef

from plans import math as pm
from plans.models import MonthlyPlan, ReminderLog
from plans.selectors import plan_ledgers, plan_state
from zeus.live import user_group
from zeus.models import Notification, Profile
from zeus.money import format_amount, from_minor
from zeus.selectors import notification_to_dict

log = logging.getLogger(__name__)

REMINDER_BATCH = 2000
FINALIZE_BATCH = 200


@dataclass(frozen=True)
class JobResult:
    reminders: int = 0
    summaries: int = 0
    batches: int = 0


def _timezones(plans) -> list[str]:
    return sorted(
        Profile.objects.filter(user__in=plans.values("user_id")).values_list("timezone", flat=True).distinct()
    )


def _push_all(notifications: list[Notification]) -> None:
    """Pushes a batch live in one event loop: one round of channel-layer calls, not one loop per user."""
    layer = get_channel_layer()
    if layer is None or not notifications:
        return
    messages = [
        (n.user_id, {"type": "notification.push", "notification": notification_to_dict(n)}) for n in notifications
    ]

    async def send():
        results = await asyncio.gather(
            *(layer.group_send(user_group(user_id), message) for user_id, message in messages),
            return_exceptions=True,
        )
        failures = [r for r in results if isinstance(r, Exception)]
        if failures:
            log.warning("%d of %d live pushes failed: %r", len(failures), len(results), failures[0])

    try:
        async_to_sync(send)()
    except Exception:
        log.exception("live pushes failed")


def _notify(rows: list[Notification]) -> list[Notification]:
    """Inserts a batch of inbox rows in one statement and pushes them once the batch commits."""
    created = Notification.objects.bulk_create(rows)
    transaction.on_commit(lambda: _push_all(created))
    return created


# Reminders


def _reminder_windows(local_now: dt.datetime) -> list[tuple[dt.date, dt.time, dt.time | None, bool]]:
    """The reminder windows holding `local_now`, as (window date, lower bound, upper bound, lower inclusive):
    a plan is due for that date when lower < reminder_time <= upper (or lower <= when inclusive). The same
    rule as plans.math.reminder_window_date, written as ranges of reminder_time the database can filter."""
    wall = local_now.replace(tzinfo=None)
    today, clock = wall.date(), wall.time()
    three_hours_ago = wall - pm.REMINDER_WINDOW
    windows = []
    if three_hours_ago.date() == today:
        windows.append((today, three_hours_ago.time(), clock, False))
    else:
        windows.append((today, dt.time(0, 0), clock, True))
        # Yesterday's late windows still open: reminder_time + 3 h > now, i.e. reminder_time > now + 21 h.
        windows.append((today - dt.timedelta(days=1), three_hours_ago.time(), None, False))
    return windows


def reminders_send_due(*, now: dt.datetime, user_ids: Iterable[int] | None = None, batch_size: int = REMINDER_BATCH):
    """Sends the in-app reminder of every active plan whose local reminder time has come (CONTRACT §4.2)."""
    run = JobResult()
    base = MonthlyPlan.objects.filter(status=MonthlyPlan.Status.ACTIVE, reminders_enabled=True)
    if user_ids is not None:
        base = base.filter(user_id__in=list(user_ids))
    for tz_name in _timezones(base):
        local_now = now.astimezone(zoneinfo.ZoneInfo(tz_name))
        for day, lower, upper, inclusive in _reminder_windows(local_now):
            due = base.filter(user__profile__timezone=tz_name, month=pm.month_first(day))
            due = due.filter(reminder_time__gte=lower) if inclusive else due.filter(reminder_time__gt=lower)
            if upper is not None:
                due = due.filter(reminder_time__lte=upper)
            due = due.exclude(Exists(ReminderLog.objects.filter(plan_id=OuterRef("pk"), local_date=day)))
            last_id = 0
            while True:
                batch = list(
                    due.filter(id__gt=last_id).order_by("id").values_list("id", "user_id", "month")[:batch_size]
                )
                if not batch:
                    break
                last_id = batch[-1][0]
                sent = _send_reminder_batch(batch, day)
                run = JobResult(reminders=run.reminders + sent, summaries=run.summaries, batches=run.batches + 1)
                if len(batch) < batch_size:
                    break
    return run


def _send_reminder_batch(batch: list[tuple[int, int, dt.date]], day: dt.date) -> int:
    """Claims (plan, day) for each plan of the batch; notifies for the claims this run won. Five queries."""
    run_id = uuid.uuid4()
    with transaction.atomic():
        ReminderLog.objects.bulk_create(
            [ReminderLog(plan_id=plan_id, local_date=day, run_id=run_id) for plan_id, _, _ in batch],
            ignore_conflicts=True,
        )
        won = set(ReminderLog.objects.filter(run_id=run_id).values_list("plan_id", flat=True))
        rows = [
            Notification(
                user_id=user_id,
                kind=Notification.Kind.PLAN_REMINDER,
                title=f"Your {month:%B} plan: today's check-in",
                body="See today's safe-to-spend guide and log what you spent.",
                cta_url=f"/plans#plan-{plan_id}",
                dedupe_key=f"plan_reminder:{plan_id}:{day.isoformat()}",
            )
            for plan_id, user_id, month in batch
            if plan_id in won
        ]
        _notify(rows)
    return len(rows)


# Month end


def _summary_json(plan: MonthlyPlan, summary: pm.MonthEndSummary) -> dict:
    c = plan.currency

    def money(units: int) -> str:
        return str(from_minor(units, c))

    return {
        "month": f"{plan.month:%Y-%m}",
        "currency": c,
        "planned": {
            "fixed": money(summary.planned.fixed),
            "essential": money(summary.planned.essential),
            "goal": money(summary.planned.goal),
            "safe_to_spend": money(summary.planned.safe),
        },
        "actual": {
            "fixed": money(summary.actual.fixed),
            "essential": money(summary.actual.essential),
            "discretionary": money(summary.actual.discretionary),
            "goal": money(summary.actual.goal),
        },
        "goal": {"planned": money(summary.planned.goal), "contributed": money(summary.actual.goal)},
        "days_on_track": summary.days_on_track,
        "days_tracked": summary.days_tracked,
        "final_streak": summary.final_streak,
        "result": summary.result,
        "suggestion": {
            "kind": summary.suggestion_kind,
            "amount": money(summary.suggestion_amount),
            "text": _suggestion_text(summary, c),
        },
    }


def _suggestion_text(summary: pm.MonthEndSummary, currency: str) -> str:
    amount = format_amount(from_minor(summary.suggestion_amount, currency), currency)
    if summary.suggestion_kind == pm.LOWER_SPENDING:
        return f"You spent {amount} more than your safe-to-spend. Plan a little less for next month."
    if summary.suggestion_kind == pm.BOOST_GOAL:
        return f"{amount} of safe-to-spend was left over. Consider putting more towards your goal next month."
    return "You finished right on plan. Keep the same split next month."


_RESULT_WORDS = {pm.OVER_BUDGET: "over budget", pm.UNDER_BUDGET: "under budget", pm.ON_BUDGET: "on budget"}


def plans_finalize_ended(
    *, now: dt.datetime, user_ids: Iterable[int] | None = None, batch_size: int = FINALIZE_BATCH
) -> JobResult:
    """Completes every active plan whose month has ended in its user's timezone, writing its month-end
    summary and one notification."""
    run = JobResult()
    base = MonthlyPlan.objects.filter(status=MonthlyPlan.Status.ACTIVE)
    if user_ids is not None:
        base = base.filter(user_id__in=list(user_ids))
    for tz_name in _timezones(base):
        local_today = now.astimezone(zoneinfo.ZoneInfo(tz_name)).date()
        ended = base.filter(user__profile__timezone=tz_name, month__lt=pm.month_first(local_today))
        while True:
            done = _finalize_batch(ended, now=now, local_today=local_today, batch_size=batch_size)
            if not done:
                break
            run = JobResult(reminders=run.reminders, summaries=run.summaries + done, batches=run.batches + 1)
    return run


def _finalize_batch(ended, *, now: dt.datetime, local_today: dt.date, batch_size: int) -> int:
    with transaction.atomic():
        plans = list(
            ended.select_for_update(skip_locked=True, of=("self",))
            .select_related("primary_goal")
            .prefetch_related("fixed_expenses")
            .order_by("id")[:batch_size]
        )
        if not plans:
            return 0
        ledgers = plan_ledgers(plans)
        rows = []
        for plan in plans:
            state = plan_state(plan, today=local_today, ledger=ledgers[plan.id])
            summary = pm.month_end_summary(
                allocations=state.allocations,
                actuals=state.actuals,
                first=plan.month,
                activated_on=plan.activated_on,
                discretionary_by_day=state.discretionary_by_day,
            )
            plan.summary = _summary_json(plan, summary)
            plan.status = MonthlyPlan.Status.COMPLETED
            plan.completed_at = plan.updated_at = now
            rows.append(
                Notification(
                    user_id=plan.user_id,
                    kind=Notification.Kind.MONTH_END_SUMMARY,
                    title=f"Your {plan.month:%B %Y} plan: {_RESULT_WORDS[summary.result]}",
                    body=plan.summary["suggestion"]["text"],
                    cta_url=f"/plans#plan-{plan.id}",
                    dedupe_key=f"month_end_summary:{plan.id}",
                )
            )
        MonthlyPlan.objects.bulk_update(plans, ["summary", "status", "completed_at", "updated_at"])
        _notify(rows)
    return len(plans)


def run_plan_jobs(*, now: dt.datetime, user_ids: Iterable[int] | None = None) -> JobResult:
    """Both jobs, finalization first (a plan whose month ended gets its summary, not a reminder)."""
    user_ids = None if user_ids is None else list(user_ids)
    finalized = plans_finalize_ended(now=now, user_ids=user_ids)
    reminded = reminders_send_due(now=now, user_ids=user_ids)
    return JobResult(
        reminders=reminded.reminders, summaries=finalized.summaries, batches=finalized.batches + reminded.batches
    )
