"""Thin tasks: ids in, the account_data modules do the work."""

from django.utils import timezone

from zeus.account_data import erasure, export
from zeus.celery import app


@app.task(name="zeus.build_account_export", acks_late=True, ignore_result=True)
def build_account_export(export_id: str) -> str:
    return export.account_export_build(export_id=export_id)


@app.task(name="zeus.erase_due_accounts", ignore_result=True)
def erase_due_accounts() -> int:
    return erasure.accounts_erase_due(now=timezone.now())


@app.task(name="zeus.expire_account_exports", ignore_result=True)
def expire_account_exports() -> int:
    return export.exports_expire(now=timezone.now())
