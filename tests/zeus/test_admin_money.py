"""Money in the admin as the staff member reads it: the columns keep four decimals (numeric(19,4)), the list shows
an amount in its row's currency ("150.000 ₫") and the change page's input holds it to the currency's exponent
("150000", "12.50"), never "150000.0000"."""

import re
from decimal import Decimal

import pytest
from django.utils import timezone

from assets.models import BankTextDraft, CategoryRule
from plans.models import MonthlyPlan, PlanEntry
from tests import factories

pytestmark = pytest.mark.django_db
# A stored amount shown as stored: a cell's text or an input's value ending in four decimals.
RAW = re.compile(r'(>|value=")\s*-?[\d.,]*\d[.,]\d{4}\s*(<|")')


@pytest.fixture
def staff_vi(client):
    client.force_login(factories.user("thu", language="vi", is_staff=True, is_superuser=True))
    return client


def _input(html: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html).group(1)


def test_a_vnd_transaction_reads_whole_dong_in_the_list_and_the_form(staff_vi):
    owner = factories.user("lan", language="vi")
    row = factories.txn(owner, amount=Decimal("150000"), description="Phở")
    listed = staff_vi.get("/admin/assets/transaction/").content.decode()
    assert "150.000\xa0₫" in listed and not RAW.search(listed)
    change = staff_vi.get(f"/admin/assets/transaction/{row.pk}/change/").content.decode()
    assert _input(change, "amount") == "150000"


def test_a_usd_row_keeps_its_cents(staff_vi):
    owner = factories.user("sam", currency="USD")
    row = factories.txn(owner, amount=Decimal("12.5"), currency="USD", description="Lunch")
    change = staff_vi.get(f"/admin/assets/transaction/{row.pk}/change/").content.decode()
    assert _input(change, "amount") == "12.50"


def test_drafts_rules_plans_and_series_list_money_not_raw_decimals(staff_vi):
    owner = factories.user("minh", language="vi")
    BankTextDraft.objects.create(
        user=owner, text="VCB -150,000VND", amount=Decimal("150000"), currency="VND", occurred_at=timezone.now()
    )
    rule = CategoryRule.objects.create(user=owner, match="grab", category="transport", min_amount=Decimal("50000"))
    income = Decimal(20_000_000)
    plan = MonthlyPlan.objects.create(user=owner, month="2026-12-01", currency="VND", expected_income=income)
    PlanEntry.objects.create(plan=plan, amount=Decimal("65000"), logged_on="2026-12-02")
    for url in ("assets/banktextdraft", "assets/categoryrule", "plans/monthlyplan", "plans/planentry"):
        html = staff_vi.get(f"/admin/{url}/").content.decode()
        assert "₫" in html and not RAW.search(html), url
    change = staff_vi.get(f"/admin/assets/categoryrule/{rule.pk}/change/").content.decode()
    assert _input(change, "min_amount") == "50000"
    change = staff_vi.get(f"/admin/plans/monthlyplan/{plan.pk}/change/").content.decode()
    assert _input(change, "expected_income") == "20000000"
