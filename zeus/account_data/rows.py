"""One row as JSON and back: decimals as strings, dates and times in ISO 8601 (microseconds kept), UUIDs as
strings, foreign keys as the id they held. Django's own JSON serializer cuts datetimes to milliseconds, so
two messages of one second could come back in another order; this keeps them exactly."""

import datetime as dt
import decimal
import uuid

from django.core.exceptions import ValidationError
from django.utils.translation import gettext


def encode(value):
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    return value


def row_to_dict(obj, omit: tuple[str, ...] = ()) -> dict:
    """The row's concrete fields by column name (`asset_id`, not `asset`), its primary key as `id`."""
    out = {"id": encode(obj.pk)}
    for f in obj._meta.concrete_fields:
        if f.primary_key or f.name in omit:
            continue
        out[f.attname] = encode(f.value_from_object(obj))
    return out


class BadValue(Exception):
    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


def decode(field, value):
    """The stored value of `field` from its JSON form, checked as the model's own field would check it."""
    if value is None:
        if not field.null:
            raise BadValue(field.attname, gettext("must not be null"))
        return None
    if field.get_internal_type() == "JSONField":
        return value
    if isinstance(value, dict | list):
        raise BadValue(field.attname, gettext("must be a plain value"))
    try:
        parsed = field.to_python(value)
        if not field.is_relation:
            field.run_validators(parsed)
            # An empty value is the field's own default more than once ("" where no choice was made yet).
            if field.choices and parsed not in field.empty_values and parsed not in {k for k, _ in field.flatchoices}:
                raise ValidationError(gettext("not one of the choices"))
    except (ValidationError, TypeError, ValueError, decimal.InvalidOperation, OverflowError) as exc:
        raise BadValue(field.attname, _message(exc)) from None
    if isinstance(parsed, dt.datetime) and parsed.tzinfo is None:
        raise BadValue(field.attname, gettext("a time needs its offset"))
    return parsed


def _message(exc) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(str(m) for m in exc.messages)
    return str(exc) or exc.__class__.__name__
