"""Thin beat tasks of the assets app: the work lives in assets/feeds/reconcile.py and assets/ledger/."""

from assets.feeds.reconcile import feeds_reconcile
from assets.ledger.vietcombank import exchange_rates_fetch_vietcombank
from zeus.celery import app


@app.task(name="assets.reconcile_feeds")
def reconcile_feeds() -> int:
    """Pulls each connected provider's last days; returns how many rows landed that webhooks had missed."""
    return feeds_reconcile().landed


@app.task(name="assets.fetch_exchange_rates", ignore_result=True, autoretry_for=(OSError,), max_retries=3)
def fetch_exchange_rates() -> int:
    return exchange_rates_fetch_vietcombank()
