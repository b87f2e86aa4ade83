"""What one SePay delivery costs in SQL statements (the budget pinned here: docs/feeds.md, "What a delivery
does"), whatever the user's history; and the twin delivery that read the connection before its first landed."""

import json
import threading
from decimal import Decimal

import pytest
from django.db import connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from assets.feeds.payload import parse_payload
from assets.feeds.selectors import sepay_delivery_context
from assets.feeds.services import sepay_delivery_land
from assets.models import Asset, LinkedAccount, Transaction
from assets.rules.services import rule_create
from assets.sql import synced_row_claim
from tests import factories
from tests.assets.feeds.sepay import deliver, payload
from tests.assets.feeds.test_sepay import api_for, connect
from tests.race import at_once
from zeus.models import Notification

# A new id into a known account: the connection with its user and profile, one read; then one transaction (its
# BEGIN and COMMIT, or in a test's own transaction a savepoint and its release): the id's claim, the look for
# it, the user's rules, the account locked, the look for a confirmed bank text of the same payment, the row,
# its balance on the asset and on the account, the inbox row, the user's pairing lock and the look for a
# counterpart.
NEW_ID = 1 + 11 + 2
# A retry of a landed id: the connection, then the claim and the look that finds it.
RETRY = 1 + 2 + 2


@pytest.fixture
def webhook():
    return Client()


def _token(connection: dict) -> str:
    return connection["webhook_url"].rstrip("/").rsplit("/", 1)[1]


def test_a_new_id_costs_a_fixed_number_of_statements_and_a_retry_one(
    alice, alice_api, webhook, django_assert_num_queries
):
    connection = connect(alice_api, "hmac")
    deliver(webhook, connection, payload(id=1))  # the account's first delivery creates it
    for n in range(2, 5):  # the count does not grow with the ledger
        with django_assert_num_queries(NEW_ID):
            assert deliver(webhook, connection, payload(id=n, accumulated=1000 * n)).json() == {"success": True}
    with django_assert_num_queries(RETRY):
        assert deliver(webhook, connection, payload(id=4)).json() == {"success": True}
    assert Transaction.objects.filter(user=alice).count() == 4
    assert Notification.objects.filter(user=alice).count() == 4
    assert LinkedAccount.objects.get(user=alice).balance == Decimal("4000")


def test_a_user_with_rules_costs_the_same_and_the_row_is_categorized(
    alice, alice_api, webhook, django_assert_num_queries
):
    rule_create(user=alice, match="KFC", category="shopping")
    connection = connect(alice_api, "hmac")
    deliver(webhook, connection, payload(id=1))
    with django_assert_num_queries(NEW_ID):
        assert deliver(webhook, connection, payload(id=2)).json() == {"success": True}
    with django_assert_num_queries(RETRY):
        assert deliver(webhook, connection, payload(id=2)).json() == {"success": True}
    landed = Transaction.objects.get(user=alice, external_id="sepay:2")
    assert (landed.source, landed.category, landed.amount, landed.currency) == ("synced", "shopping", 150000, "VND")
    notice = Notification.objects.get(user=alice, dedupe_key="synced:sepay:2")
    assert notice.title == "-150,000 ₫ · Vietcombank •••• 9999"
    assert notice.body == "KFC NGUYEN HUE thanh toan"


def test_a_twin_that_read_before_its_first_landed_meets_its_row_and_writes_nothing(alice, alice_api, webhook):
    """The twin read its connection before the first one landed; by the time it holds the id's claim the
    first one has committed: it finds the row and answers with it, having locked and written nothing."""
    connection = connect(alice_api)
    deliver(webhook, connection, payload(id=1, accumulated=100))
    twin = parse_payload(payload(id=2, accumulated=200), now=timezone.now())
    context = sepay_delivery_context(token=_token(connection))
    assert deliver(webhook, connection, payload(id=2, accumulated=200)).status_code == 200  # the first one
    first = Transaction.objects.get(user=alice, external_id="sepay:2")
    LinkedAccount.objects.filter(user=alice).update(balance=7)  # so a balance the twin moved would show
    landed = sepay_delivery_land(context=context, delivery=twin)
    assert (landed.created, landed.transaction_id) == (False, first.id)
    assert Transaction.objects.filter(user=alice).count() == 2
    assert Notification.objects.filter(user=alice).count() == 2
    assert LinkedAccount.objects.get(user=alice).balance == Decimal("7")


def test_a_retry_after_its_account_was_deleted_answers_with_its_row_and_makes_no_account(
    alice, alice_api, webhook, django_assert_num_queries
):
    """The id's row is looked for before an account is made for it: a retry of a landed id whose account the
    user deleted since costs what any retry costs, is answered with its row, and no empty account comes back."""
    connection = connect(alice_api)
    deliver(webhook, connection, payload(id=1, accumulated=100))
    first = Transaction.objects.get(user=alice, external_id="sepay:1")
    LinkedAccount.objects.filter(user=alice).delete()
    context = sepay_delivery_context(token=_token(connection))
    with django_assert_num_queries(RETRY - 1):  # the connection was read above
        landed = sepay_delivery_land(context=context, delivery=parse_payload(payload(id=1), now=timezone.now()))
    assert (landed.created, landed.transaction_id) == (False, first.id)
    assert not LinkedAccount.objects.filter(user=alice).exists()
    assert Transaction.objects.filter(user=alice).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_delivery_whose_id_is_claimed_waits_for_that_landing_and_answers_with_its_row():
    """Another transaction holds the id's claim (a twin in the middle of its landing): the delivery waits on
    the claim, not on the account, and once that transaction has committed its row the delivery answers 200
    with it, having moved no balance and told no one."""
    alice = factories.user("alice")
    connection = connect(api_for(alice), "hmac")
    assert deliver(Client(), connection, payload(id=1, accumulated=100)).status_code == 200
    account = LinkedAccount.objects.get(user=alice)
    asset = Asset.objects.get(user=alice, linked_account=account)
    waiting, claimed = threading.Event(), threading.Event()

    def first():
        with transaction.atomic():
            synced_row_claim(user_id=alice.id, external_id="sepay:2")
            claimed.set()
            Transaction.objects.create(
                user=alice,
                amount=5,
                currency="VND",
                direction="income",
                description="first",
                category="other_income",
                occurred_on=timezone.localdate(),
                asset=asset,
                source="synced",
                external_id="sepay:2",
            )
            waiting.wait(30)
        return "committed"

    def twin():
        # Only once the first holds the claim: started together, the twin could take it first and land the row.
        claimed.wait(30)
        return deliver(Client(), connection, payload(id=2, accumulated=200)).status_code

    def watch():
        # The twin is seen waiting for the claim (an advisory lock); then the first one may commit.
        seen = False
        for _ in range(3000):
            with connections["default"].cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_locks JOIN pg_database ON pg_database.oid = pg_locks.database"
                    " WHERE datname = current_database() AND locktype = 'advisory' AND NOT granted"
                )
                seen = cursor.fetchone()[0] == 1
            if seen:
                break
            threading.Event().wait(0.01)
        waiting.set()
        return seen

    assert at_once(first, twin, watch) == ["committed", 200, True]
    assert Transaction.objects.get(user=alice, external_id="sepay:2").description == "first"
    assert Notification.objects.filter(user=alice).count() == 1
    assert LinkedAccount.objects.get(user=alice).balance == Decimal("100")


@pytest.mark.django_db(transaction=True)
def test_twins_racing_on_many_ids_land_each_once_with_one_notice():
    """Every id delivered twice at the same moment, as the benchmark does, on two users' connections in turn."""
    users = [factories.user("alice"), factories.user("bob")]
    connections = [connect(api_for(user), "hmac") for user in users]
    for connection in connections:
        assert deliver(Client(), connection, payload(id=1)).status_code == 200
    answers = []
    for n in range(2, 6):
        for index, connection in enumerate(connections):
            raw = json.dumps(payload(id=100 * index + n, transactionDate=f"2026-11-30 15:0{n}:00")).encode()

            def send(connection=connection, raw=raw):
                return deliver(Client(), connection, raw).status_code

            answers += at_once(send, send)
    assert answers == [200] * 16
    for user in users:
        assert Transaction.objects.filter(user=user).count() == 5
        assert Notification.objects.filter(user=user, kind="transaction_synced").count() == 5


def test_a_delivery_reads_only_the_columns_it_uses(alice, alice_api, webhook):
    """Every delivery pays for its reads, a retry and a twin too: the connection read takes the connection's
    columns and the user's clock, never the user's row (nor their password hash); the look for the id is
    unordered (the id is unique per user); the account's lock reads what the landing uses of the asset and
    the account; the pairing lock reads the profile's id only."""
    connection = connect(alice_api, "hmac")
    deliver(webhook, connection, payload(id=1))
    with CaptureQueriesContext(connections["default"]) as new:
        assert deliver(webhook, connection, payload(id=2)).status_code == 200
    statements = [q["sql"] for q in new.captured_queries]
    assert not [s for s in statements if '"auth_user"."' in s.split(" FROM ")[0]]
    (look,) = [s for s in statements if s.startswith('SELECT "assets_transaction"."id"') and "external_id" in s]
    assert "ORDER BY" not in look
    (account,) = [s for s in statements if 'FOR UPDATE OF "assets_linkedaccount"' in s]
    read = account.split(" FROM ")[0]
    assert '"assets_asset"."name"' not in read and '"assets_linkedaccount"."feed_key"' not in read
    (profile,) = [s for s in statements if 'FROM "zeus_profile"' in s and "FOR UPDATE" in s]
    assert profile.split(" FROM ")[0] == 'SELECT "zeus_profile"."id" AS "pk"'
    landed = Transaction.objects.get(user=alice, external_id="sepay:2")
    assert landed.occurred_on.isoformat() == "2026-11-30"
    assert landed.asset.linked_account.last_synced_at is not None
