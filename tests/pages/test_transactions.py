"""/transactions as a person uses it: find, filter, page to the oldest row, fix, recategorize, export."""

import csv
import datetime as dt
import io
import re
from decimal import Decimal

import pytest

from assets.models import Source, Transaction
from tests import factories

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()


def ids_on(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'<tr id="txn-(\d+)"', html)]


def test_it_answers_with_and_without_the_trailing_slash(alice_web):
    assert alice_web.get("/transactions").status_code == 200
    assert alice_web.get("/transactions/").status_code == 200


def test_it_needs_a_login(client):
    assert client.get("/transactions").status_code == 302


def test_text_search_and_filters_narrow_the_list_and_its_totals(alice_web, alice, bob):
    coffee = factories.txn(
        alice, description="Highlands coffee", amount="45000", occurred_on=TODAY - dt.timedelta(days=6)
    )
    factories.txn(alice, description="Rent", category="housing", amount="5000000", occurred_on=TODAY)
    factories.txn(alice, description="Salary", direction="income", category="salary", amount="20000000")
    factories.txn(bob, description="bob's coffee")
    html = alice_web.get("/transactions", {"q": "COFFEE"}).content.decode()
    assert ids_on(html) == [coffee.id]
    assert "₫45,000" in html  # the filter's total
    html = alice_web.get("/transactions", {"direction": "income"}).content.decode()
    assert "Salary" in html and "Rent" not in html and "₫20,000,000" in html
    since = (TODAY - dt.timedelta(days=7)).isoformat()
    until = (TODAY - dt.timedelta(days=1)).isoformat()
    assert ids_on(alice_web.get("/transactions", {"since": since, "until": until}).content.decode()) == [coffee.id]
    assert ids_on(alice_web.get("/transactions", {"category": "housing"}).content.decode()) != [coffee.id]


def test_search_ignores_diacritics_and_case_both_ways(alice_web, alice):
    pho = factories.txn(alice, description="Phở Thìn Lò Đúc", amount="65000")
    dalat = factories.txn(alice, description="GRAB DA NANG", amount="120000")
    factories.txn(alice, description="Phone bill", amount="200000")
    assert ids_on(alice_web.get("/transactions", {"q": "pho thin"}).content.decode()) == [pho.id]
    assert ids_on(alice_web.get("/transactions", {"q": "PHỞ THÌN"}).content.decode()) == [pho.id]
    assert ids_on(alice_web.get("/transactions", {"q": "lo duc"}).content.decode()) == [pho.id]
    assert ids_on(alice_web.get("/transactions", {"q": "Đà Nẵng"}).content.decode()) == [dalat.id]


def test_a_bad_filter_is_named_next_to_its_field_in_the_language(alice_web, alice):
    from zeus.services import profile_update

    profile_update(user=alice, language="vi")
    response = alice_web.get("/transactions", {"since": "2026-13-45", "category": "nope"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_since_error"' in html and 'id="id_category_error"' in html
    assert "Nhập một ngày hợp lệ" in html  # Django's own catalog, in Vietnamese


def test_an_end_before_the_start_is_refused(alice_web):
    response = alice_web.get("/transactions", {"since": "2026-05-02", "until": "2026-05-01"})
    assert response.status_code == 400 and "The end date is before the start date." in response.content.decode()


def test_keyset_pages_reach_the_oldest_row_without_repeats(alice_web, alice):
    made = [
        factories.txn(alice, occurred_on=TODAY - dt.timedelta(days=i // 3), description=f"row {i}") for i in range(120)
    ]
    seen, url = [], "/transactions"
    while url:
        html = alice_web.get(url).content.decode()
        seen += ids_on(html)
        match = re.search(r'<a class="button secondary" href="([^"]+)" rel="next">', html)
        url = match.group(1).replace("&amp;", "&") if match else None
    expected = sorted(made, key=lambda t: (t.occurred_on, t.id), reverse=True)
    assert seen == [t.id for t in expected]
    assert "That is the oldest transaction." in html


def test_adding_a_transaction_with_shorthand(alice_web, alice):
    form = {"new-occurred_on": TODAY.isoformat(), "new-description": "Phở", "new-amount": "45k",
            "new-direction": "expense", "new-category": "dining", "new-asset": ""}  # fmt: skip
    response = alice_web.post("/transactions", form)
    assert response.status_code == 302
    txn = Transaction.objects.get(user=alice)
    assert (txn.amount, txn.description, txn.source) == (Decimal("45000"), "Phở", Source.MANUAL)


@pytest.mark.parametrize(
    "change,field",
    [
        ({"new-amount": "lots"}, "new-amount"),
        ({"new-amount": ""}, "new-amount"),
        ({"new-occurred_on": "yesterday-ish"}, "new-occurred_on"),
        ({"new-category": "salary"}, "new-category"),  # an income category on spending
        ({"new-description": "x" * 201}, "new-description"),
    ],
)
def test_a_bad_transaction_is_refused_next_to_its_field_and_nothing_saved(alice_web, alice, change, field):
    form = {"new-occurred_on": TODAY.isoformat(), "new-description": "Lunch", "new-amount": "45000",
            "new-direction": "expense", "new-category": "dining", "new-asset": "", **change}  # fmt: skip
    response = alice_web.post("/transactions", form)
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not Transaction.objects.filter(user=alice).exists()


def test_editing_a_manual_row_inline(alice_web, alice):
    txn = factories.txn(alice, description="Coffe", amount="40000")
    page = alice_web.get("/transactions", {"edit": txn.id}).content.decode()
    assert f'action="/transactions/{txn.id}/edit"' in page
    p = f"t{txn.id}"
    form = {f"{p}-occurred_on": TODAY.isoformat(), f"{p}-description": "Coffee", f"{p}-amount": "45000",
            f"{p}-direction": "expense", f"{p}-category": "dining", f"{p}-asset": "",
            "back": "/transactions?q=coff"}  # fmt: skip
    response = alice_web.post(f"/transactions/{txn.id}/edit", form)
    assert response.status_code == 302 and response["Location"] == "/transactions?q=coff"
    txn.refresh_from_db()
    assert (txn.description, txn.amount) == ("Coffee", Decimal("45000"))


def test_a_bad_edit_keeps_the_row_in_edit_mode_with_the_message_and_changes_nothing(alice_web, alice):
    txn = factories.txn(alice, description="Coffee", amount="40000")
    form = {f"t{txn.id}-occurred_on": TODAY.isoformat(), f"t{txn.id}-description": "Coffee",
            f"t{txn.id}-amount": "-5", f"t{txn.id}-direction": "expense", f"t{txn.id}-category": "dining"}  # fmt: skip
    response = alice_web.post(f"/transactions/{txn.id}/edit", form)
    assert response.status_code == 400
    assert f'id="id_t{txn.id}-amount_error"' in response.content.decode()
    txn.refresh_from_db()
    assert txn.amount == Decimal("40000")


def test_recategorizing_in_place_and_without_javascript(alice_web, alice):
    txn = factories.txn(alice, description="Coffee", category="other")
    reply = alice_web.post(
        f"/transactions/{txn.id}/category", {f"c{txn.id}-category": "dining"}, HTTP_ACCEPT="application/json"
    )
    assert reply.status_code == 200 and reply.json()["label"] == "Dining"
    txn.refresh_from_db()
    assert txn.category == "dining"
    plain = alice_web.post(
        f"/transactions/{txn.id}/category", {f"c{txn.id}-category": "groceries", "back": "/transactions?q=Coffee"}
    )
    assert plain.status_code == 302 and plain["Location"] == "/transactions?q=Coffee"
    txn.refresh_from_db()
    assert txn.category == "groceries"


def test_a_category_that_does_not_fit_is_refused(alice_web, alice):
    txn = factories.txn(alice, category="dining")
    reply = alice_web.post(
        f"/transactions/{txn.id}/category", {f"c{txn.id}-category": "salary"}, HTTP_ACCEPT="application/json"
    )
    assert reply.status_code == 400 and reply.json()["error"]["message"]
    txn.refresh_from_db()
    assert txn.category == "dining"


def test_synced_rows_are_read_only_and_say_why(alice_web, alice):
    txn = factories.txn(alice, description="VCB transfer", source=Source.SYNCED, external_id="x1", category="other")
    html = alice_web.get("/transactions").content.decode()
    row = html[html.index(f'id="txn-{txn.id}"') :].split("</tr>")[0]
    assert "Read only" in row and "/category" not in row and "edit=" not in row
    assert "Rows synced from your bank are read only here" in html
    reply = alice_web.post(
        f"/transactions/{txn.id}/category", {f"c{txn.id}-category": "dining"}, HTTP_ACCEPT="application/json"
    )
    assert reply.status_code == 409
    assert alice_web.post(f"/transactions/{txn.id}/delete").status_code == 302
    txn.refresh_from_db()
    assert txn.category == "other"


def test_deleting_asks_first_then_deletes(alice_web, alice):
    txn = factories.txn(alice, description="Mistake")
    page = alice_web.get("/transactions", {"delete": txn.id}).content.decode()
    assert "Delete this transaction?" in page
    assert Transaction.objects.filter(id=txn.id).exists()
    alice_web.post(f"/transactions/{txn.id}/delete")
    assert not Transaction.objects.filter(id=txn.id).exists()


def test_another_users_row_cannot_be_touched(alice_web, bob):
    theirs = factories.txn(bob, description="Bob's", category="dining")
    alice_web.post(f"/transactions/{theirs.id}/delete")
    alice_web.post(f"/transactions/{theirs.id}/category", {f"c{theirs.id}-category": "travel"})
    theirs.refresh_from_db()
    assert theirs.category == "dining"


def test_the_csv_export_is_the_current_filter_every_row(alice_web, alice):
    for i in range(130):
        factories.txn(alice, description=f"coffee {i}", occurred_on=TODAY - dt.timedelta(days=i))
    factories.txn(alice, description="=HYPERLINK(evil)")
    response = alice_web.get("/transactions.csv", {"q": "coffee"})
    assert response["Content-Type"].startswith("text/csv")
    body = b"".join(response.streaming_content)
    assert body.startswith("\ufeff".encode())  # the BOM spreadsheet programs need to read UTF-8
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0][:3] == ["date", "description", "amount"]
    assert len(rows) == 131 and all("coffee" in r[1] for r in rows[1:])
    everything = list(
        csv.reader(io.StringIO(b"".join(alice_web.get("/transactions.csv").streaming_content).decode("utf-8-sig")))
    )
    assert [r[1] for r in everything if "HYPERLINK" in r[1]] == ["'=HYPERLINK(evil)"]


def test_the_csv_export_on_request_speaks_the_readers_language(client):
    minh = factories.user("minh_csv", language="vi")
    factories.txn(minh, description="Phở", amount="65000", category="dining")
    client.force_login(minh)
    page = client.get("/transactions").content.decode()
    assert 'href="/transactions.csv?labels=local"' in page
    body = b"".join(client.get("/transactions.csv", {"labels": "local"}).streaming_content).decode("utf-8-sig")
    header, row = list(csv.reader(io.StringIO(body)))
    assert header[:3] == ["Ngày", "Mô tả", "Số tiền"]
    assert row[1] == "Phở" and row[2] == "65000.00" and row[4] != "expense" and row[5] != "dining"
