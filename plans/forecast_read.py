"""Gathers what the forecast needs (plans/forecast.py does the arithmetic): today's spendable balances, the
recurring income and bills, the plan's fixed expenses still to pay, debt instalments, and typical daily
spending. docs/forecast.md says what counts and why."""

import dataclasses
import datetime as dt
from decimal import Decimal

from django.utils.translation import gettext as _

from assets.cards.selectors import card_dues
from assets.ledger.totals import counted_days_spent, counted_reads_of
from assets.selectors import HeldAccount, assets_of_kinds
from goals.debts.models import Debt
from goals.debts.selectors import unpaid_instalments
from plans import forecast as fc
from plans import math as pm
from plans.forecast_models import ForecastWatch
from plans.forecast_plan import carried_cushion, forecast_plan, owes_nothing
from plans.forecast_sources import Series, series_of
from plans.models import MonthlyPlan
from plans.selectors import plan_ledger, plan_ledgers, plans_current
from plans.state import Ledger, fixed_categories, month_so_far
from zeus.money import parse_money, to_minor
from zeus.queries import AnyOf
from zeus.selectors import profiles_remember, user_currency

# Money one can spend this week; what is owed on a credit card counts against it, on its due dates when the card
# has a statement cycle (assets/cards), else today.
SPENDABLE = {"cash", "bank_account", "e_wallet"}
OWED_ON_CARD = {"credit_card"}
FORECAST_KINDS = SPENDABLE | OWED_ON_CARD
TYPICAL_SPENDING_DAYS = 90
WINDOW = dt.timedelta(days=fc.MAX_DAYS)
# The ledger category a debt instalment is paid in (assets.categories): a plan's fixed line in it is paid by one.
DEBT_CATEGORY = "debt_payment"


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


def cash_forecast(
    *,
    user,
    today: dt.date,
    days: int | None = None,
    active: ActivePlan | None = None,
    series: list[Series] | None = None,
    held: list[HeldAccount] | None = None,
) -> ForecastView:
    """One user's forecast, read for that user alone. `active`, `series` and `held` are reads the caller has
    made already (the home: this month's active plan with its ledger for the safe-to-spend panel, series_of's
    series due by today + WINDOW for the bills, the user's accounts of every kind for the net worth), else read
    here."""
    currency = user_currency(user)
    if held is None:
        held = assets_of_kinds(user_ids=[user.pk], kinds=FORECAST_KINDS)[user.pk]
    else:
        held = [a for a in held if a.kind in FORECAST_KINDS]
    view, accounts = _view_of(held, currency)
    if not accounts:
        return view
    if active is None:
        plan = forecast_plan(user=user, today=today)
        active = ActivePlan(plan=plan, ledger=plan_ledger(plan) if plan is not None else None)
    if series is None:
        series = series_of(user_ids=[user.pk], until=today + WINDOW)[user.pk]
    cushion = carried_cushion(active.plan, currency)
    reads = ForecastReads(
        accounts=accounts,
        cards=card_dues([a for a in accounts if a.kind in OWED_ON_CARD], today_of=lambda card: today),
        series=series,
        instalments=[] if owes_nothing(active.plan) else unpaid_instalments(user_ids=[user.pk]).get(user.pk, []),
        active=active,
        cushion=forecast_cushion(user=user) if cushion is None else cushion,
    )
    pending = _events(reads, currency, today, days)
    daily = pending.daily
    if daily is None:
        daily = _typical_spending({user.pk: (currency, today)})[user.pk]
    forecast = _project(pending, today, daily, reads.cushion, _("Everyday spending"))
    return _with_forecast(view, pending, forecast)


def _view_of(held: list, currency: str) -> tuple[ForecastView, list]:
    """The view with no forecast yet, and the accounts in the user's currency the forecast starts from."""
    others = tuple(sorted({a.currency for a in held if a.currency != currency}))
    view = ForecastView(currency=currency, accounts=0, forecast=None, other_currencies=others)
    return view, [a for a in held if a.currency == currency]


def _with_forecast(view: ForecastView, pending: "_Pending", forecast: fc.Forecast) -> ForecastView:
    others = tuple(sorted(set(view.other_currencies) | pending.left_out))
    return dataclasses.replace(view, accounts=pending.accounts, forecast=forecast, other_currencies=others)


def _project(pending: "_Pending", today: dt.date, daily: int, cushion: int, label: str) -> fc.Forecast:
    return fc.project(
        today=today,
        start_balance=pending.start,
        days=pending.length,
        events=pending.events,
        daily_spending=daily,
        cushion=cushion,
        spending_label=label,
    )


def cash_forecasts(
    *, users, today_of: dict[int, dt.date], days: int | None = None, actives: dict[int, ActivePlan] | None = None
) -> dict[int, ForecastView]:
    """Each user's forecast from their own today (user id: today), in a constant number of queries however many
    users (a few more per further currency). `actives` are plans the caller has read already."""
    users = list(users)
    profiles_remember(users=users)
    batch = _batch({user.pk: user_currency(user) for user in users}, today_of, days, actives or {})
    views = batch.views
    for user_id, p in batch.pending.items():
        forecast = _project(p, today_of[user_id], p.daily, batch.cushions.get(user_id, 0), batch.spending_label)
        views[user_id] = _with_forecast(views[user_id], p, forecast)
    return views


@dataclasses.dataclass(frozen=True)
class ShortfallReading:
    """What the nightly watch needs of one user's forecast over its window: the currency, the cushion and, when
    the window may fall below the cushion, its lowest day (None when it cannot, or with no account to forecast)."""

    currency: str
    cushion: int
    lowest: fc.Day | None

    @property
    def short(self) -> bool:
        return self.lowest is not None and self.lowest.balance < self.cushion


def shortfall_readings(
    *,
    currency_of: dict[int, str],
    today_of: dict[int, dt.date],
    days: int,
    cushions: dict[int, Decimal] | None = None,
) -> dict[int, ShortfallReading]:
    """The lowest point of each user's next `days` days (user id: their currency), read as cash_forecasts reads
    them (the typical day of
    every user without a plan in one read, a row per user), projected day by day only for the users who may
    fall short: those whose floor (fc.floor_within) lies below their cushion. `cushions` (user id: cushion as
    stored) are the watch's, read with its locked rows; without them they are read here."""
    batch = _batch(currency_of, today_of, days, {}, cushions)
    readings = {
        user_id: ShortfallReading(currency=view.currency, cushion=batch.cushions.get(user_id, 0), lowest=None)
        for user_id, view in batch.views.items()
    }
    for user_id, p in batch.pending.items():
        today, cushion = today_of[user_id], readings[user_id].cushion
        floor = fc.floor_within(
            today=today, start_balance=p.start, days=p.length, events=p.events, daily_spending=p.daily
        )
        if floor >= cushion:
            continue
        forecast = _project(p, today, p.daily, cushion, batch.spending_label)
        readings[user_id] = dataclasses.replace(readings[user_id], lowest=fc.lowest_within(forecast, days))
    return readings


@dataclasses.dataclass(frozen=True)
class _Batch:
    """The batch's forecasts before their day-by-day projection: a view per user (the empty ones final), the
    projection's inputs per user with an account, the cushions (minor units) and the spending's label."""

    views: dict[int, ForecastView]
    pending: dict[int, "_Pending"]
    cushions: dict[int, int]
    spending_label: str


def _batch(
    currency_of: dict[int, str],
    today_of: dict[int, dt.date],
    days: int | None,
    given: dict[int, ActivePlan],
    cushions: dict[int, Decimal] | None = None,
) -> _Batch:
    held = assets_of_kinds(user_ids=currency_of, kinds=FORECAST_KINDS)
    views, accounts = {}, {}
    for user_id, currency in currency_of.items():
        views[user_id], accounts[user_id] = _view_of(held[user_id], currency)
    ids = [user_id for user_id in currency_of if accounts[user_id]]
    # One translation for the batch: every user's forecast is written in the language active for the call.
    label = _("Everyday spending")
    if not ids:
        return _Batch(views=views, pending={}, cushions={}, spending_label=label)
    reads = _reads(ids, today_of, currency_of, accounts, given, cushions)
    cushions = {user_id: read.cushion for user_id, read in reads.items()}
    pending = {user_id: _events(reads[user_id], currency_of[user_id], today_of[user_id], days) for user_id in ids}
    typical = _typical_spending(
        {user_id: (currency_of[user_id], today_of[user_id]) for user_id, p in pending.items() if p.daily is None}
    )
    pending = {
        user_id: p if p.daily is not None else dataclasses.replace(p, daily=typical[user_id])
        for user_id, p in pending.items()
    }
    return _Batch(views=views, pending=pending, cushions=cushions, spending_label=label)


@dataclasses.dataclass(frozen=True)
class ForecastReads:
    """What one user's forecast is made of: the accounts in their currency, the cards' dues, the series due
    within the window, the unpaid instalments, this month's active plan and the cushion (minor units)."""

    accounts: list
    cards: list
    series: list[Series]
    instalments: list
    active: ActivePlan
    cushion: int


def _reads(
    ids: list[int],
    today_of: dict,
    currency_of: dict,
    accounts: dict,
    given: dict[int, ActivePlan],
    stored: dict[int, Decimal] | None,
) -> dict[int, ForecastReads]:
    """Each user's ForecastReads, read for the whole batch at once; the cushions too unless `stored` holds them
    (user id: cushion as stored)."""
    cards: dict[int, list] = {user_id: [] for user_id in ids}
    owed = [a for user_id in ids for a in accounts[user_id] if a.kind in OWED_ON_CARD]
    for view in card_dues(owed, today_of=lambda card: today_of[card.user_id]):
        cards[view.asset.user_id].append(view)
    plans = plans_current(today_of={user_id: today_of[user_id] for user_id in ids if user_id not in given})
    plans = {user_id: plan for user_id, plan in plans.items() if plan and plan.status == MonthlyPlan.Status.ACTIVE}
    ledgers = plan_ledgers(list(plans.values()))
    actives = {user_id: ActivePlan(plan=None, ledger=None) for user_id in ids}
    actives.update({user_id: ActivePlan(plan=plan, ledger=ledgers[plan.id]) for user_id, plan in plans.items()})
    actives.update({user_id: active for user_id, active in given.items() if user_id in actives})
    if stored is None:
        stored = dict(ForecastWatch.objects.filter(AnyOf("user_id", ids)).values_list("user_id", "cushion"))
    cushions = {user_id: to_minor(stored[user_id], currency_of[user_id]) for user_id in ids if user_id in stored}
    series = series_of(user_ids=ids, until=max(today_of[user_id] for user_id in ids) + WINDOW)
    instalments = unpaid_instalments(user_ids=ids)
    return {
        user_id: ForecastReads(
            accounts=accounts[user_id],
            cards=cards[user_id],
            series=series[user_id],
            instalments=instalments.get(user_id, []),
            active=actives[user_id],
            cushion=cushions.get(user_id, 0),
        )
        for user_id in ids
    }


@dataclasses.dataclass(frozen=True)
class _Pending:
    """One user's forecast but for the typical spending, read for the batch's users without a plan at once."""

    start: int
    length: int
    events: list[fc.Event]
    daily: int | None
    accounts: int
    # The currencies of series and debts left out of the forecast, as accounts in them are (no rate is assumed).
    left_out: frozenset[str]


def _events(reads: ForecastReads, currency: str, today: dt.date, days: int | None) -> _Pending:
    accounts, cycled = reads.accounts, reads.cards
    billed_cards = {view.asset.id for view in cycled}
    # A card with a statement cycle is paid on its due dates (events below); one without is owed today.
    start = sum(
        (-abs(to_minor(a.balance, currency)) if a.kind in OWED_ON_CARD else to_minor(a.balance, currency))
        for a in accounts
        if a.id not in billed_cards
    )
    window_end = today + WINDOW
    if days is not None:
        # Past the asked days only this month's bills still count (the plan's fixed expenses they already pay).
        asked = today + dt.timedelta(days=fc.horizon(today=today, income_dates=(), days=days))
        window_end = min(window_end, max(asked, pm.month_last(pm.month_first(today))))
    events, left_out = [], set()
    for s in reads.series:
        if s.next_on > window_end:
            continue
        if s.currency != currency:
            left_out.add(s.currency)
            continue
        amount = to_minor(s.amount, currency) if s.direction == "income" else -to_minor(s.amount, currency)
        events.extend(
            fc.Event(on, s.kind, s.name, amount, s.category) for on in fc.occurrences(s.next_on, s.interval, window_end)
        )
    income_dates = [e.on for e in events if e.amount > 0]
    length = fc.horizon(today=today, income_dates=income_dates, days=days)
    last = today + dt.timedelta(days=length)
    for debt, row in reads.instalments:
        if row.due_on > last or debt.direction != Debt.Direction.I_OWE:
            continue
        if debt.currency != currency:
            left_out.add(debt.currency)
        else:
            remaining = -to_minor(row.remaining, currency)
            events.append(fc.Event(row.due_on, "debt", debt.counterparty, remaining, DEBT_CATEGORY))
    daily, fixed_left = _plan_parts(reads.active, currency, today, events)
    if fixed_left > 0:
        events.append(fc.Event(today + dt.timedelta(days=1), "fixed", _("Fixed expenses still to pay"), -fixed_left))
    events.extend(_card_events(cycled))
    return _Pending(
        start=start, length=length, events=events, daily=daily, accounts=len(accounts), left_out=frozenset(left_out)
    )


def _spans(wanted: dict[int, tuple[str, dt.date]]) -> dict[int, tuple[str, dt.date, dt.date]]:
    """The TYPICAL_SPENDING_DAYS before each user's today (user id: (currency, today)): (currency, since, until)."""
    return {
        user_id: (currency, today - dt.timedelta(days=TYPICAL_SPENDING_DAYS), today - dt.timedelta(days=1))
        for user_id, (currency, today) in wanted.items()
    }


def _typical_spending(wanted: dict[int, tuple[str, dt.date]]) -> dict[int, int]:
    """The median day's spending over the TYPICAL_SPENDING_DAYS before each user's today, in their currency:
    the days summed in the database, and converted through counted_reads_of only for the users who spent in
    another currency."""
    spans = _spans(wanted)
    spent = {user_id: read.days for user_id, read in counted_days_spent(spans=spans).items() if not read.foreign}
    foreign = {user_id: span for user_id, span in spans.items() if user_id not in spent}
    for user_id, read in counted_reads_of(spans=foreign).items():
        spent[user_id] = [to_minor(total, foreign[user_id][0]) for total in read.by_day().values()]
    # The days that spent anything; every other day of the span spent nothing.
    return {
        user_id: fc.median_daily(days + [0] * (TYPICAL_SPENDING_DAYS - len(days))) for user_id, days in spent.items()
    }


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
    expected this month in one of their categories (a housing bill pays the rent; a subscription or an instalment
    in another category is an outflow of its own, already counted)."""
    plan = active.plan
    if plan is None or plan.currency != currency:
        return None, 0
    so_far = month_so_far(plan, active.ledger, today)
    month_last = pm.month_last(plan.month)
    fixed = fixed_categories(plan)
    billed = -sum(e.amount for e in events if e.amount < 0 and e.on <= month_last and e.category in fixed)
    return so_far.guide.guide, max(0, so_far.allocations.fixed - so_far.actuals.fixed - billed)


def forecast_cushion_set(*, user, cushion) -> ForecastWatch:
    """The floor the shortfall watch measures against, in the user's currency (0 or more)."""
    value = parse_money(cushion, user_currency(user), field="cushion", allow_zero=True)
    watch, created = ForecastWatch.objects.get_or_create(user=user, defaults={"cushion": value})
    if created or watch.cushion == value:
        # The same cushion saved again is no new reading: an episode already told stays told.
        return watch
    watch.cushion = value
    # A new cushion starts a new reading: the next daily check may open an episode at once.
    watch.in_shortfall = False
    watch.checked_on = None
    watch.save()
    return watch
