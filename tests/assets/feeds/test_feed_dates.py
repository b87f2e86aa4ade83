"""A feed's row is dated on the bank's day, as a statement's is (docs/feeds.md): a Vietnamese bank's morning
payment is that Vietnamese day for a user whose own clock is still on the day before."""

import pytest

from assets.models import Transaction
from tests.assets.feeds.sepay import deliver, payload
from tests.assets.feeds.test_casso import casso_body, post_casso


@pytest.fixture
def abroad(alice):
    alice.profile.timezone = "America/Los_Angeles"  # 08:00 in Vietnam is 17:00 the day before here
    alice.profile.save(update_fields=["timezone"])
    return alice


@pytest.mark.django_db
def test_a_sepay_and_a_casso_payment_keep_the_banks_day_for_a_user_abroad(abroad, alice_api, client):
    sepay = alice_api.post("/api/v1/integrations/sepay", {"auth": "api_key"}, format="json").json()
    assert deliver(client, sepay, payload(transactionDate="2026-11-30 08:00:00")).status_code == 200
    casso = alice_api.post("/api/v1/integrations/casso", {}, format="json").json()
    assert post_casso(client, casso, casso_body(transactionDateTime="2026-11-30 08:00:00")).status_code == 200
    days = dict(Transaction.objects.filter(user=abroad).values_list("external_id", "occurred_on"))
    assert {k: str(v) for k, v in days.items()} == {"sepay:92704": "2026-11-30", "casso:5061": "2026-11-30"}
