from decimal import Decimal

import pytest

from assets.models import CategoryRule
from assets.rules import merchants
from assets.rules.services import categorize, rule_create, rules_for
from assets.rules.text import fold
from tests import factories
from tests.assets.helpers import assert_error


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Phở Hà Nội", "pho ha noi"),
        ("ĐÀ NẴNG", "da nang"),
        ("  Cà   phê\tsữa ", "ca phe sua"),
        ("Nguyễn Huệ", "nguyen hue"),
        # Letters NFKD does not split, in either case.
        ("BOKFØRINGSDATO bokføring", "bokforingsdato bokforing"),
        ("ŁÓDŹ łódź", "lodz lodz"),
        ("", ""),
    ],
)
def test_fold_drops_case_and_diacritics(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize(
    ("text", "direction", "category"),
    [
        ("KFC NGUYEN HUE", "expense", "dining"),
        ("GrabFood order 1234", "expense", "dining"),
        ("GRAB*RIDE HCM", "expense", "transport"),
        ("Thanh toan Shopee don 88", "expense", "shopping"),
        ("NETFLIX.COM 260.000", "expense", "subscriptions"),
        ("Tiền điện EVN tháng 11", "expense", "utilities"),
        ("WinMart Thảo Điền", "expense", "groceries"),
        ("Nhà thuốc Long Châu", "expense", "health"),
        ("CTY ABC CHUYEN LUONG T11", "income", "salary"),
        ("Chuyen tien cho ban", "expense", "other"),
        ("Hoan tien Shopee", "income", "other_income"),
        ("barber shop Q1", "expense", "personal_care"),
    ],
)
def test_the_merchant_dictionary_gives_the_first_guess(text, direction, category):
    assert categorize(rules=[], text=text, amount=Decimal(1), direction=direction).category == category


def test_a_keyword_matches_whole_words_only():
    assert merchants.guess("EVNHCMC", fits=lambda c: True) is None
    assert merchants.guess("thanh toan EVN HCMC", fits=lambda c: True) == ("utilities", "evn")


def test_rules_apply_in_position_order_with_folded_text_direction_and_range(alice):
    late = rule_create(user=alice, match="cafe", category="dining", position=5)
    early = rule_create(user=alice, match="CÀ PHÊ", category="groceries", position=1)
    big = rule_create(user=alice, match="cà phê", category="gifts", min_amount="1000000", position=0)
    income = rule_create(user=alice, match="ca phe", category="other_income", direction="income", position=0)
    rules = rules_for(user=alice)
    assert [r.id for r in rules][:2] in ([big.id, income.id], [income.id, big.id])

    def cat(text, amount, direction="expense"):
        return categorize(rules=rules, text=text, amount=Decimal(amount), direction=direction)

    assert cat("Ca phe Trung Nguyen", 50_000).category == "groceries"
    assert cat("Ca phe Trung Nguyen", 50_000).rule_id == early.id
    assert cat("Cà phê hộp quà", 2_000_000).category == "gifts"
    assert cat("ca phe refund", 10_000, "income").category == "other_income"
    assert cat("Highlands cafe", 10).rule_id == late.id
    assert cat("Highlands", 10).by == "merchant"


def test_a_rule_whose_category_does_not_fit_the_direction_is_passed_over(alice):
    rule_create(user=alice, match="shopee", category="shopping")
    result = categorize(rules=rules_for(user=alice), text="Hoan tien Shopee", amount=Decimal(5), direction="income")
    assert result.category == "other_income"


def test_rules_crud_over_rest(alice_api, bob_api):
    created = alice_api.post(
        "/api/v1/rules", {"match": "Phở 24", "category": "dining", "max_amount": "200000"}, format="json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["match"] == "Phở 24" and body["max_amount"] == "200000" and body["min_amount"] is None
    assert body["position"] == 0
    second = alice_api.post("/api/v1/rules", {"match": "grab", "category": "transport"}, format="json").json()
    assert second["position"] == 1
    listed = alice_api.get("/api/v1/rules").json()["results"]
    assert [r["id"] for r in listed] == [body["id"], second["id"]]
    moved = alice_api.patch(f"/api/v1/rules/{second['id']}", {"position": 0}, format="json")
    assert moved.status_code == 200 and moved.json()["position"] == 0
    assert_error(bob_api.get(f"/api/v1/rules/{body['id']}"), 404)
    assert_error(bob_api.patch(f"/api/v1/rules/{body['id']}", {"match": "x"}, format="json"), 404)
    assert_error(bob_api.delete(f"/api/v1/rules/{body['id']}"), 404)
    assert alice_api.delete(f"/api/v1/rules/{body['id']}").status_code == 204
    assert CategoryRule.objects.count() == 1


@pytest.mark.parametrize(
    "payload",
    [
        {"match": "", "category": "dining"},
        {"match": "!!!", "category": "dining"},
        {"match": "x", "category": "nope"},
        {"match": "x", "category": "salary", "direction": "expense"},
        {"match": "x", "category": "dining", "min_amount": "500", "max_amount": "100"},
        {"match": "x", "category": "dining", "min_amount": "-5"},
        {"match": "x\u0000", "category": "dining"},
        {"match": "x", "category": "dining", "position": -1},
    ],
)
def test_bad_rules_are_refused_and_nothing_is_stored(alice_api, payload):
    assert_error(alice_api.post("/api/v1/rules", payload, format="json"), 400)
    assert not CategoryRule.objects.exists()


def test_recategorizing_offers_a_rule_and_accepting_it_applies_to_existing(alice, alice_api):
    one = factories.txn(alice, description="Circle K Le Loi", category="other")
    two = factories.txn(alice, description="CIRCLE K NGUYEN TRAI", category="other")
    income = factories.txn(alice, description="circle k refund", direction="income", category="other_income")
    answer = alice_api.patch(f"/api/v1/transactions/{one.id}", {"category": "dining"}, format="json")
    assert answer.status_code == 200
    offer = answer.json()["rule_offer"]
    assert offer == {"match": "circle k", "direction": "expense", "category": "dining", "apply_to_existing": True}
    accepted = alice_api.post("/api/v1/rules", offer, format="json")
    assert accepted.status_code == 201 and accepted.json()["applied"] == 1
    two.refresh_from_db()
    income.refresh_from_db()
    assert two.category == "dining" and income.category == "other_income"
    again = alice_api.patch(f"/api/v1/transactions/{two.id}", {"category": "dining"}, format="json")
    assert "rule_offer" not in again.json()


def test_a_change_that_is_not_a_recategorization_offers_nothing(alice, alice_api):
    txn = factories.txn(alice, description="Circle K", category="dining")
    answer = alice_api.patch(f"/api/v1/transactions/{txn.id}", {"description": "Circle K Q1"}, format="json")
    assert "rule_offer" not in answer.json()


def test_the_admin_adds_a_rule_through_the_service(client, staff, alice):
    client.force_login(staff)
    response = client.post(
        "/admin/assets/categoryrule/add/",
        {"user": alice.id, "match": "Lotte", "category": "salary", "direction": "expense", "position": "0"},
    )
    assert response.status_code == 200 and not CategoryRule.objects.exists()
    response = client.post(
        "/admin/assets/categoryrule/add/",
        {"user": alice.id, "match": "Lotte", "category": "groceries", "position": "3"},
    )
    assert response.status_code == 302
    assert CategoryRule.objects.get().match_folded == "lotte"
