"""Reads of the ledger's own records and of the money that counts, each scoped to one user."""

import datetime as dt
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Case, DateField, Exists, F, OuterRef, Q, QuerySet, Sum, Value, When

from assets.ledger.catalog import category_key
from assets.ledger.conversion import PIVOT, Converted, RateRow, RateTable, convert
from assets.ledger.models import ExchangeRate, ImportBatch, TransactionSplit, Transfer, UserCategory
from assets.ledger.totals import conversion_summary, missing_summary
from assets.models import SPENDABLE_KINDS, Asset, Source, Transaction
from zeus.money import CURRENCY_EXPONENTS, quantize


def rate_table_load(*, user, currencies: Iterable[str], until: dt.date, since: dt.date | None = None) -> RateTable:
    """The rates converting between `currencies` (and VND, the pivot) for days up to `until`: every rate from
    `since` on, plus the latest one before it for each pair, the published ones and the user's own."""
    wanted = set(currencies) | {PIVOT}
    scope = (Q(user__isnull=True) | Q(user=user)) & Q(from_currency__in=wanted, to_currency__in=wanted)
    fields = ("day", "from_currency", "to_currency", "rate", "source", "user_id")
    rows = list(
        ExchangeRate.objects.filter(scope, day__lte=until, **({"day__gte": since} if since else {})).values_list(
            *fields
        )
    )
    if since is not None:
        before = (
            ExchangeRate.objects.filter(scope, day__lt=since)
            .order_by("from_currency", "to_currency", "-day")
            .distinct("from_currency", "to_currency")
            .values_list(*fields)
        )
        rows.extend(before)
        # The latest published rate before `since` may hide an own rate of the same pair on an earlier day
        # that nobody reads: the published one is later, and the latest rate on or before a day is the rule.
    return RateTable(
        RateRow(day=day, from_currency=f, to_currency=t, rate=rate, source=source, own=owner is not None)
        for day, f, t, rate, source, owner in rows
    )


@dataclass
class CountedTotals:
    """Money that counts over a span, in one currency, per fixed category; rows with no rate apart."""

    currency: str
    by_category: dict[str, Decimal] = field(default_factory=dict)
    missing: list[Converted] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return quantize(sum(self.by_category.values(), Decimal(0)), self.currency)


def counted_totals(*, user, currency: str, since: dt.date, until: dt.date, direction: str) -> CountedTotals:
    """Income or spending between two days, per fixed category, converted into `currency` at each row's own
    day: one grouped read of the counted entries (rows in `currency` summed whole, others per day) and, when
    another currency appears, one read of the rates."""
    day = Case(When(currency=currency, then=Value(None, output_field=DateField())), default=F("occurred_on"))
    groups = list(
        Transaction.objects.counted()
        .filter(user=user, direction=direction, occurred_on__gte=since, occurred_on__lte=until)
        .annotate(day=day)
        .values("counted_category", "currency", "day")
        .annotate(total=Sum("counted_amount"))
        .order_by()
    )
    foreign = {g["currency"] for g in groups if g["currency"] != currency}
    table = rate_table_load(user=user, currencies=foreign | {currency}, until=until) if foreign else RateTable()
    result = CountedTotals(currency=currency)
    for group in groups:
        amount = group["total"]
        if group["currency"] != currency:
            converted = convert(amount, group["currency"], group["day"], to=currency, table=table)
            if converted.missing:
                result.missing.append(converted)
                continue
            amount = converted.converted
        category = group["counted_category"]
        result.by_category[category] = result.by_category.get(category, Decimal(0)) + amount
    result.by_category = {c: quantize(v, currency) for c, v in result.by_category.items()}
    return result


def balances_converted(*, user, accounts: Iterable[Asset], currency: str, day: dt.date) -> dict[int, dict]:
    """Each account's balance in another currency than `currency`, converted at the latest rate on or before
    `day`, for the pages to show beside it: {asset id: {"converted": [...], "rate_missing": [...]}} in
    assets.ledger.shapes' shapes. One read of the rates, none when every account is in `currency`."""
    foreign = [a for a in accounts if a.currency != currency]
    if not foreign:
        return {}
    table = rate_table_load(user=user, currencies={a.currency for a in foreign} | {currency}, until=day)
    out = {}
    for account in foreign:
        item = convert(account.balance, account.currency, day, to=currency, table=table)
        out[account.id] = {
            "converted": conversion_summary([item]),
            "rate_missing": missing_summary([item]) if item.missing else [],
        }
    return out


@dataclass(frozen=True)
class RateAnswer:
    day: dt.date
    from_currency: str
    to_currency: str
    rate: Decimal
    source: str


def rate_list(*, user, base: str, day: dt.date) -> list[RateAnswer]:
    """What one `base` buys of every other currency on `day` (the latest rate on or before it), where known."""
    table = rate_table_load(user=user, currencies=CURRENCY_EXPONENTS, until=day)
    answers = []
    for other in CURRENCY_EXPONENTS:
        if other == base:
            continue
        found = table.rate_on(base, other, day)
        if found is not None:
            answers.append(RateAnswer(found.day, base, other, found.rate, found.source))
    return answers


# Transfers


def transfer_list(*, user, status: str = Transfer.Status.PAIRED) -> QuerySet[Transfer]:
    return Transfer.objects.filter(user=user, status=status).select_related("outgoing", "incoming")


@dataclass(frozen=True)
class TransferLink:
    id: int
    counterpart: int | None
    status: str

    def as_dict(self) -> dict:
        return {"id": self.id, "counterpart": self.counterpart, "status": self.status}


def transfer_links(*, user_id: int, transaction_ids: Iterable[int]) -> dict[int, TransferLink]:
    """Each row's transfer (paired, else the first suggestion naming it), for a page of rows: one read."""
    ids = list(transaction_ids)
    if not ids:
        return {}
    links: dict[int, TransferLink] = {}
    wanted = set(ids)
    # "paired" sorts before "suggested": a paired transfer wins, then the oldest suggestion.
    transfers = Transfer.objects.filter(Q(outgoing_id__in=ids) | Q(incoming_id__in=ids), user_id=user_id).order_by(
        "status", "id"
    )
    for transfer in transfers.values("id", "outgoing_id", "incoming_id", "status"):
        out, inc = transfer["outgoing_id"], transfer["incoming_id"]
        for mine, other in ((out, inc), (inc, out)):
            if mine in wanted and mine not in links:
                links[mine] = TransferLink(transfer["id"], other, transfer["status"])
    return links


def import_batch_list(*, user) -> QuerySet[ImportBatch]:
    return ImportBatch.objects.filter(user=user)


def user_category_list(*, user) -> QuerySet[UserCategory]:
    return UserCategory.objects.filter(user=user)


# What a transaction's JSON gains (docs/contract/rest.md): `transfer`, `note`, `excluded`, `split`, and
# `category` naming the user's own category as "c:<id>".


def split_parts(*, transaction_ids: Iterable[int]) -> dict[int, list[dict]]:
    """Each split row's parts as its JSON shows them, for a page of rows: one read."""
    parts: dict[int, list[dict]] = {}
    rows = TransactionSplit.objects.filter(transaction_id__in=list(transaction_ids)).select_related("transaction")
    for part in rows.only("transaction_id", "amount", "category", "user_category_id", "note", "transaction__currency"):
        parts.setdefault(part.transaction_id, []).append(
            {
                "amount": str(quantize(part.amount, part.transaction.currency)),
                "category": category_key(part.category, part.user_category_id),
                "note": part.note,
            }
        )
    return parts


def ledger_flags() -> dict:
    """What a page of rows reads beside its columns, for transaction_ledgers: whether each row is split and
    whether a transfer names it. Most rows are neither, so the page reads the parts and transfers of those
    rows alone, not of every id on it."""
    return dict(_ledger_flag_expressions())


@functools.cache
def _ledger_flag_expressions() -> dict:
    # Built once per process: the expressions name no user and no value, and annotate() resolves a copy of
    # each, so every page and every chat turn can start from the same ones instead of building two querysets.
    return {
        "has_split": Exists(TransactionSplit.objects.filter(transaction=OuterRef("pk"))),
        "has_transfer": Exists(Transfer.objects.filter(Q(outgoing=OuterRef("pk")) | Q(incoming=OuterRef("pk")))),
    }


def with_ledger_flags(qs: QuerySet[Transaction]) -> QuerySet[Transaction]:
    """A ledger query whose rows carry ledger_flags(), for the readers of model rows."""
    return qs.annotate(**ledger_flags())


def _flagged(row) -> tuple[int, bool, bool]:
    if isinstance(row, dict):
        return row["id"], row["has_split"], row["has_transfer"]
    return row.id, row.has_split, row.has_transfer


def transaction_ledgers(*, user, rows: Iterable) -> dict[int, dict]:
    """Each row's `transfer` and `split` as its JSON shows them, by id, for a page of rows read with
    ledger_flags() (`.values()` rows, named `.values_list()` rows or model rows): the REST list, the
    /transactions page and the chat's list_transactions read them here. A read of the transfers and one of the
    parts, each only when a row of the page has one, whatever the history."""
    flagged = [_flagged(row) for row in rows]
    links = transfer_links(user_id=user.pk, transaction_ids=[i for i, _split, transfer in flagged if transfer])
    with_split = [i for i, split, _transfer in flagged if split]
    parts = split_parts(transaction_ids=with_split) if with_split else {}
    return {i: {"transfer": links[i].as_dict() if i in links else None, "split": parts.get(i)} for i, _s, _t in flagged}


def transaction_ledger_fields(*, txn: Transaction) -> dict:
    """One row's ledger fields, for the answers about a single row."""
    link = transfer_links(user_id=txn.user_id, transaction_ids=[txn.id]).get(txn.id)
    return {
        "category": category_key(txn.category, txn.user_category_id),
        "note": txn.note,
        "excluded": txn.excluded,
        "transfer": link.as_dict() if link else None,
        "split": split_parts(transaction_ids=[txn.id]).get(txn.id),
    }


def payment_account_list(*, user) -> QuerySet[Asset]:
    """The accounts a payment may be recorded on (pages' forms, the chat's asset_selector): the user's own
    manual cash, bank, e-wallet and credit-card accounts, not archived. A motorbike pays for nothing."""
    return Asset.objects.filter(user=user, source=Source.MANUAL, kind__in=SPENDABLE_KINDS, archived_at__isnull=True)


def wallet_list(*, user) -> QuerySet[Asset]:
    """Every account of the /wallets page, the active ones first."""
    return (
        Asset.objects.filter(user=user)
        .select_related("linked_account")
        .order_by(F("archived_at").asc(nulls_first=True), "kind", "name", "id")
    )
