"""Gathers what the forecast needs (plans/forecast.py does the arithmetic): today's spendable balances, the
recurring income and bills, the plan's fixed expenses still to pay, debt instalments, and typical daily
spending. docs/forecast.md says what counts and why."""

import dataclasses
import datetime as dt

from django.utils.translation import gettext as _

from assets.cards.selectors import card_dues
from assets.selectors import asset_list, expense_totals_by_day
from goals.debts.models import Debt
from goals.debts.selectors import instalments_between
from plans import forecast as fc
from plans import math as pm
from plans.forecast_models import ForecastWatch
from plans.forecast_sources import series_for
from plans.models import MonthlyPlan
from plans.selectors import plan_current, plan_ledger
from plans.state import Ledger, month_so_far
from zeus.money import parse_money, to_minor
from zeus.selectors import user_currency

# Money one can spend this week; what is owed on a credit card counts against it, on its due dates when the card
# has a statement cycle (assets/cards), else today.
SPENDABLE = {"cash", "bank_account", "e_wallet"}
OWED_ON_CARD = {"credit_card"}
TYPICAL_SPENDING_DAYS = 90


@dataclasses.dataclass(frozen=True)
class ForecastView:
    currency: str
    accounts: int
    forecast: fc.Forecast | None
    other_currencies: tuple[str, ...]


def forecast_cushion(*, user) -> int:
    watch = ForecastWatch.objects.filter(user=user).first()
    return to_minor(watch.cushion, user_currency(user)) if watch else 0


@dataclasses.dataclass(frozen=True)
class ActivePlan:
    """This month's active plan (None without one) and its ledger, for a caller that has read them already: the
    home reads them once for the safe-to-spend panel and the forecast."""

    plan: MonthlyPlan | None
    ledger: Ledger | None


def active_plan_read(*, user, today: dt.date) -> ActivePlan:
    plan = plan_current(user=user, today=today)
    if plan is None or plan.status != MonthlyPlan.Status.ACTIVE:
        return ActivePlan(plan=None, ledger=None)
    return ActivePlan(plan=plan, ledger=plan_ledger(plan))


def cash_forecast(*, user, today: dt.date, days: int | None = None, active: ActivePlan | None = None) -> ForecastView:
    currency = user_currency(user)
    accounts = [a for a in asset_list(user=user) if a.kind in SPENDABLE | OWED_ON_CARD]
    others = tuple(sorted({a.currency for a in accounts if a.currency != currency}))
    accounts = [a for a in accounts if a.currency == currency]
    if not accounts:
        return ForecastView(currency=currency, accounts=0, forecast=None, other_currencies=others)
    cycled = card_dues([a for a in accounts if a.kind in OWED_ON_CARD], today_of=lambda _card: today)
    billed_cards = {view.asset.id for view in cycled}
    # A card with a statement cycle is paid on its due dates (events below); one without is owed today.
    start = sum(
        (-abs(to_minor(a.balance, currency)) if a.kind in OWED_ON_CARD else to_minor(a.balance, currency))
        for a in accounts
        if a.id not in billed_cards
    )
    window_end = today + dt.timedelta(days=fc.MAX_DAYS)
    series = [s for s in series_for(user=user, until=window_end) if s.currency == currency]
    events = []
    for s in series:
        sign = 1 if s.direction == "income" else -1
        for on in fc.occurrences(s.next_on, s.interval, window_end):
            events.append(fc.Event(on, s.kind, s.name, sign * to_minor(s.amount, currency)))
    income_dates = [e.on for e in events if e.amount > 0]
    length = fc.horizon(today=today, income_dates=income_dates, days=days)
    last = today + dt.timedelta(days=length)
    for debt, row in instalments_between(user=user, start=today, end=last):
        if debt.currency == currency and debt.direction == Debt.Direction.I_OWE:
            events.append(fc.Event(row.due_on, "debt", debt.counterparty, -to_minor(row.remaining, currency)))
    active = active if active is not None else active_plan_read(user=user, today=today)
    daily, fixed_left = _plan_parts(active, currency, today, events)
    if fixed_left > 0:
        events.append(fc.Event(today + dt.timedelta(days=1), "fixed", _("Fixed expenses still to pay"), -fixed_left))
    events.extend(_card_events(cycled))
    if daily is None:
        since = today - dt.timedelta(days=TYPICAL_SPENDING_DAYS)
        by_day = expense_totals_by_day(user=user, currency=currency, since=since, until=today - dt.timedelta(days=1))
        totals = [to_minor(by_day.get(since + dt.timedelta(days=n), 0), currency) for n in range(TYPICAL_SPENDING_DAYS)]
        daily = fc.median_daily(totals)
    forecast = fc.project(
        today=today,
        start_balance=start,
        days=length,
        events=events,
        daily_spending=daily,
        cushion=forecast_cushion(user=user),
        spending_label=_("Everyday spending"),
    )
    return ForecastView(currency=currency, accounts=len(accounts), forecast=forecast, other_currencies=others)


def _card_events(cycled) -> list[fc.Event]:
    """Each card's amount due on its due date (an overdue one falls on tomorrow), and what it has charged since
    the statement on the next due date."""
    events = []
    for view in cycled:
        name, due = view.asset.name, view.due
        if due.amount_due > 0:
            label = _("%(card)s: amount due") % {"card": name}
            events.append(fc.Event(due.due_on, "card", label, -due.amount_due))
        if due.not_yet_billed > 0:
            label = _("%(card)s: next statement") % {"card": name}
            events.append(fc.Event(due.next_due_on, "card", label, -due.not_yet_billed))
    return events


def _plan_parts(active: ActivePlan, currency: str, today: dt.date, events: list[fc.Event]) -> tuple[int | None, int]:
    """The active plan's daily guide (None without one) and its fixed expenses not yet paid nor already
    expected as a recurring bill this month."""
    plan = active.plan
    if plan is None or plan.currency != currency:
        return None, 0
    so_far = month_so_far(plan, active.ledger, today)
    month_last = pm.month_last(plan.month)
    billed = -sum(e.amount for e in events if e.amount < 0 and e.on <= month_last)
    return so_far.guide.guide, max(0, so_far.allocations.fixed - so_far.actuals.fixed - billed)


def forecast_cushion_set(*, user, cushion) -> ForecastWatch:
    """The floor the shortfall watch measures against, in the user's currency (0 or more)."""
    value = parse_money(cushion, user_currency(user), field="cushion", allow_zero=True)
    watch, _created = ForecastWatch.objects.get_or_create(user=user)
    watch.cushion = value
    # A new cushion starts a new reading: the next daily check may open an episode at once.
    watch.in_shortfall = False
    watch.checked_on = None
    watch.save()
    return watch
