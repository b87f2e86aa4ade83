"""Reads of the ledger, always scoped to one user."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.postgres.lookups import Unaccent
from django.db.models import Count, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from assets.ledger.queries import COUNTS
from assets.ledger.totals import (
    CountedRead,
    counted_reads_in,
    counted_user_read,
)
from assets.models import Asset, LinkedAccount, Source, Transaction
from assets.rules.text import fold
from zeus.errors import NotFound
from zeus.money import quantize
from zeus.queries import AnyOf


def asset_list(*, user, source: str | None = None) -> QuerySet[Asset]:
    """The user's assets, of one source if given ("all" or None: every one). The value is the caller's to check
    (the API's filter serializer, the tools' schemas)."""
    qs = Asset.objects.filter(user=user)
    if source and source != "all":
        qs = qs.filter(source=source)
    return qs


@dataclass(frozen=True)
class HeldAccount:
    """An account as a batch read gives it (the forecast's): what its balance is, in what, and for a credit card
    its statement and due days. assets.cards.selectors.card_dues reads a card's dues from it as from an Asset."""

    id: int
    user_id: int
    name: str
    kind: str
    balance: Decimal
    currency: str
    statement_day: int | None
    due_day: int | None


def assets_of_kinds(*, user_ids, kinds=None) -> dict[int, list[HeldAccount]]:
    """The accounts of these kinds (None: of every kind) of each of these users, in asset_list's order: one
    query for a job's batch, a row of values per account (no model built)."""
    found: dict[int, list[HeldAccount]] = {user_id: [] for user_id in user_ids}
    if not found:
        return found  # an empty ANY is still a query, where an empty IN was none
    fields = ("id", "user_id", "name", "kind", "balance", "currency", "statement_day", "due_day")
    held = Asset.objects.filter(AnyOf("user_id", found))
    if kinds is not None:
        held = held.filter(kind__in=list(kinds))
    for row in held.values_list(*fields):
        account = HeldAccount(*row)
        found[account.user_id].append(account)
    return found


def asset_get(*, user, asset_id) -> Asset:
    try:
        return Asset.objects.get(user=user, id=int(asset_id))
    except (Asset.DoesNotExist, TypeError, ValueError):
        raise NotFound(_("No such asset.")) from None


# Where a spending row that names no account comes from (a plan's spending entry): cash first, as a quick
# "spent 50k" usually is; the plans migration that moved entries into the ledger uses the same order.
SPENDING_ACCOUNT_ORDER = (Asset.Kind.CASH, Asset.Kind.E_WALLET, Asset.Kind.BANK_ACCOUNT, Asset.Kind.CREDIT_CARD)


def spending_accounts(*, user, currency: str) -> list[Asset]:
    """The accounts a manual spending row in `currency` may come from: the user's own manual, spendable, open
    ones, in SPENDING_ACCOUNT_ORDER then oldest first. The first is the default."""
    accounts = Asset.objects.filter(
        user=user, currency=currency, source=Source.MANUAL, kind__in=SPENDING_ACCOUNT_ORDER, archived_at__isnull=True
    ).order_by("created_at", "id")
    return sorted(accounts, key=lambda a: SPENDING_ACCOUNT_ORDER.index(a.kind))


def linked_account_list(*, user) -> QuerySet[LinkedAccount]:
    return LinkedAccount.objects.filter(user=user)


def transaction_list(*, user, **filters) -> QuerySet[Transaction]:
    """Newest first, filtered by transaction_filters' arguments (checked by the caller)."""
    return transactions_matching(user=user, lookups=transaction_filters(user=user, **filters))


def transaction_filters(
    *,
    user,
    since: dt.date | None = None,
    until: dt.date | None = None,
    category: str | None = None,
    direction: str | None = None,
    source: str | None = None,
    asset_id: int | str | None = None,
) -> dict:
    """transaction_list's filters as lookups on Transaction beside the user; what is not given is left out. The
    values are the callers' to check (the API's filter serializer, the page's form, the tools' schemas); the
    asset must be the user's."""

    lookups = {}
    if since:
        lookups["occurred_on__gte"] = since
    if until:
        lookups["occurred_on__lte"] = until
    if category:
        lookups["category"] = category
    if direction:
        lookups["direction"] = direction
    if source and source != "all":
        lookups["source"] = source
    if asset_id not in (None, ""):
        # Another user's asset is a 404 here as everywhere, not an empty list that confirms nothing.
        if not Asset.objects.filter(user=user, id=asset_id).exists():
            raise NotFound(_("No such asset."), fields={"asset": [_("No such asset.")]})
        lookups["asset_id"] = asset_id
    return lookups


def transactions_matching(*, user, lookups: dict) -> QuerySet[Transaction]:
    """The user's transactions that match transaction_filters' lookups, newest first."""
    return Transaction.objects.filter(user=user, **lookups).order_by("-occurred_on", "-id")


def transaction_get(*, user, transaction_id) -> Transaction:
    try:
        return Transaction.objects.select_related("asset").get(user=user, id=int(transaction_id))
    except (Transaction.DoesNotExist, TypeError, ValueError):
        raise NotFound(_("No such transaction.")) from None


def spending_read(*, user, currency: str, since: dt.date, until: dt.date) -> CountedRead:
    """Income and spending over [since, until] that count (assets/ledger/totals.py), in `currency`: rows in
    other currencies converted at their day, those with no rate apart in `missing`."""
    return counted_user_read(user=user, currency=currency, since=since, until=until)


def spending_reads(*, user, currencies, since: dt.date, until: dt.date) -> dict[str, CountedRead]:
    """spending_read in each of `currencies`, from one grouped read (and one of the rates)."""
    return counted_reads_in(user=user, currencies=currencies, since=since, until=until)


def expense_totals_by_category(*, user, currency: str, since: dt.date, until: dt.date) -> dict[str, Decimal]:
    """Spending that counts per category over [since, until], in `currency` (rows without a rate left out:
    read spending_read for them)."""
    totals = spending_read(user=user, currency=currency, since=since, until=until).by_category()
    return {category: quantize(total, currency) for category, total in totals.items()}


def expense_totals_by_day(
    *, user, currency: str, since: dt.date, until: dt.date, category_in=None
) -> dict[dt.date, Decimal]:
    """Spending that counts per day over [since, until], in `currency`, over `category_in` if given."""
    read = spending_read(user=user, currency=currency, since=since, until=until)
    if category_in is not None:
        wanted = set(category_in)
        read.groups = [g for g in read.groups if g.category in wanted]
    return {day: quantize(total, currency) for day, total in read.by_day().items()}


def transaction_search(*, user, text: str = "", **filters) -> QuerySet[Transaction]:
    """`transaction_list` plus a text search in the description, newest first. Case and diacritics do not
    matter ("pho" finds "Phở"): the description through PostgreSQL's unaccent, the words folded as the rules
    fold them."""
    qs = transaction_list(user=user, **filters)
    text = fold(text)
    if text:
        qs = qs.alias(plain_description=Unaccent("description")).filter(plain_description__icontains=text)
    return qs


@dataclass(frozen=True)
class Page:
    rows: list
    next_after: tuple[dt.date, int] | None  # the keyset of the last row when older rows remain


def transaction_page(qs: QuerySet[Transaction], *, after: tuple[dt.date, int] | None, size: int) -> Page:
    """One page of a newest-first ledger query, after a keyset (date, id): constant cost however deep the page,
    where an OFFSET would read every row before it (the index is (user, -occurred_on, -id))."""
    if after is not None:
        day, row_id = after
        qs = qs.filter(Q(occurred_on__lt=day) | Q(occurred_on=day, id__lt=row_id))
    rows = list(qs.order_by("-occurred_on", "-id")[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return Page(rows=rows, next_after=(rows[-1].occurred_on, rows[-1].id) if more and rows else None)


@dataclass(frozen=True)
class Totals:
    currency: str
    income: Decimal
    expense: Decimal
    count: int

    @property
    def net(self) -> Decimal:
        return self.income - self.expense


def transaction_totals(qs: QuerySet[Transaction]) -> list[Totals]:
    """Income and spending that count (docs/ledger.md) and the count of every row listed, of a ledger query,
    per currency, in one aggregate query."""
    rows = (
        qs.order_by()
        .values("currency")
        .annotate(
            income=Sum("amount", filter=COUNTS & Q(direction=Transaction.Direction.INCOME), default=Decimal(0)),
            expense=Sum("amount", filter=COUNTS & Q(direction=Transaction.Direction.EXPENSE), default=Decimal(0)),
            count=Count("id"),
        )
        .order_by("currency")
    )
    return [
        Totals(r["currency"], quantize(r["income"], r["currency"]), quantize(r["expense"], r["currency"]), r["count"])
        for r in rows
    ]
