"""Signals other apps listen to. Assets cannot import upward (docs/architecture.md): the goals app subscribes to
`synced_income_landed` to settle a debt whose VietQR purpose code a bank feed's row carries."""

from django.dispatch import Signal

synced_income_landed = Signal()  # kwargs: transaction_id, text (the delivery's content); sent on commit
