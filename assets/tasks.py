"""Beat tasks of the assets app. Thin: the work lives in assets/feeds/reconcile.py."""

from celery import shared_task

from assets.feeds.reconcile import feeds_reconcile


@shared_task(name="assets.reconcile_feeds")
def reconcile_feeds() -> int:
    """Pulls each connected provider's last days; returns how many rows landed that webhooks had missed."""
    return feeds_reconcile().landed
