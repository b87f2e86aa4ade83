import pytest

from assets.models import Asset, Source
from tests import factories
from tests.assets.helpers import assert_error

pytestmark = pytest.mark.django_db


def test_it_creates_a_manual_asset_with_shorthand_balance(alice_api, alice):
    response = alice_api.post("/api/v1/assets", {"name": "Wallet", "kind": "cash", "balance": "1.5tr"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body == {
        "id": body["id"],
        "name": "Wallet",
        "kind": "cash",
        "balance": "1500000",
        "currency": "VND",
        "source": "manual",
        "editable": True,
        "bank_bin": "",
        "account_number": "",
        "archived": False,
        "statement_day": None,
        "due_day": None,
        "card_due": None,
    }
    assert Asset.objects.get(id=body["id"]).user == alice


def test_an_asset_in_usd_goes_out_with_cents(alice_api):
    response = alice_api.post(
        "/api/v1/assets", {"name": "Brokerage", "kind": "investment", "balance": "$12.5", "currency": "usd"}
    )
    assert response.status_code == 201
    assert response.json()["balance"] == "12.50"
    assert response.json()["currency"] == "USD"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "X", "kind": "yacht"}, "kind"),
        ({"name": "", "kind": "cash"}, "name"),
        ({"kind": "cash"}, "name"),
        ({"name": "X" * 101, "kind": "cash"}, "name"),
        ({"name": "X\x00", "kind": "cash"}, "name"),
        ({"name": "X", "kind": "cash", "balance": "lots"}, "balance"),
        ({"name": "X", "kind": "cash", "balance": "-5"}, "balance"),
        ({"name": "X", "kind": "cash", "balance": True}, "balance"),
        ({"name": "X", "kind": "cash", "balance": [1]}, "balance"),
        ({"name": "X", "kind": "cash", "currency": "XYZ"}, "currency"),
        ({"name": "X", "kind": "cash", "currency": "DOLLARS"}, "currency"),
        ({"name": "X", "kind": "cash", "currency": "XDR"}, "currency"),  # a unit of account, no minor unit
        ({"name": "X", "kind": "cash", "currency": "KWD", "balance": "1.2345"}, "balance"),  # KWD keeps 3
        ({"name": "X", "kind": "cash", "currency": "XXX"}, "currency"),
        ({"name": "X", "kind": "cash", "balance": "$5"}, "balance"),
    ],
)
def test_it_refuses_a_bad_asset_and_writes_nothing(alice_api, body, field):
    error = assert_error(alice_api.post("/api/v1/assets", body, format="json"), 400)
    assert field in error["fields"]
    assert not Asset.objects.exists()


def test_it_refuses_a_lone_surrogate_in_json(alice_api):
    response = alice_api.post("/api/v1/assets", b'{"name": "\\ud800", "kind": "cash"}', content_type="application/json")
    assert_error(response, 400, "INVALID_TEXT")
    assert not Asset.objects.exists()


def test_it_refuses_malformed_json(alice_api):
    response = alice_api.post("/api/v1/assets", b'{"name": ', content_type="application/json")
    assert_error(response, 400, "MALFORMED_REQUEST")


def test_it_refuses_a_json_list_body(alice_api):
    assert_error(alice_api.post("/api/v1/assets", [1, 2], format="json"), 400, "VALIDATION_ERROR")


def test_it_lists_only_the_users_assets_newest_first(alice_api, alice, bob):
    older = factories.asset(alice, name="Older")
    newer = factories.asset(alice, name="Newer", source=Source.SYNCED)
    factories.asset(bob, name="Bob's")
    body = alice_api.get("/api/v1/assets").json()
    assert [a["id"] for a in body["results"]] == [newer.id, older.id]
    assert body["results"][0]["editable"] is False
    assert body["next"] is None and body["previous"] is None


def test_it_filters_assets_by_source(alice_api, alice):
    factories.asset(alice, name="Cash")
    synced = factories.asset(alice, name="Bank", source=Source.SYNCED)
    body = alice_api.get("/api/v1/assets?source=synced").json()
    assert [a["id"] for a in body["results"]] == [synced.id]
    assert_error(alice_api.get("/api/v1/assets?source=stolen"), 400)


def test_it_reads_updates_and_deletes_a_manual_asset(alice_api, alice):
    asset = factories.asset(alice, name="Wallet", balance="100000")
    assert alice_api.get(f"/api/v1/assets/{asset.id}").json()["balance"] == "100000"
    response = alice_api.patch(f"/api/v1/assets/{asset.id}", {"balance": "250k", "name": "Purse"}, format="json")
    assert response.status_code == 200
    assert response.json()["balance"] == "250000"
    assert response.json()["name"] == "Purse"
    assert response.json()["kind"] == "cash"
    assert alice_api.delete(f"/api/v1/assets/{asset.id}").status_code == 204
    assert not Asset.objects.filter(id=asset.id).exists()


def test_a_bad_patch_changes_nothing(alice_api, alice):
    asset = factories.asset(alice, name="Wallet", balance="100000")
    assert_error(alice_api.patch(f"/api/v1/assets/{asset.id}", {"name": "New", "balance": "x"}, format="json"), 400)
    asset.refresh_from_db()
    assert (asset.name, asset.balance) == ("Wallet", 100000)


def test_a_synced_asset_is_read_only(alice_api, alice):
    asset = factories.asset(alice, name="Bank", source=Source.SYNCED, balance="5000000")
    assert alice_api.get(f"/api/v1/assets/{asset.id}").status_code == 200
    assert_error(
        alice_api.patch(f"/api/v1/assets/{asset.id}", {"name": "Mine"}, format="json"), 409, "SYNCED_READ_ONLY"
    )
    assert_error(alice_api.delete(f"/api/v1/assets/{asset.id}"), 409, "SYNCED_READ_ONLY")
    asset.refresh_from_db()
    assert asset.name == "Bank"


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_it_answers_404_for_another_users_asset(alice_api, bob, method):
    asset = factories.asset(bob, name="Bob's")
    response = getattr(alice_api, method)(f"/api/v1/assets/{asset.id}", {"name": "Mine"}, format="json")
    assert_error(response, 404, "NOT_FOUND")
    asset.refresh_from_db()
    assert asset.name == "Bob's"


@pytest.mark.parametrize("path", ["/api/v1/assets/99999999999999999999999", "/api/v1/assets/abc", "/api/v1/assets/"])
def test_unknown_asset_paths_are_json_404s(alice_api, path):
    assert_error(alice_api.get(path), 404, "NOT_FOUND")


def test_it_lists_linked_accounts_read_only(alice_api, alice, bob):
    account = factories.linked_account(alice, balance="12000000")
    factories.linked_account(bob)
    body = alice_api.get("/api/v1/linked-accounts").json()
    assert body["results"] == [
        {
            "id": account.id,
            "institution": "Vietcombank",
            "name": "Checking",
            "masked_number": "•••• 1234",
            "balance": "12000000",
            "currency": "VND",
            "last_synced_at": None,
        }
    ]
    assert_error(alice_api.post("/api/v1/linked-accounts", {}, format="json"), 405, "METHOD_NOT_ALLOWED")


def test_the_asset_list_does_a_bounded_number_of_queries(alice_api, alice, django_assert_max_num_queries):
    for i in range(30):
        factories.asset(alice, name=f"A{i}")
    with django_assert_max_num_queries(4):
        assert len(alice_api.get("/api/v1/assets").json()["results"]) == 30


def test_the_linked_account_list_does_a_bounded_number_of_queries(alice_api, alice, django_assert_max_num_queries):
    for i in range(30):
        factories.linked_account(alice, name=f"Account {i}")
    with django_assert_max_num_queries(3):
        assert len(alice_api.get("/api/v1/linked-accounts").json()["results"]) == 30
