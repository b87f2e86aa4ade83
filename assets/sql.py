"""The assets statements that are better written in SQL than through the ORM, each with its reason."""

import hashlib

from django.db import connection

# A synced row's claim: the first statement of its landing's transaction, held until that transaction ends.
# SePay sends a payment again while its first delivery may still be landing; with the claim the second waits
# here, before it locks the account or builds a row, and then finds the first one's committed row with one
# read. The ORM has no advisory locks (a row lock needs a row, and the payment's row is what is being
# written). The two-key form, its first key naming these claims, keeps them apart from any other advisory
# lock; two ids whose hashes meet only wait for each other.
_CLAIM = "SELECT pg_advisory_xact_lock(%s, %s)"
_SYNCED_ROW = 0x5E9A  # the first key: a synced row's claim


def synced_row_claim(*, user_id: int, external_id: str) -> None:
    """Waits until no other transaction claims this user's external id, then holds the claim until this
    transaction ends. Inside a transaction only."""
    digest = hashlib.blake2b(f"{user_id}:{external_id}".encode(), digest_size=4).digest()
    with connection.cursor() as cursor:
        cursor.execute(_CLAIM, [_SYNCED_ROW, int.from_bytes(digest, "big", signed=True)])
