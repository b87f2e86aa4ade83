"""Thin ledger tasks."""

from celery import shared_task

from assets.ledger.vietcombank import exchange_rates_fetch_vietcombank


@shared_task(name="assets.fetch_exchange_rates", ignore_result=True, autoretry_for=(OSError,), max_retries=3)
def fetch_exchange_rates() -> int:
    return exchange_rates_fetch_vietcombank()
