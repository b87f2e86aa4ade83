"""The plan jobs (docs/contract/tasks.md): daily reminders and month-end finalization.

Both take an explicit `now`, work in bounded batches with a constant number of queries per batch, and claim
their work in the database so a re-run or a second worker does nothing twice:
- reminders: a `ReminderLog` row per (plan, local date), inserted ignoring conflicts on that unique pair;
  a run notifies only for the rows it inserted itself (tagged with its run id);
- month end: the batch is locked with SELECT ... FOR UPDATE SKIP LOCKED and flipped to completed in the
  same transaction; the notification also carries a dedupe key.
"""

import datetime as dt
import logging
import uuid
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy

from plans import math as pm
from plans.models import MonthlyPlan
from plans.reminders import reminder_due
from plans.selectors import plan_ledgers
from plans.sql import reminders_claim
from plans.state import month_so_far
from zeus.account_data.unlocked import of_unlocked_users
from zeus.models import DEFAULT_TIMEZONE, NotificationKind, Profile
from zeus.money import format_amount, from_minor
from zeus.selectors import user_languages
from zeus.services import NotificationDraft, notification_create_many, notifications_add_many
from zeus.wording import NotificationWords

log = logging.getLogger(__name__)

REMINDER_BATCH = 2000
FINALIZE_BATCH = 200
# The users one batch task takes (zeus.fanout): 20 tasks for 10,000 users, so two or more workers split a run
# evenly (with 5 a second worker idles for the last one), each task still bounded, and its queries constant.
REMINDER_RANGE = 500
FINALIZE_RANGE = 500


class ReminderClaim(NamedTuple):
    """A reminder due now: the plan, its owner, the local date it is for and the owner's language (a tuple:
    one is made for each due plan of a run, and a frozen dataclass sets each field through a call)."""

    plan_id: int
    user_id: int
    day: dt.date
    language: str | None


@dataclass(frozen=True)
class JobResult:
    reminders: int = 0
    summaries: int = 0
    batches: int = 0


def _timezones(plans) -> list[str]:
    return sorted(
        Profile.objects.filter(user__in=plans.values("user_id")).values_list("timezone", flat=True).distinct()
    )


def _for_users(plans, user_ids, user_id_range):
    """The plans of these users, or of the users whose id is in [first, last] (a fan-out batch); never of a
    user locked for erasure."""
    plans = of_unlocked_users(plans)
    if user_ids is not None:
        plans = plans.filter(user_id__in=list(user_ids))
    if user_id_range is not None:
        plans = plans.filter(user_id__gte=user_id_range[0], user_id__lte=user_id_range[1])
    return plans


# Reminders


def reminders_send_due(
    *,
    now: dt.datetime,
    user_ids: Iterable[int] | None = None,
    user_id_range: tuple[int, int] | None = None,
    batch_size: int = REMINDER_BATCH,
):
    """Sends the in-app reminder of every active plan whose local reminder time has come (docs/contract/plans.md).

    Walks the active plans with reminders on (only months that can hold `now` somewhere on Earth) in id
    order, `batch_size` at a time, with their user's clock and language (one query a page);
    plans.reminders.reminder_due decides per plan in its user's clock, and the due ones of a batch are claimed and
    notified in a constant number of queries (reminders_send_batch).
    """
    sent = batches = 0
    plans = MonthlyPlan.objects.filter(
        status=MonthlyPlan.Status.ACTIVE,
        reminders_enabled=True,
        month__gte=pm.month_first((now - dt.timedelta(days=2)).date()),
        month__lte=pm.month_first((now + dt.timedelta(days=2)).date()),
    )
    plans = _for_users(plans, user_ids, user_id_range)
    plans = plans.order_by("id").values_list(
        "id", "user_id", "month", "reminder_time", "user__profile__timezone", "user__profile__language"
    )
    # The decision depends only on the clock, the plan's month and its reminder time, which most plans of a
    # run share with many others: made once for each such triple, not once per plan.
    due: dict[tuple[str | None, dt.date, dt.time], dt.date | None] = {}
    last_id = 0
    while True:
        batch = list(plans.filter(id__gt=last_id)[:batch_size])
        if not batch:
            break
        last_id = batch[-1][0]
        claims = []
        for plan_id, user_id, month, reminder_time, tz_name, language in batch:
            try:
                day = due[tz_name, month, reminder_time]
            except KeyError:
                local_now = now.astimezone(zoneinfo.ZoneInfo(tz_name or DEFAULT_TIMEZONE))
                day = due[tz_name, month, reminder_time] = reminder_due(
                    enabled=True, active=True, first=month, local_now=local_now, reminder_time=reminder_time
                )
            if day is not None:
                claims.append(ReminderClaim(plan_id, user_id, day, language))
        if claims:
            sent += reminders_send_batch(claims)
        batches += 1
        if len(batch) < batch_size:
            break
    return JobResult(reminders=sent, batches=batches)


REMINDER_TITLE = gettext_lazy("Your plan: today's check-in")
REMINDER_BODY = gettext_lazy("See today's safe-to-spend guide and log what you spent.")


def _in_each_language(text) -> dict[str, str]:
    out = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out[code] = str(text)
    return out


def reminders_send_batch(claims: list[ReminderClaim]) -> int:
    """Claims each (plan, local date) and notifies its user, in their language (docs/i18n.md: the profile's,
    read with the plan), for the claims this run won.

    A claim taken meanwhile by another worker or an earlier run hits the unique (plan, local_date) and is
    skipped (the insert ignores conflicts); the claims this run won are the rows carrying its run id, and the
    inbox rows are made for those only (zeus's batch insert skips any the inbox already holds: the same
    dedupe key). Claims and inbox rows commit together.
    """
    run_id = uuid.uuid4()
    owners = {claim.plan_id: claim for claim in claims}
    with transaction.atomic():
        won = reminders_claim([(c.plan_id, c.day.isoformat()) for c in owners.values()], run_id=run_id)
        if not won:
            return 0
        titles, bodies = _in_each_language(REMINDER_TITLE), _in_each_language(REMINDER_BODY)
        drafts, languages = [], {}
        for plan_id in sorted(won):
            claim = owners[plan_id]
            # A user without a profile, or with a language Zeus does not speak, reads the default one.
            language = languages[claim.user_id] = claim.language if claim.language in titles else settings.LANGUAGE_CODE
            drafts.append(
                NotificationDraft(
                    user_id=claim.user_id,
                    kind=NotificationKind.PLAN_REMINDER,
                    title=titles[language],
                    body=bodies[language],
                    cta_url=f"/plans#plan-{plan_id}",
                    dedupe_key=f"plan_reminder:{plan_id}:{claim.day.isoformat()}",
                    facts={"words": "plan_reminder"},
                )
            )
        # The push to readers online speaks the languages read with the plans: no query of its own, so a
        # batch costs the same queries whether or not any of its readers has Zeus open.
        return notifications_add_many(drafts, languages=languages)


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
            "text": suggestion_text(summary.suggestion_kind, summary.suggestion_amount, c),
        },
    }


def suggestion_text(kind: str, amount_minor: int, currency: str) -> str:
    """In the active language: the finalizing job writes each plan in its owner's, the inbox in its reader's."""
    amount = format_amount(from_minor(amount_minor, currency), currency, locale=translation.get_language())
    if kind == pm.LOWER_SPENDING:
        return gettext("You spent %(amount)s more than your safe-to-spend. Plan a little less for next month.") % {
            "amount": amount
        }
    if kind == pm.BOOST_GOAL:
        return gettext(
            "%(amount)s of safe-to-spend was left over. Consider putting more towards your goal next month."
        ) % {"amount": amount}
    return gettext("You finished right on plan. Keep the same split next month.")


_RESULT_WORDS = {
    pm.OVER_BUDGET: gettext_lazy("over budget"),
    pm.UNDER_BUDGET: gettext_lazy("under budget"),
    pm.ON_BUDGET: gettext_lazy("on budget"),
}


def plans_finalize_ended(
    *,
    now: dt.datetime,
    user_ids: Iterable[int] | None = None,
    user_id_range: tuple[int, int] | None = None,
    batch_size: int = FINALIZE_BATCH,
) -> JobResult:
    """Completes every active plan whose month has ended in its user's timezone, writing its month-end
    summary and one notification."""
    run = JobResult()
    base = _for_users(MonthlyPlan.objects.filter(status=MonthlyPlan.Status.ACTIVE), user_ids, user_id_range)
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
            .prefetch_related("fixed_expenses")
            .order_by("id")[:batch_size]
        )
        if not plans:
            return 0
        ledgers = plan_ledgers(plans)
        languages = user_languages(user_ids={plan.user_id for plan in plans})
        rows = []
        for plan in plans:
            so_far = month_so_far(plan, ledgers[plan.id], local_today)
            summary = pm.month_end_summary(
                allocations=so_far.allocations,
                actuals=so_far.actuals,
                first=plan.month,
                activated_on=plan.activated_on,
                discretionary_by_day=so_far.discretionary_by_day,
            )
            with translation.override(languages.get(plan.user_id) or settings.LANGUAGE_CODE):
                plan.summary = _summary_json(plan, summary)
                title = gettext("Your %(month)s plan: %(result)s") % {
                    "month": date_format(plan.month, "YEAR_MONTH_FORMAT"),
                    "result": _RESULT_WORDS[summary.result],
                }
            plan.status = MonthlyPlan.Status.COMPLETED
            plan.completed_at = plan.updated_at = now
            rows.append(
                NotificationDraft(
                    user_id=plan.user_id,
                    kind=NotificationKind.MONTH_END_SUMMARY,
                    title=title,
                    body=plan.summary["suggestion"]["text"],
                    cta_url=f"/plans#plan-{plan.id}",
                    dedupe_key=f"month_end_summary:{plan.id}",
                    facts={
                        "words": "month_end_summary",
                        "month": plan.month.isoformat(),
                        "result": summary.result,
                        "suggestion_kind": summary.suggestion_kind,
                        "suggestion_amount": summary.suggestion_amount,
                        "currency": plan.currency,
                    },
                )
            )
        MonthlyPlan.objects.bulk_update(plans, ["summary", "status", "completed_at", "updated_at"])
        notification_create_many(rows)
    return len(plans)


def run_plan_jobs(*, now: dt.datetime, user_ids: Iterable[int] | None = None) -> JobResult:
    """Both jobs, finalization first (a plan whose month ended gets its summary, not a reminder)."""
    user_ids = None if user_ids is None else list(user_ids)
    finalized = plans_finalize_ended(now=now, user_ids=user_ids)
    reminded = reminders_send_due(now=now, user_ids=user_ids)
    return JobResult(
        reminders=reminded.reminders, summaries=finalized.summaries, batches=finalized.batches + reminded.batches
    )


def reminder_words(facts: dict) -> NotificationWords:
    """The daily check-in, in the reader's language when read (its link is stored with it)."""
    return NotificationWords(title=str(REMINDER_TITLE), body=str(REMINDER_BODY), cta_url="")


def month_end_words(facts: dict) -> NotificationWords | None:
    """The month-end notice from its facts, in the reader's language; None for a row stored before them."""
    try:
        month = dt.date.fromisoformat(facts["month"])
        title = gettext("Your %(month)s plan: %(result)s") % {
            "month": date_format(month, "YEAR_MONTH_FORMAT"),
            "result": _RESULT_WORDS[facts["result"]],
        }
        body = suggestion_text(facts["suggestion_kind"], int(facts["suggestion_amount"]), facts["currency"])
    except (KeyError, TypeError, ValueError):
        return None
    return NotificationWords(title=title, body=body, cta_url="")
