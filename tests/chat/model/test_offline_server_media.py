"""The offline Messages API checks image and document blocks and structured output formats as the real API
does (tests/chat/fake_media.py): a request the capture reader would get wrong fails here first."""

import base64
import json
import urllib.error
import urllib.request

import pytest

from assets.captures.answer import ANSWER_SCHEMA
from tests.assets.captures.samples import receipt_jpeg, receipt_png, statement_pdf
from tests.chat.fake_anthropic import FakeAnthropic, text


@pytest.fixture(scope="module")
def fake():
    with FakeAnthropic() as server:
        server.responder = lambda body: text('{"ok": true}')
        yield server


def post(fake, content: list, **more) -> tuple[int, dict]:
    body = {"model": "claude-sonnet-5-5", "max_tokens": 100, "messages": [{"role": "user", "content": content}]}
    request = urllib.request.Request(
        f"{fake.url}/v1/messages",
        data=json.dumps({**body, **more}).encode(),
        headers={"content-type": "application/json", "x-api-key": "k"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def image(media_type: str, data: str) -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}


def document(data: str, media_type: str = "application/pdf") -> dict:
    return {"type": "document", "source": {"type": "base64", "media_type": media_type, "data": data}}


ASK = {"type": "text", "text": "Read it."}


def test_well_formed_image_and_document_blocks_are_answered(fake):
    assert post(fake, [image("image/jpeg", b64(receipt_jpeg())), ASK])[0] == 200
    assert post(fake, [image("image/png", b64(receipt_png())), ASK])[0] == 200
    assert post(fake, [document(b64(statement_pdf())), ASK])[0] == 200
    fmt = {"format": {"type": "json_schema", "schema": ANSWER_SCHEMA}, "effort": "low"}
    assert post(fake, [document(b64(statement_pdf())), ASK], output_config=fmt)[0] == 200


@pytest.mark.parametrize(
    ("block", "says"),
    [
        (lambda: image("image/png", b64(receipt_jpeg())), "appears to be a image/jpeg image"),
        (lambda: image("image/bmp", b64(receipt_jpeg())), "media_type"),
        (lambda: image("image/jpeg", "not base64!"), "Invalid base64"),
        (lambda: image("image/jpeg", b64(b"\xff\xd8\xff" + b"\x00" * 4_000_000)), "5 MB"),
        (lambda: {"type": "image", "source": {"type": "url"}}, "base64"),
        (lambda: document(b64(b"hello")), "PDF specified was not valid"),
        (lambda: document(b64(statement_pdf()), "application/msword"), "application/pdf"),
        (lambda: {"type": "document"}, "source"),
    ],
    ids=["media-type-lies", "bmp", "bad-base64", "over-5mb", "no-base64", "not-pdf", "word", "no-source"],
)
def test_malformed_blocks_are_refused_as_the_api_refuses_them(fake, block, says):
    status, body = post(fake, [block(), ASK])
    assert status == 400 and body["error"]["type"] == "invalid_request_error"
    assert says in body["error"]["message"]


def test_media_blocks_belong_to_the_user(fake):
    content = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [image("image/jpeg", b64(receipt_jpeg()))]},
    ]
    status, body = post(fake, ["x"], messages=[*content, {"role": "user", "content": "ok"}])
    assert status == 400 and "only allowed in user messages" in body["error"]["message"]


@pytest.mark.parametrize(
    ("schema", "says"),
    [
        ({"type": "object", "properties": {}}, "additionalProperties"),
        ({"type": "array"}, "root must be an object"),
        (
            {"type": "object", "additionalProperties": False, "properties": {"n": {"type": "number", "minimum": 0}}},
            "minimum",
        ),
        (
            {"type": "object", "additionalProperties": False, "properties": {"r": {"type": "array", "maxItems": 3}}},
            "maxItems",
        ),
        (
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {"r": {"type": "array", "items": {"type": "object", "properties": {}}}},
            },
            "additionalProperties",
        ),
    ],
    ids=["open-object", "array-root", "minimum", "max-items", "open-nested-object"],
)
def test_a_structured_output_format_outside_what_the_api_supports_is_refused(fake, schema, says):
    status, body = post(fake, [ASK], output_config={"format": {"type": "json_schema", "schema": schema}})
    assert status == 400 and says in body["error"]["message"]


def test_a_request_over_32_mb_is_refused_before_its_body_is_read(fake):
    request = urllib.request.Request(
        f"{fake.url}/v1/messages",
        data=b"{" + b" " * (32 * 1024 * 1024) + b"}",
        headers={"content-type": "application/json", "x-api-key": "k"},
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request)
    assert caught.value.code == 413 and json.loads(caught.value.read())["error"]["type"] == "request_too_large"
