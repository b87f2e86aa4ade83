"""What is due on the user's credit cards: the cycle's arithmetic (assets/cards/cycle.py) over the card's balance
and its rows since the last statement, in two queries whatever the number of cards."""

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable
from decimal import Decimal

from django.db.models import Q, Sum

from assets.cards import cycle
from assets.models import Asset, Transaction
from assets.selectors import HeldAccount
from zeus.money import from_minor, to_minor


@dataclasses.dataclass(frozen=True)
class CardDueView:
    asset: Asset | HeldAccount  # the card, as a page or a batch read (the forecast's) holds it
    due: cycle.CardDue

    @property
    def currency(self) -> str:
        return self.asset.currency

    def money(self, units: int) -> Decimal:
        return from_minor(units, self.asset.currency)

    @property
    def amount_due(self) -> Decimal:
        return self.money(self.due.amount_due)

    @property
    def statement_balance(self) -> Decimal:
        return self.money(self.due.statement_balance)

    @property
    def repaid(self) -> Decimal:
        return self.money(self.due.repaid)

    @property
    def not_yet_billed(self) -> Decimal:
        return self.money(self.due.not_yet_billed)


def cycled_cards(*, user=None) -> Iterable[Asset]:
    """Open credit cards with a statement and a due day (every user's when `user` is None)."""
    cards = Asset.objects.filter(
        kind=Asset.Kind.CREDIT_CARD, statement_day__isnull=False, due_day__isnull=False, archived_at__isnull=True
    )
    return cards.filter(user=user) if user is not None else cards


def card_dues(
    cards: Iterable[Asset | HeldAccount], *, today_of: Callable[[Asset | HeldAccount], dt.date]
) -> list[CardDueView]:
    """Each card's amount due and dates, `today_of(card)` being its owner's today. The rows that count are
    those after the statement date in the card's currency and not left out of the totals (`excluded`); rows in a
    transfer count (paying the card from a bank account is the repayment)."""
    cards = [card for card in cards if card.statement_day and card.due_day]
    if not cards:
        return []
    since = {card.id: cycle.last_statement_on(today_of(card), card.statement_day) for card in cards}
    after_statement = Q()
    for card in cards:
        after_statement |= Q(asset_id=card.id, currency=card.currency, occurred_on__gt=since[card.id])
    totals: dict[tuple[int, str], Decimal] = {
        (row["asset_id"], row["direction"]): row["total"]
        for row in Transaction.objects.filter(after_statement, excluded=False)
        .values("asset_id", "direction")
        .annotate(total=Sum("amount"))
        .order_by()
    }
    views = []
    for card in cards:
        charges = totals.get((card.id, Transaction.Direction.EXPENSE), Decimal(0))
        repayments = totals.get((card.id, Transaction.Direction.INCOME), Decimal(0))
        due = cycle.card_due(
            today=today_of(card),
            statement_day=card.statement_day,
            due_day=card.due_day,
            balance=to_minor(card.balance, card.currency),
            charges_since=to_minor(charges, card.currency),
            repayments_since=to_minor(repayments, card.currency),
        )
        views.append(CardDueView(asset=card, due=due))
    return sorted(views, key=lambda view: (view.due.due_on, view.asset.name, view.asset.id))


def card_dues_for(*, user, today: dt.date) -> list[CardDueView]:
    return card_dues(cycled_cards(user=user), today_of=lambda card: today)
