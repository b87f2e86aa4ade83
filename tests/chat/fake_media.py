"""What the offline Messages API (fake_anthropic/validation.py) checks in image and document blocks and in a
structured output format, as the real API does (platform docs: "Vision", "PDF support", "Structured outputs"):

- an image block's source is base64 with one of the four image media types, its data is valid base64 of at
  most 5 MB, and the bytes are the media type they claim; a document block's source is base64
  `application/pdf` (bytes starting `%PDF-`) or plain `text`; both only in user messages;
- `output_config.format` is `{"type": "json_schema", "schema": {...}}` whose objects all set
  `additionalProperties: false`, with none of the constraints structured outputs do not support.
"""

import base64
import binascii

IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
MAX_IMAGE_BASE64 = 5 * 1024 * 1024
_MAGIC = {
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/gif": (b"GIF87a", b"GIF89a"),
}
_UNSUPPORTED = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength")


class MediaInvalid(Exception):
    pass


def _decoded(data, where: str) -> bytes:
    if not isinstance(data, str) or not data:
        raise MediaInvalid(f"{where}.data: Field required")
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise MediaInvalid(f"{where}.data: Invalid base64 data") from None


def _actual_image_type(raw: bytes) -> str | None:
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    for media_type, magics in _MAGIC.items():
        if raw.startswith(magics):
            return media_type
    return None


def check_media_block(block: dict, where: str, role: str) -> None:
    kind = block["type"]
    if role != "user":
        raise MediaInvalid(f"{where}: {kind} blocks are only allowed in user messages")
    source = block.get("source")
    if not isinstance(source, dict):
        raise MediaInvalid(f"{where}.source: Field required")
    where = f"{where}.{kind}.source.{source.get('type')}"
    if kind == "image":
        if source.get("type") != "base64":
            raise MediaInvalid(f"{where}: only base64 image sources are accepted by this server")
        media_type = source.get("media_type")
        if media_type not in IMAGE_TYPES:
            raise MediaInvalid(f"{where}.media_type: Input should be {', '.join(repr(t) for t in IMAGE_TYPES)}")
        if len(source.get("data") or "") > MAX_IMAGE_BASE64:
            raise MediaInvalid(f"{where}: image exceeds 5 MB maximum")
        actual = _actual_image_type(_decoded(source.get("data"), where))
        if actual != media_type:
            raise MediaInvalid(
                f"{where}: The image was specified using the {media_type} media type, but the image appears to be "
                f"{'a ' + actual if actual else 'not a supported'} image"
            )
        return
    if source.get("type") == "text":
        if source.get("media_type") != "text/plain" or not isinstance(source.get("data"), str):
            raise MediaInvalid(f"{where}: a text source needs media_type 'text/plain' and its data")
        return
    if source.get("type") != "base64" or source.get("media_type") != "application/pdf":
        raise MediaInvalid(f"{where}: a document's base64 source must have media_type 'application/pdf'")
    if not _decoded(source.get("data"), where).startswith(b"%PDF-"):
        raise MediaInvalid(f"{where}: The PDF specified was not valid.")


def _check_schema(schema, where: str) -> None:
    if not isinstance(schema, dict):
        return
    for name in _UNSUPPORTED:
        if name in schema:
            raise MediaInvalid(f"{where}: '{name}' is not supported in structured outputs")
    if "minItems" in schema and schema["minItems"] not in (0, 1):
        raise MediaInvalid(f"{where}: minItems values other than 0 or 1 are not supported")
    if "maxItems" in schema:
        raise MediaInvalid(f"{where}: 'maxItems' is not supported in structured outputs")
    types = schema.get("type")
    is_object = types == "object" or (isinstance(types, list) and "object" in types)
    if is_object and schema.get("additionalProperties") is not False:
        raise MediaInvalid(f"{where}: For 'object' type, 'additionalProperties' must be explicitly set to false")
    for key in ("properties", "$defs", "definitions"):
        for name, sub in (schema.get(key) or {}).items():
            _check_schema(sub, f"{where}.{key}.{name}")
    if "items" in schema:
        _check_schema(schema["items"], f"{where}.items")
    for key in ("anyOf", "allOf"):
        for i, sub in enumerate(schema.get(key) or []):
            _check_schema(sub, f"{where}.{key}.{i}")


def check_output_format(output_config) -> None:
    fmt = output_config.get("format") if isinstance(output_config, dict) else None
    if fmt is None:
        return
    if not isinstance(fmt, dict) or fmt.get("type") != "json_schema":
        raise MediaInvalid("output_config.format.type: Input should be 'json_schema'")
    schema = fmt.get("schema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise MediaInvalid("output_config.format.schema: the root must be an object schema")
    _check_schema(schema, "output_config.format.schema")
