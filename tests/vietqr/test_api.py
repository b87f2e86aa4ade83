import pytest

from assets.vietqr import banks
from tests.vietqr.test_payload import SUBIZ

pytestmark = pytest.mark.django_db


def test_it_reads_a_pasted_payload(alice_api):
    response = alice_api.post("/api/v1/vietqr/parse", {"payload": SUBIZ}, format="json")
    assert response.status_code == 200
    assert response.json() == {
        "bank_bin": "970415",
        "bank_name": "Ngân hàng TMCP Công thương Việt Nam",
        "bank_short_name": "VietinBank",
        "account": "0011001932418",
        "amount": "120000",
        "purpose": "ung ho lu lut",
    }


def test_a_bad_checksum_is_a_400(alice_api):
    response = alice_api.post("/api/v1/vietqr/parse", {"payload": SUBIZ[:-4] + "0000"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "BAD_CHECKSUM"


def test_a_bin_no_bank_has_is_a_400(alice_api):
    from assets.vietqr import payload as vq

    made_up = vq.encode(vq.VietQR(bank_bin="123456", account="1"))
    response = alice_api.post("/api/v1/vietqr/parse", {"payload": made_up}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "UNKNOWN_BANK"


def test_a_missing_payload_is_a_400(alice_api):
    assert alice_api.post("/api/v1/vietqr/parse", {}, format="json").status_code == 400


def test_it_needs_a_login(client):
    assert client.post("/api/v1/vietqr/parse", {"payload": SUBIZ}, content_type="application/json").status_code in (
        401,
        403,
    )


def test_the_bank_list_keeps_its_source_and_the_big_banks():
    assert "NAPAS" in banks.source()
    for bank_bin, short in [
        ("970436", "Vietcombank"),
        ("970415", "VietinBank"),
        ("970418", "BIDV"),
        ("970422", "MBBank"),
    ]:
        assert banks.bank_for(bank_bin).short_name == short


def test_a_bank_account_asset_carries_its_vietqr_fields(alice_api):
    response = alice_api.post(
        "/api/v1/assets",
        {"name": "VCB", "kind": "bank_account", "bank_bin": "970436", "account_number": "0071 0000 12345"},
        format="json",
    )
    assert response.status_code == 201
    assert (response.json()["bank_bin"], response.json()["account_number"]) == ("970436", "0071000012345")
    asset_id = response.json()["id"]
    assert alice_api.patch(f"/api/v1/assets/{asset_id}", {"bank_bin": "999999"}, format="json").status_code == 400
    assert alice_api.get(f"/api/v1/assets/{asset_id}").json()["bank_bin"] == "970436"


@pytest.mark.parametrize(
    ("payload", "code", "words"),
    [
        (SUBIZ[:-4] + "0000", "BAD_CHECKSUM", "mã kiểm tra"),
        ("hello", "MALFORMED", "không kết thúc bằng CRC"),
    ],
)
def test_a_refused_payload_is_explained_in_the_readers_language(db, payload, code, words):
    # The parser's refusals reached a reader asking in Vietnamese in English.
    from tests import factories
    from tests.conftest import token_client

    vy = factories.user("vy", language="vi")
    api = token_client(vy)
    response = api.post("/api/v1/vietqr/parse", {"payload": payload}, format="json", HTTP_ACCEPT_LANGUAGE="vi")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and words in error["message"], error
    assert error["fields"]["payload"] == [error["message"]]
