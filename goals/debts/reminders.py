"""Reminders before an instalment or a repayment falls due: one per debt and due date, claimed by a unique row
(DebtReminder), so a re-run or a second worker sends nothing twice. A credit card's amount due is reminded the
same way, claimed by the inbox's unique (user, dedupe key)."""

import datetime as dt
from decimal import Decimal

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

from assets.cards.selectors import card_dues, cycled_cards
from goals.debts.models import Debt, DebtReminder
from goals.debts.selectors import debt_views
from zeus.account_data.unlocked import of_unlocked_users
from zeus.models import Notification
from zeus.money import format_amount
from zeus.services import notification_create
from zeus.timeutil import user_today
from zeus.wording import NotificationWords

DAYS_AHEAD = 3
RANGE = 2000


def debt_reminders_send(*, now: dt.datetime, user_id_range: tuple[int, int]) -> int:
    """Reminds each user, in their own today, of what falls due within DAYS_AHEAD days; returns how many went."""
    first, last = user_id_range
    debts = of_unlocked_users(
        Debt.objects.filter(status=Debt.Status.OPEN, user_id__gte=first, user_id__lte=last)
    ).select_related("user__profile")
    by_user: dict[int, list[Debt]] = {}
    for debt in debts:
        by_user.setdefault(debt.user_id, []).append(debt)
    sent = 0
    for user_debts in by_user.values():
        user = user_debts[0].user
        today = user_today(user, now=now)
        last = today + dt.timedelta(days=DAYS_AHEAD)
        for view in debt_views(user_debts, today=today):
            # Every unpaid instalment falling due soon, not only the earliest unpaid one: an overdue instalment
            # left unpaid does not silence the reminder of the next.
            for due in view.schedule:
                if due.remaining > 0 and today <= due.due_on <= last:
                    sent += _remind(view.debt, due.due_on, due.remaining)
    return sent + _remind_cards(now=now, user_id_range=user_id_range)


def _remind_cards(*, now: dt.datetime, user_id_range: tuple[int, int]) -> int:
    first, last = user_id_range
    cards = of_unlocked_users(cycled_cards().filter(user_id__gte=first, user_id__lte=last)).select_related(
        "user__profile"
    )
    todays: dict[int, dt.date] = {}

    def today_of(card) -> dt.date:
        if card.user_id not in todays:
            todays[card.user_id] = user_today(card.user, now=now)
        return todays[card.user_id]

    sent = 0
    for view in card_dues(cards, today_of=today_of):
        today, due = today_of(view.asset), view.due
        if due.amount_due > 0 and today <= due.due_on <= today + dt.timedelta(days=DAYS_AHEAD):
            sent += _remind_card(view)
    return sent


def _remind_card(view) -> int:
    card, user = view.asset, view.asset.user
    facts = {
        "words": "card_due",
        "amount": str(view.amount_due),
        "currency": card.currency,
        "card": card.name,
        "date": view.due.due_on.isoformat(),
    }
    with override(user.profile.language or "vi"):
        title = card_due_words(facts).title
    created = notification_create(
        user=user,
        kind=Notification.Kind.DEBT_REMINDER,
        title=title,
        facts=facts,
        cta_url=f"/debts#card-{card.id}",
        dedupe_key=f"card-due:{card.id}:{view.due.due_on.isoformat()}",
    )
    return int(created is not None)


def _remind(debt: Debt, due_on: dt.date, amount) -> int:
    try:
        with db_transaction.atomic():
            DebtReminder.objects.create(debt=debt, due_on=due_on)
            user = debt.user
            facts = {
                "words": "debt_due",
                "direction": debt.direction,
                "person": debt.counterparty,
                "amount": str(amount),
                "currency": debt.currency,
                "date": due_on.isoformat(),
            }
            with override(user.profile.language or "vi"):
                title = debt_due_words(facts).title
            notification_create(
                user=user,
                kind=Notification.Kind.DEBT_REMINDER,
                title=title,
                facts=facts,
                cta_url=f"/debts#debt-{debt.id}",
                dedupe_key=f"debt-due:{debt.id}:{due_on.isoformat()}",
            )
    except IntegrityError:
        return 0
    return 1


def _values(facts: dict) -> dict:
    return {
        "person": facts.get("person", ""),
        "card": facts.get("card", ""),
        "amount": format_amount(Decimal(facts["amount"]), facts["currency"], locale=get_language()),
        "date": dt.date.fromisoformat(facts["date"]).strftime("%d/%m"),
    }


def card_due_words(facts: dict) -> NotificationWords:
    """A card's amount due, from its facts, in the active language (the owner's when stored, the reader's when
    read)."""
    return NotificationWords(title=_("%(amount)s due on %(card)s by %(date)s") % _values(facts), body="", cta_url="")


def debt_due_words(facts: dict) -> NotificationWords:
    """A debt's instalment or repayment falling due, from its facts, in the active language."""
    if facts["direction"] == Debt.Direction.I_OWE:
        title = _("%(amount)s to pay %(person)s by %(date)s") % _values(facts)
    else:
        title = _("%(person)s owes you %(amount)s by %(date)s") % _values(facts)
    return NotificationWords(title=title, body="", cta_url="")
