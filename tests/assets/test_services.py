import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from assets import selectors, services
from assets.models import Source, Transaction
from tests import factories
from zeus.errors import NotFound, SyncedReadOnly, ValidationFailed
from zeus.services import profile_update

pytestmark = pytest.mark.django_db


def test_asset_create_uses_the_users_currency_and_parses_shorthand(alice):
    asset = services.asset_create(user=alice, name="  My   wallet ", kind="cash", balance="2tr")
    assert (asset.name, asset.balance, asset.currency, asset.source) == ("My wallet", 2_000_000, "VND", "manual")


def test_asset_update_and_delete_refuse_synced_assets(alice):
    asset = factories.asset(alice, source=Source.SYNCED)
    with pytest.raises(SyncedReadOnly):
        services.asset_update(user=alice, asset_id=asset.id, name="X")
    with pytest.raises(SyncedReadOnly):
        services.asset_delete(user=alice, asset_id=asset.id)


@pytest.mark.parametrize("asset_id", ["abc", None, 10**30, -1])
def test_asset_update_treats_a_bad_id_as_not_found(alice, asset_id):
    with pytest.raises(NotFound):
        services.asset_update(user=alice, asset_id=asset_id, name="X")


def test_services_never_touch_another_users_rows(alice, bob):
    asset = factories.asset(bob)
    txn = factories.txn(bob)
    with pytest.raises(NotFound):
        services.asset_delete(user=alice, asset_id=asset.id)
    with pytest.raises(NotFound):
        services.transaction_update(user=alice, transaction_id=txn.id, amount="1")
    with pytest.raises(NotFound):
        services.transaction_delete(user=alice, transaction_id=txn.id)
    with pytest.raises(NotFound):
        services.transaction_create(user=alice, amount="1k", asset_id=asset.id)


@pytest.mark.parametrize("text", ["a\x00b", "a\ud800b"])
def test_text_the_database_cannot_store_is_refused(alice, text):
    with pytest.raises(ValidationFailed):
        services.asset_create(user=alice, name=text, kind="cash")
    with pytest.raises(ValidationFailed):
        services.transaction_create(user=alice, amount="1k", description=text)


def test_transaction_create_defaults_to_an_expense_today_in_the_users_timezone(alice):
    profile_update(user=alice, timezone_name="Pacific/Kiritimati")
    txn = services.transaction_create(user=alice, amount="50k")
    assert txn.direction == "expense" and txn.category == "other"
    # UTC+14: from 10:00 UTC its date is already tomorrow's in Ho Chi Minh City's, the default it must not use.
    assert txn.occurred_on == dt.datetime.now(dt.UTC).astimezone(ZoneInfo("Pacific/Kiritimati")).date()


def test_transaction_update_refuses_synced_rows(alice):
    txn = factories.txn(alice, source=Source.SYNCED, external_id="x")
    with pytest.raises(SyncedReadOnly):
        services.transaction_update(user=alice, transaction_id=txn.id, description="mine")
    with pytest.raises(SyncedReadOnly):
        services.transaction_delete(user=alice, transaction_id=txn.id)


def test_transaction_update_requantizes_when_the_currency_changes(alice):
    txn = services.transaction_create(user=alice, amount="12.50", currency="USD")
    assert txn.amount == Decimal("12.50")
    txn = services.transaction_update(user=alice, transaction_id=txn.id, currency="VND")
    assert (txn.amount, txn.currency) == (Decimal("13"), "VND")


def test_transaction_update_refuses_unknown_fields(alice):
    txn = factories.txn(alice)
    with pytest.raises(ValidationFailed):
        services.transaction_update(user=alice, transaction_id=txn.id, source="manual")


def test_transaction_list_applies_filters_and_refuses_another_users_asset(alice, bob):
    """The values are checked where they come in (tests/zeus/test_api_query_filters.py for the API); the
    selector applies them, and an asset must be the user's."""
    factories.txn(alice, occurred_on=dt.date(2026, 11, 1))
    factories.txn(alice, occurred_on=dt.date(2026, 11, 5), direction="income", category="salary")
    assert selectors.transaction_list(user=alice, since=dt.date(2026, 11, 2)).count() == 1
    assert selectors.transaction_list(user=alice, until=dt.date(2026, 11, 2)).count() == 1
    assert selectors.transaction_list(user=alice, direction="expense").count() == 1
    assert selectors.transaction_list(user=alice, category="salary", source="all").count() == 1
    with pytest.raises(NotFound):
        selectors.transaction_list(user=alice, asset_id=factories.asset(bob).id)


def test_expense_totals_sum_in_the_database_by_category_and_currency(alice):
    factories.txn(alice, amount="100000", category="dining", occurred_on=dt.date(2026, 11, 1))
    factories.txn(alice, amount="50000", category="dining", occurred_on=dt.date(2026, 11, 30))
    factories.txn(alice, amount="70000", category="groceries", occurred_on=dt.date(2026, 11, 2))
    factories.txn(alice, amount="9", category="dining", currency="USD", occurred_on=dt.date(2026, 11, 2))
    factories.txn(alice, amount="1", category="dining", occurred_on=dt.date(2026, 12, 1))
    factories.txn(alice, amount="5", direction="income", category="salary", occurred_on=dt.date(2026, 11, 2))
    totals = selectors.expense_totals_by_category(
        user=alice, currency="VND", since=dt.date(2026, 11, 1), until=dt.date(2026, 11, 30)
    )
    assert totals == {"dining": 150000, "groceries": 70000}
    by_day = selectors.expense_totals_by_day(
        user=alice, currency="VND", since=dt.date(2026, 11, 1), until=dt.date(2026, 11, 30), category_in=["dining"]
    )
    assert by_day == {dt.date(2026, 11, 1): 100000, dt.date(2026, 11, 30): 50000}


def test_deleting_an_asset_keeps_its_transactions(alice):
    asset = factories.asset(alice)
    txn = factories.txn(alice, asset=asset)
    services.asset_delete(user=alice, asset_id=asset.id)
    txn.refresh_from_db()
    assert txn.asset is None
    assert Transaction.objects.count() == 1
