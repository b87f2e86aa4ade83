"""Property-based hostile input over every entry point: generated JSON, text, headers, files and frames.

Each answer is below 500, and a refused request (4xx) writes nothing. The shapes that broke Zeus before (deep
brackets, unterminated strings, NUL, lone surrogates, NaN, exponents, 40-digit figures, formula cells, long
texts) are seeded into every generator, so each run meets them, alongside whatever hypothesis invents.
"""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets.models import Asset, BankTextDraft, ImportMapping, Transaction
from chat.mcp.edge import EnvelopeCheck
from chat.turn import BadInput, parse_frame, turn_input_from_frame
from goals.models import Budget, Goal
from tests.assets.feeds.sepay import deliver, payload
from tests.assets.feeds.test_sepay import connect

SEEDS = [
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "[" * 5000,
    '"\\"' * 2000,
    '{"a":' * 3000,
    "NaN",
    "Infinity",
    "-1E+30",
    "1E+30",
    "9" * 40,
    "1234567890123456789",
    "$12.50",
    "12.50 EUR",
    "=cmd|' /C calc'!A0",
    "@SUM(1)",
    "2099-01-01",
    "0000-00-00",
    "x" * 5000,
    "",
    " ",
    "\u202e\u0301",
]
texts = st.one_of(st.sampled_from(SEEDS), st.text(max_size=80), st.text(alphabet='[]{}"\\,:0123456789eE+-.NaI\x00'))
scalars = st.one_of(texts, st.integers(min_value=-(10**40), max_value=10**40), st.floats(), st.booleans(), st.none())
hostile_json = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)
raw_bodies = st.one_of(
    st.sampled_from([s.encode("utf-8", "surrogatepass") for s in SEEDS]),
    st.binary(max_size=200),
    hostile_json.map(lambda v: json.dumps(v).encode()),
)

HYPOTHESIS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
WRITES = {
    "/api/v1/transactions": ["amount", "description", "direction", "category", "occurred_on", "asset"],
    "/api/v1/assets": ["name", "kind", "balance", "currency"],
    "/api/v1/goals": ["name", "kind", "target_amount", "current_amount", "deadline"],
    "/api/v1/budgets": ["category", "amount"],
    "/api/v1/rules": ["match", "category", "direction", "min_amount", "max_amount", "position"],
    "/api/v1/bank-texts": ["text"],
    "/api/v1/auth/token": ["username", "password", "code", "name"],
}
LISTS = ("/api/v1/transactions", "/api/v1/assets", "/api/v1/goals", "/api/v1/notifications", "/api/v1/rules")


_connections: dict = {}


def _connection(api, auth: str) -> dict:
    """One SePay connection per user and method for all of a test's examples (a user may hold 20)."""
    from assets.models import SepayConnection

    key = (api._credentials["HTTP_AUTHORIZATION"], auth)
    known = _connections.get(key)
    if known is None or not SepayConnection.objects.filter(id=known["id"]).exists():
        _connections[key] = known = connect(api, auth)
    return known


def _counts() -> tuple:
    return tuple(m.objects.count() for m in (Transaction, Asset, Goal, Budget, BankTextDraft, ImportMapping))


@pytest.fixture(autouse=True)
def no_model(settings):
    settings.ANTHROPIC_API_KEY = ""


@pytest.mark.django_db
@HYPOTHESIS
@given(url=st.sampled_from(sorted(WRITES)), data=st.data())
def test_rest_writes_never_5xx_and_a_refusal_writes_nothing(alice_api, url, data):
    fields = WRITES[url]
    body = data.draw(st.dictionaries(st.sampled_from(fields) | texts, hostile_json, max_size=len(fields) + 1))
    before = _counts()
    # Encoded here: NaN, Infinity and lone surrogates (escaped as \\ud800) reach the server as a client sends them.
    response = alice_api.generic("POST", url, json.dumps(body), content_type="application/json")
    assert response.status_code < 500, (url, body, response.content[:300])
    if response.status_code >= 400:
        assert _counts() == before, (url, body)


@pytest.mark.django_db
@HYPOTHESIS
@given(url=st.sampled_from([*sorted(WRITES), "/api/v1/profile"]), raw=raw_bodies, content_type=st.sampled_from(
    ["application/json", "application/json; charset=latin-1", "text/plain", "multipart/form-data; boundary=x",
     "application/x-www-form-urlencoded", "text/csv", "application/octet-stream"]
))  # fmt: skip
def test_raw_bodies_and_content_types_never_5xx(alice_api, url, raw, content_type):
    before = _counts()
    method = "PATCH" if url.endswith("profile") else "POST"
    response = alice_api.generic(method, url, raw, content_type=content_type)
    assert response.status_code < 500, (url, raw[:100], content_type, response.content[:300])
    if response.status_code >= 400:
        assert _counts() == before


@pytest.mark.django_db
@HYPOTHESIS
@given(url=st.sampled_from(LISTS), params=st.dictionaries(
    st.sampled_from(["cursor", "page_size", "since", "until", "category", "direction", "source", "asset"]) | texts,
    texts, max_size=3,
))  # fmt: skip
def test_query_strings_never_5xx(alice_api, url, params):
    # A URL carries bytes: a lone surrogate cannot be sent, and arrives as what a client's encoder makes of it.
    def sendable(text: str) -> str:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")

    response = alice_api.get(url, {sendable(k): sendable(v) for k, v in params.items()})
    assert response.status_code < 500, (url, params, response.content[:300])


@pytest.mark.django_db
@HYPOTHESIS
@given(headers=st.dictionaries(
    st.sampled_from(["HTTP_AUTHORIZATION", "HTTP_X_FORWARDED_FOR", "HTTP_ACCEPT_LANGUAGE", "HTTP_COOKIE",
                     "HTTP_X_FORWARDED_PROTO", "CONTENT_LENGTH", "HTTP_ORIGIN"]),
    # Servers hand Django headers decoded as Latin-1, so no header holds a character above U+00FF.
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0xFF), max_size=120) | st.sampled_from(
        ["Token " + "a" * 5000, "Token \u00e9", "Basic !!!", "-1", "99999999999999999999", "1.1.1.1, junk"]),
    max_size=3,
))  # fmt: skip
def test_headers_never_5xx(alice, headers):
    from django.test import Client

    for url in ("/api/v1/profile", "/api/v1/transactions", "/healthz", "/"):
        response = Client().get(url, **headers)
        assert response.status_code < 500, (url, headers, response.content[:300])


@pytest.mark.django_db
@HYPOTHESIS
@given(body=raw_bodies, stamp=texts, auth=st.sampled_from(["api_key", "hmac"]))
def test_webhook_deliveries_never_5xx(alice_api, body, stamp, auth):
    from django.test import Client

    connection = _connection(alice_api, auth)
    before = _counts()
    response = (
        deliver(Client(), connection, body, HTTP_X_SEPAY_TIMESTAMP=stamp)
        if auth == "hmac"
        else deliver(Client(), connection, body)
    )
    assert response.status_code < 500, (body[:100], stamp, response.content[:300])
    if response.status_code >= 400:
        assert _counts() == before


@pytest.mark.django_db
@HYPOTHESIS
@given(fields=st.dictionaries(st.sampled_from(sorted(payload())), hostile_json, max_size=4))
def test_webhook_payload_fields_never_5xx(alice_api, fields):
    from django.test import Client

    connection = _connection(alice_api, "api_key")
    before = _counts()
    response = deliver(Client(), connection, payload(**fields))
    assert response.status_code < 500, (fields, response.content[:300])
    if response.status_code >= 400:
        assert _counts() == before


CSV_HEADER = "date,description,amount,direction,category,external_id\n"
cells = st.one_of(st.sampled_from(SEEDS), st.text(max_size=20))


@pytest.mark.django_db
@HYPOTHESIS
@given(
    rows=st.lists(st.lists(cells, min_size=6, max_size=7), min_size=1, max_size=4),
    header=st.sampled_from([CSV_HEADER, "Ngay,Mo ta,So tien\n", "OFXHEADER:100\n", "!Type:Bank\n"]),
    mapping=st.none() | hostile_json.map(json.dumps) | st.sampled_from(SEEDS),
)
def test_statement_files_never_5xx_and_never_half_import(alice_api, rows, header, mapping):
    import csv
    import io

    out = io.StringIO()
    csv.writer(out).writerows([[c.replace("\ud800", "").replace("\udfff", "") for c in row] for row in rows])
    content = (header + out.getvalue()).encode("utf-8")
    data = {"file": SimpleUploadedFile("s.csv", content, content_type="text/csv")}
    if mapping is not None:
        data["mapping"] = mapping.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    before = _counts()
    response = alice_api.post("/api/v1/transactions/import", data, format="multipart")
    assert response.status_code < 500, (content[:200], mapping, response.content[:300])
    if response.status_code >= 400:
        assert _counts() == before
    else:
        assert Transaction.objects.count() - before[0] == response.json()["imported"]


@HYPOTHESIS
@given(frame=raw_bodies)
def test_websocket_frames_are_parsed_or_refused_as_bad_input(frame):
    text = frame.decode("utf-8", "replace")
    try:
        turn_input_from_frame(parse_frame(text))
    except BadInput:
        pass


@HYPOTHESIS
@given(body=raw_bodies | hostile_json.map(lambda v: json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                                    "params": v}).encode()))  # fmt: skip
def test_mcp_bodies_are_accepted_or_refused_with_a_json_rpc_error(body):
    problem = EnvelopeCheck(None, max_body=65536)._check(body)
    assert problem is None or isinstance(problem[0], int)
