"""The REST schema describes the debts, forecast and VietQR endpoints (CONTRACT §9) as they answer: every
operation has its success body and the `{"error": {...}}` body of a refusal, and real answers (a debt, a payment
above what is owed, the forecast of a user with no account, a VietQR with a wrong checksum) fit them."""

import pytest

from tests.debts.test_api import LOAN

pytestmark = pytest.mark.django_db

OPERATIONS = {
    "/api/v1/debts": {"get": "PaginatedDebtList", "post": "Debt"},
    "/api/v1/debts/{debt_id}": {"get": "Debt", "patch": "Debt", "delete": None},
    "/api/v1/debts/{debt_id}/payments": {"post": "Debt"},
    "/api/v1/debts/{debt_id}/vietqr": {"get": "DebtVietQR"},
    "/api/v1/forecast": {"get": "Forecast"},
    "/api/v1/forecast/settings": {"get": "ForecastSettings", "patch": "ForecastSettingsOut"},
    "/api/v1/vietqr/parse": {"post": "ReadQR"},
}


@pytest.fixture
def schema(alice_api):
    response = alice_api.get("/api/v1/schema?format=json")
    assert response.status_code == 200
    return response.json()


def ref_name(response: dict) -> str | None:
    ref = response.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
    return ref.rsplit("/", 1)[-1] if ref else None


def fits(value, spec: dict, schemas: dict, where: str = "body") -> list[str]:
    """What of `value` the OpenAPI 3.0 `spec` does not describe: a missing required key, a key it does not
    name, a null where it is not nullable (the shape, not every format)."""
    if "$ref" in spec:
        spec = schemas[spec["$ref"].rsplit("/", 1)[-1]]
    if "allOf" in spec:
        spec = {**spec, **schemas[spec["allOf"][0]["$ref"].rsplit("/", 1)[-1]]}
    if value is None:
        return [] if spec.get("nullable") else [f"{where} is null"]
    wrong = []
    if spec.get("type") == "object" or "properties" in spec:
        props = spec.get("properties", {})
        wrong += [f"{where}.{k} missing" for k in spec.get("required", []) if k not in value]
        if props and not spec.get("additionalProperties"):
            wrong += [f"{where}.{k} not in the schema" for k in value if k not in props]
        for key, item in value.items():
            if key in props:
                wrong += fits(item, props[key], schemas, f"{where}.{key}")
    elif spec.get("type") == "array":
        for i, item in enumerate(value):
            wrong += fits(item, spec.get("items", {}), schemas, f"{where}[{i}]")
    return wrong


def test_every_operation_names_its_body_and_its_error_body(schema):
    for path, methods in OPERATIONS.items():
        assert path in schema["paths"], path
        for method, body in methods.items():
            responses = schema["paths"][path][method]["responses"]
            ok = next(code for code in responses if code.startswith("2"))
            assert ref_name(responses[ok]) == body, (path, method)
            assert ref_name(responses["4XX"]) == "Error", (path, method)
    error = schema["components"]["schemas"]["ErrorDetail"]
    assert {"code", "message"} <= set(error["required"]) and "fields" in error["properties"]


def test_real_answers_fit_the_schema(schema, alice_api):
    schemas = schema["components"]["schemas"]
    created = alice_api.post("/api/v1/debts", LOAN, format="json")
    assert created.status_code == 201
    assert fits(created.json(), {"$ref": "#/Debt"}, schemas) == []
    listed = alice_api.get("/api/v1/debts").json()
    assert fits(listed, {"$ref": "#/PaginatedDebtList"}, schemas) == []
    paid = alice_api.post(f"/api/v1/debts/{created.json()['id']}/payments", {"amount": "1tr"}, format="json")
    assert fits(paid.json(), {"$ref": "#/Debt"}, schemas) == []

    refusals = [
        alice_api.post(f"/api/v1/debts/{created.json()['id']}/payments", {"amount": "9tr"}, format="json"),
        alice_api.post("/api/v1/debts", {**LOAN, "interest_rate": "1000"}, format="json"),
        alice_api.get(f"/api/v1/debts/{created.json()['id']}/vietqr"),
        alice_api.get("/api/v1/forecast?days=999"),
        alice_api.post("/api/v1/vietqr/parse", {"payload": "00020101021238570010A000000727"}, format="json"),
    ]
    for response in refusals:
        assert response.status_code == 400, response.content
        assert fits(response.json(), {"$ref": "#/Error"}, schemas) == [], response.content

    empty = alice_api.get("/api/v1/forecast")  # no account: an honest empty state, in the same shape
    assert empty.status_code == 200
    assert fits(empty.json(), {"$ref": "#/Forecast"}, schemas) == []


def resolved(spec: dict, schemas: dict) -> dict:
    while "$ref" in spec or "allOf" in spec:
        ref = spec["$ref"] if "$ref" in spec else spec["allOf"][0]["$ref"]
        spec = schemas[ref.rsplit("/", 1)[-1]]
    return spec


def test_the_forecasts_days_events_and_lowest_point_are_described_field_by_field(schema, alice_api, alice):
    # The days were a list of free-form objects in the schema: a client generated from it knew no field of a
    # day, an event or the lowest point.
    import datetime as dt

    from goals.debts.services import debt_create
    from tests import factories
    from zeus.timeutil import user_today

    schemas = schema["components"]["schemas"]
    forecast = resolved({"$ref": "#/Forecast"}, schemas)
    day = resolved(forecast["properties"]["days"]["items"], schemas)
    assert set(day["properties"]) == {"date", "balance", "events"}
    event = resolved(day["properties"]["events"]["items"], schemas)
    assert set(event["properties"]) == {"kind", "label", "amount"}
    assert set(resolved(forecast["properties"]["lowest"], schemas)["properties"]) == {"date", "balance"}

    factories.asset(alice, kind="bank_account", balance="5000000")
    debt_create(
        user=alice, direction="i_owe", counterparty="Lan", principal="400000",
        due_on=user_today(alice) + dt.timedelta(days=2),
    )  # fmt: skip
    body = alice_api.get("/api/v1/forecast?days=5").json()
    assert any(day["events"] for day in body["days"])
    assert fits(body, {"$ref": "#/Forecast"}, schemas) == []
