"""A photo or PDF capture whose drafts were all discarded keeps nothing of its file: no transaction came from
it, and its owner said none should. The row stays (what was shared, when), marked discarded, as a discarded
statement file's does; the file leaves the storage once the discard is committed.

Called by assets.banktexts when a draft is discarded, inside that transaction (this module imports no
service, so banktexts can reach it without a cycle)."""

from django.db import transaction as db_transaction

from assets.captures.models import Capture
from assets.models import BankTextDraft


def capture_close_if_all_discarded(*, capture_id: int) -> bool:
    """True when this closed the capture. The capture row is locked before its drafts are counted, so two
    of its last drafts discarded at once close it once: the second to take the lock sees the first's discard."""
    capture = Capture.objects.select_for_update().filter(id=capture_id, status=Capture.Status.DRAFTED).first()
    if capture is None:
        return False
    if BankTextDraft.objects.filter(capture=capture).exclude(status=BankTextDraft.Status.DISCARDED).exists():
        return False
    name, storage = capture.file.name, capture.file.storage
    capture.status = Capture.Status.DISCARDED
    capture.file.name = ""
    capture.save(update_fields=["status", "file"])
    if name:
        db_transaction.on_commit(lambda: storage.delete(name))
    return True
