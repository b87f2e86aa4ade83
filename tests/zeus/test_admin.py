"""Every model registered in the admin loads for support staff, in a constant number of queries.

The generic tests walk `admin.site._registry`, so an app that registers a model later is covered without
touching this file: models named in ROW_FACTORIES get rows (and the query bound), the others get their
pages loaded as they are.
"""

import datetime as dt
import itertools
from decimal import Decimal

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from assets.models import Asset, LinkedAccount, Source, Transaction
from goals.models import Budget, Goal
from tests import factories
from zeus.models import DeviceToken, ModelConsent, Notification, Profile
from zeus.timeutil import user_today

User = get_user_model()
_serial = itertools.count()


def _owner():
    return factories.user(f"person{next(_serial)}")


def _linked_account(i):
    return factories.linked_account(_owner(), masked_number=f"•••• {i:04d}", balance="1500000")


def _asset(i):
    owner = _owner()
    if i % 2:
        account = factories.linked_account(owner, masked_number=f"•••• {i:04d}")
        return factories.asset(
            owner, name=f"Bank {i}", kind="bank_account", source=Source.SYNCED, linked_account=account
        )
    return factories.asset(owner, name=f"Wallet {i}", balance="250000")


def _transaction(i):
    owner = _owner()
    wallet = factories.asset(owner)
    source = Source.SYNCED if i % 2 else Source.MANUAL
    return factories.txn(
        owner,
        amount=str(50000 + i),
        description=f"Phở {i}",
        source=source,
        external_id=f"ext-{i}" if source == Source.SYNCED else None,
        asset=wallet,
    )


ROW_FACTORIES = {
    User: lambda i: _owner(),
    Group: lambda i: Group.objects.create(name=f"group {i}"),
    Profile: lambda i: _owner().profile,
    DeviceToken: lambda i: factories.api_key(_owner(), name=f"Phone {i}") and DeviceToken.objects.latest("id"),
    Notification: lambda i: Notification.objects.create(user=_owner(), kind="insight", title=f"Spike {i}"),
    ModelConsent: lambda i: ModelConsent.objects.filter(user=_owner()).latest("id"),  # factories.user agreed
    LinkedAccount: _linked_account,
    Asset: _asset,
    Transaction: _transaction,
    Goal: lambda i: factories.goal(_owner(), name=f"Goal {i}", current_amount="250000000"),
    Budget: lambda i: factories.budget(_owner(), category="groceries", amount="6000000"),
}

REGISTERED = list(admin.site._registry)
QUERY_BOUND = 10


def _label(model) -> str:
    return f"{model._meta.app_label}.{model._meta.model_name}"


def _changelist_url(model) -> str:
    return f"/admin/{model._meta.app_label}/{model._meta.model_name}/"


def _first_change_url(model, staff) -> str | None:
    """The change link the changelist itself renders (some admins, like the token's, map ids)."""
    model_admin = admin.site._registry[model]
    request = RequestFactory().get(_changelist_url(model))
    request.user = staff
    changelist = model_admin.get_changelist_instance(request)
    changelist.get_results(request)
    rows = list(changelist.result_list)
    return changelist.url_for_result(rows[0]) if rows else None


def _make_rows(model, count: int) -> None:
    for _ in range(count):
        ROW_FACTORIES[model](next(_serial))


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


@pytest.mark.parametrize("model", REGISTERED, ids=_label)
def test_every_admin_page_loads_for_support_staff(model, staff, staff_client):
    if model in ROW_FACTORIES:
        _make_rows(model, 2)
    url = _changelist_url(model)

    assert staff_client.get(url).status_code == 200
    assert staff_client.get(url, {"q": "zz"}).status_code == 200
    if admin.site._registry[model].has_add_permission(_request_as(staff)):
        assert staff_client.get(f"{url}add/").status_code == 200
    change_url = _first_change_url(model, staff)
    if model in ROW_FACTORIES:
        assert change_url is not None
    if change_url:
        assert staff_client.get(change_url).status_code == 200


def _request_as(user):
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


@pytest.mark.parametrize("model", [m for m in REGISTERED if m in ROW_FACTORIES], ids=_label)
def test_changelists_run_a_constant_number_of_queries(model, staff_client):
    url = _changelist_url(model)
    _make_rows(model, 2)
    staff_client.get(url)  # warm the session and content-type caches
    with CaptureQueriesContext(connection) as few:
        assert staff_client.get(url).status_code == 200
    _make_rows(model, 28)
    with CaptureQueriesContext(connection) as many:
        response = staff_client.get(url)
    assert response.status_code == 200
    assert response.context["cl"].result_count >= 30
    assert len(many) == len(few), [q["sql"] for q in many.captured_queries]
    assert len(many) <= QUERY_BOUND


def test_a_synced_transactions_page_is_read_only(alice, staff_client):
    txn = factories.txn(alice, amount="240000", source=Source.SYNCED, external_id="vcb-1", description="CGV Cinemas")
    url = f"/admin/assets/transaction/{txn.pk}/change/"

    page = staff_client.get(url)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert b'name="amount"' not in page.content

    posted = staff_client.post(
        url,
        {
            "occurred_on": txn.occurred_on.isoformat(),
            "direction": "expense",
            "category": "dining",
            "amount": "1",
            "currency": "VND",
            "description": "changed",
        },
    )
    assert posted.status_code == 403
    txn.refresh_from_db()
    assert (txn.amount, txn.description) == (Decimal("240000"), "CGV Cinemas")
    assert staff_client.post(f"/admin/assets/transaction/{txn.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Transaction.objects.filter(pk=txn.pk).exists()


def test_a_linked_account_cannot_be_added_changed_or_deleted(alice, staff_client):
    account = factories.linked_account(alice)
    base = "/admin/assets/linkedaccount/"

    assert staff_client.get(f"{base}add/").status_code == 403
    assert b'name="_save"' not in staff_client.get(f"{base}{account.pk}/change/").content
    assert staff_client.post(f"{base}{account.pk}/change/", {"institution": "X"}).status_code == 403
    assert staff_client.post(f"{base}{account.pk}/delete/", {"post": "yes"}).status_code == 403


def test_deleting_a_user_takes_their_synced_rows_along(alice, staff_client):
    account = factories.linked_account(alice)
    factories.txn(alice, source=Source.SYNCED, external_id="vcb-1")

    response = staff_client.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not User.objects.filter(pk=alice.pk).exists()
    assert not LinkedAccount.objects.filter(pk=account.pk).exists()


def test_a_manual_transaction_is_edited_through_the_service_rules(alice, staff_client):
    txn = factories.txn(alice, amount="100000", description="Phở Hòa")
    url = f"/admin/assets/transaction/{txn.pk}/change/"
    form = {
        "occurred_on": txn.occurred_on.isoformat(),
        "direction": "expense",
        "category": "salary",
        "amount": "85000",
        "currency": "VND",
        "description": "Phở Hòa",
    }

    refused = staff_client.post(url, form)
    assert refused.status_code == 200
    assert "category" in refused.context["adminform"].form.errors

    refused = staff_client.post(url, {**form, "category": "dining", "amount": "85000.4"})  # no such amount of dong
    assert refused.status_code == 200
    txn.refresh_from_db()
    assert txn.amount == Decimal("100000")

    assert staff_client.post(url, {**form, "category": "dining", "amount": "85000"}).status_code == 302
    txn.refresh_from_db()
    assert txn.amount == Decimal("85000")


def test_a_transaction_added_in_the_admin_is_manual(alice, staff_client):
    response = staff_client.post(
        "/admin/assets/transaction/add/",
        {
            "user": alice.pk,
            "occurred_on": "2026-11-20",
            "direction": "income",
            "category": "bonus",
            "amount": "3000000",
            "currency": "VND",
            "description": "Thưởng",
        },
    )

    assert response.status_code == 302
    txn = Transaction.objects.get(user=alice)
    assert (txn.source, txn.amount, txn.occurred_on) == (Source.MANUAL, Decimal("3000000"), dt.date(2026, 11, 20))


def test_a_synced_asset_is_read_only_but_a_manual_one_is_not(alice, staff_client):
    synced = factories.asset(alice, name="Vietcombank", kind="bank_account", source=Source.SYNCED)
    manual = factories.asset(alice, name="Cash", balance="100000")

    assert staff_client.post(f"/admin/assets/asset/{synced.pk}/change/", {"name": "x"}).status_code == 403
    response = staff_client.post(
        f"/admin/assets/asset/{manual.pk}/change/", {"name": "Cash wallet", "kind": "cash", "balance": "2000000"}
    )
    assert response.status_code == 302
    manual.refresh_from_db()
    assert (manual.name, manual.balance) == ("Cash wallet", Decimal("2000000"))


def test_the_goal_list_shows_derived_progress(alice, staff_client):
    factories.goal(alice, name="Quỹ khẩn cấp", target_amount="60000000", current_amount="18000000")

    response = staff_client.get("/admin/goals/goal/")

    assert response.status_code == 200
    assert "30.0" in response.content.decode()


def test_the_budget_page_shows_spent_and_remaining_this_month(alice, staff_client):
    budget = factories.budget(alice, category="dining", amount="5000000")
    factories.txn(alice, amount="1200000", category="dining", occurred_on=user_today(alice))

    body = staff_client.get(f"/admin/goals/budget/{budget.pk}/change/").content.decode()

    assert "₫1,200,000" in body  # in the staff member's language (English here)
    assert "₫3,800,000" in body


def test_changing_a_profile_inline_goes_through_the_profile_rules(alice, staff_client):
    url = f"/admin/auth/user/{alice.pk}/change/"
    page = staff_client.get(url)
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update(
        {
            "date_joined_0": alice.date_joined.strftime("%Y-%m-%d"),
            "date_joined_1": alice.date_joined.strftime("%H:%M:%S"),
            "profile-TOTAL_FORMS": "1",
            "profile-INITIAL_FORMS": "1",
            "profile-MIN_NUM_FORMS": "1",
            "profile-MAX_NUM_FORMS": "1",
            "profile-0-id": alice.profile.pk,
            "profile-0-user": alice.pk,
            "profile-0-display_name": "Alice",
            "profile-0-currency": "USD",
            "profile-0-timezone": "Mars/Olympus",
        }
    )
    data.pop("groups", None)
    data.pop("user_permissions", None)
    data.pop("last_login", None)

    refused = staff_client.post(url, data)
    assert refused.status_code == 200
    alice.profile.refresh_from_db()
    assert alice.profile.timezone == "Asia/Ho_Chi_Minh"

    assert staff_client.post(url, {**data, "profile-0-timezone": "Europe/Paris"}).status_code == 302
    alice.profile.refresh_from_db()
    assert (alice.profile.currency, alice.profile.timezone) == ("USD", "Europe/Paris")


def test_the_user_autocomplete_answers_for_staff(alice, staff_client):
    response = staff_client.get(
        "/admin/autocomplete/",
        {"app_label": "assets", "model_name": "transaction", "field_name": "user", "term": "ali"},
    )

    assert response.status_code == 200
    assert [row["text"] for row in response.json()["results"]] == ["alice"]


def test_someone_who_is_not_staff_is_sent_to_the_admin_login(alice, client):
    client.force_login(alice)

    response = client.get("/admin/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_an_anonymous_visitor_is_sent_to_the_admin_login(client, db):
    response = client.get("/admin/assets/transaction/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_a_notification_added_in_the_admin_is_sent_and_then_read_only(alice, staff_client):
    response = staff_client.post(
        "/admin/zeus/notification/add/",
        {"user": alice.pk, "kind": "admin_reply", "title": "We fixed your import", "body": "", "cta_url": "/chat"},
    )

    assert response.status_code == 302
    notification = Notification.objects.get(user=alice)
    assert (notification.kind, notification.title) == ("admin_reply", "We fixed your import")
    url = f"/admin/zeus/notification/{notification.pk}/change/"
    assert b'name="_save"' not in staff_client.get(url).content
    assert staff_client.post(url, {"title": "changed"}).status_code == 403


def test_a_goal_added_in_the_admin_starts_today_and_refuses_a_past_deadline(alice, staff_client):
    form = {
        "user": alice.pk,
        "name": "Mua xe",
        "kind": "savings",
        "target_amount": "90000000",
        "current_amount": "0",
        "currency": "VND",
        "deadline": "2020-01-01",
    }

    refused = staff_client.post("/admin/goals/goal/add/", form)
    assert refused.status_code == 200
    assert "deadline" in refused.context["adminform"].form.errors

    deadline = user_today(alice) + dt.timedelta(days=400)
    assert staff_client.post("/admin/goals/goal/add/", {**form, "deadline": deadline.isoformat()}).status_code == 302
    goal = Goal.objects.get(user=alice)
    assert (goal.started_on, goal.status, goal.deadline) == (user_today(alice), "active", deadline)


def test_a_budget_and_an_asset_are_added_and_changed_in_the_admin(alice, staff_client):
    budget = {"user": alice.pk, "category": "dining", "amount": "5000000", "currency": "VND"}
    assert staff_client.post("/admin/goals/budget/add/", budget).status_code == 302
    added = Budget.objects.get(user=alice)
    assert (added.category, added.amount) == ("dining", Decimal("5000000"))
    change = {"category": "dining", "amount": "6500000"}
    assert staff_client.post(f"/admin/goals/budget/{added.pk}/change/", change).status_code == 302
    added.refresh_from_db()
    assert added.amount == Decimal("6500000")

    asset = {"user": alice.pk, "name": "VIB", "kind": "credit_card", "balance": "100000", "currency": "VND"}
    assert (
        staff_client.post("/admin/assets/asset/add/", {**asset, "statement_day": "20", "due_day": "5"}).status_code
        == 302
    )
    card = Asset.objects.get(user=alice)
    assert (card.name, card.balance, card.statement_day, card.due_day) == ("VIB", Decimal("100000"), 20, 5)


def test_a_credit_cards_cycle_is_set_in_the_admin_and_checked_as_the_api_checks_it(alice, staff_client):
    card = factories.asset(alice, name="VIB", kind="credit_card", balance="100000")
    url = f"/admin/assets/asset/{card.pk}/change/"
    form = {"name": "VIB", "kind": "credit_card", "balance": "100000"}
    assert staff_client.post(url, {**form, "statement_day": "20", "due_day": "5"}).status_code == 302
    card.refresh_from_db()
    assert (card.statement_day, card.due_day) == (20, 5)
    refused = staff_client.post(url, {**form, "kind": "cash", "statement_day": "20", "due_day": "5"})
    assert refused.status_code == 200 and "Only for a credit card." in refused.content.decode()
    assert staff_client.post(url, {**form, "statement_day": "20", "due_day": ""}).status_code == 200
    card.refresh_from_db()
    assert (card.kind, card.statement_day, card.due_day) == ("credit_card", 20, 5)
