"""The chat sees a plan's spending entry as the one ledger row it is: in list_transactions, and once in get_plan's
spent today."""

import pytest

from plans.services import plan_entry_create
from tests import factories
from tests.chat.tools.helpers import call, ctx_for
from tests.plans import factories as plan_factories

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_chat_lists_the_entry_and_counts_it_once(clock, alice):
    wallet = factories.asset(alice, name="Wallet", kind="cash")
    plan = plan_factories.plan(alice, active=True)
    made = plan_entry_create(user=alice, plan_id=plan.id, kind="discretionary", amount="85000", note="Phở")
    ctx = ctx_for(alice)
    listed = call(ctx, "list_transactions", {"limit": 5}).output["transactions"]
    assert [(t["id"], t["description"], t["amount"]) for t in listed] == [(made.id, "Phở", "85000")]
    assert made.asset_id == wallet.id
    shown = call(ctx, "get_plan").output["plan"]
    assert shown["spent_today"] == "85000"  # the row, not the row and an entry
