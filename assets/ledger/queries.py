"""The one query for money that counts (docs/ledger.md, "Money that counts").

A row in a paired transfer moves money between two of the user's own accounts, and an excluded row was
left out by its owner: neither is income or spending anywhere. A split row counts as its parts, each with its
own category. Every aggregate of income or spending reads through `counted()`, so that rule lives here alone.
"""

from django.db.models import F, Q, QuerySet
from django.db.models.functions import Coalesce

# The condition itself, for the one read that sums whole rows beside rows that do not count (a page of the
# ledger's income and spending beside its count of every row listed): a row counts unless it is in a paired
# transfer or its owner excluded it. A split row's parts sum to it, so whole rows are enough there.
COUNTS = Q(transfer__isnull=True, excluded=False)


class TransactionQuerySet(QuerySet):
    def counted(self) -> "TransactionQuerySet":
        """The entries that count: one per unsplit row and one per part of a split row (a LEFT JOIN on the
        parts), each annotated with `counted_amount`, `counted_category` (always one of the fixed categories,
        the kind of a user category) and `counted_user_category_id`. Aggregate those names, never `amount`
        and `category`: a split row's own amount and category do not count, its parts do.

        Rows in a paired transfer and excluded rows are left out. Filter, group and sum on the rest as on
        any queryset: `Transaction.objects.counted().filter(user=u, direction="expense")
        .values("counted_category").annotate(total=Sum("counted_amount"))`.
        """
        return self.filter(COUNTS).annotate(
            counted_amount=Coalesce(F("splits__amount"), F("amount")),
            counted_category=Coalesce(F("splits__category"), F("category")),
            counted_user_category_id=Coalesce(F("splits__user_category_id"), F("user_category_id")),
        )

    def not_excluded(self) -> "TransactionQuerySet":
        """Rows their owner did not leave out, transfers included: for reads about the movements themselves
        (recurring series, where a monthly savings transfer is a series of kind "transfer")."""
        return self.filter(excluded=False)

    def not_transfers(self) -> "TransactionQuerySet":
        """Rows that are neither in a transfer nor excluded, one per row, splits not expanded: for reads that
        list or count rows (a merchant's history, duplicates) rather than add up categories."""
        return self.filter(COUNTS)
