import pytest
from rest_framework.test import APIClient

from tests import factories
from tests.processes import wait_for
from zeus.models import AccountExport, Notification


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_an_export_asked_over_rest_is_built_by_a_real_worker_after_the_commit(media):
    from celery.contrib.testing.worker import start_worker

    from zeus.celery import app

    alice = factories.user("alice")
    factories.txn(alice, amount="70000", description="Bánh mì")
    api = APIClient()
    api.force_authenticate(alice)
    app.conf.task_always_eager = False
    try:
        with start_worker(app, perform_ping_check=False, shutdown_timeout=15):
            export_id = api.post("/api/v1/account/export").json()["id"]
            assert wait_for(lambda: AccountExport.objects.get(id=export_id).status == "ready")
    finally:
        app.conf.task_always_eager = True
    export = AccountExport.objects.get(id=export_id)
    assert (media / export.file.name).stat().st_size == export.size > 0
    assert Notification.objects.filter(user=alice, kind="account_export_ready").count() == 1
