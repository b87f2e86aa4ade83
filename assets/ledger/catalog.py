"""Writes to the user's own categories and exchange rates, and reading a category as a transaction names it
(`"groceries"` or `"c:<id>"`)."""

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils.translation import gettext

from assets import categories
from assets.ledger.models import ExchangeRate, UserCategory
from zeus.errors import Conflict, NotFound, ValidationFailed
from zeus.money import normalize_currency
from zeus.timeutil import parse_date
from zeus.validation import clean_text

USER_CATEGORY_PREFIX = "c:"


def category_resolve(*, user, value: str, direction: str | None = None) -> tuple[str, UserCategory | None]:
    """(the fixed category, the user's own category or None) that `value` names; with a `direction`, the
    kind must fit it."""
    value = str(value or "")
    own = None
    if value.startswith(USER_CATEGORY_PREFIX):
        try:
            own = UserCategory.objects.get(user=user, id=int(value[len(USER_CATEGORY_PREFIX) :]))
        except (UserCategory.DoesNotExist, ValueError, OverflowError):
            raise ValidationFailed(
                gettext("No such category %(value)r.") % {"value": value},
                fields={"category": [gettext("No such category.")]},
            ) from None
        kind = own.kind
    elif value in categories.ALL:
        kind = value
    else:
        raise ValidationFailed(
            gettext("Unknown category %(value)r.") % {"value": value}, fields={"category": [gettext("Not a category.")]}
        )
    if direction is not None and not categories.fits(kind, direction):
        raise ValidationFailed(
            gettext("%(value)s is not an %(direction)s category.") % {"value": value, "direction": direction},
            fields={"category": [gettext("Not an %(direction)s category.") % {"direction": direction}]},
        )
    return kind, own


def category_key(category: str, user_category_id: int | None) -> str:
    """How a row's category reads outside: the user's own one when set, else the fixed one."""
    return f"{USER_CATEGORY_PREFIX}{user_category_id}" if user_category_id else category


def _kind(value) -> str:
    if value not in categories.ALL:
        raise ValidationFailed(
            gettext("kind must be one of the fixed categories."), fields={"kind": [gettext("Not a category.")]}
        )
    return value


def user_category_create(*, user, kind: str, name_vi: str, name_en: str) -> UserCategory:
    try:
        with db_transaction.atomic():
            return UserCategory.objects.create(
                user=user,
                kind=_kind(kind),
                name_vi=clean_text(name_vi, "name_vi", max_length=60, required=True),
                name_en=clean_text(name_en, "name_en", max_length=60, required=True),
            )
    except IntegrityError:
        raise Conflict(gettext("You already have a category of that name."), code="CATEGORY_EXISTS") from None


def _own(user, category_id) -> UserCategory:
    try:
        return UserCategory.objects.get(user=user, id=int(category_id))
    except (UserCategory.DoesNotExist, TypeError, ValueError, OverflowError):
        raise NotFound(gettext("No such category.")) from None


def user_category_update(*, user, category_id, **changes) -> UserCategory:
    """Renames a category (`name_vi`, `name_en`). Its kind stays: the rows under it are counted there."""
    unknown = set(changes) - {"name_vi", "name_en"}
    if unknown:
        raise ValidationFailed(gettext("Unknown fields: %(value)s.") % {"value": ", ".join(sorted(unknown))})
    own = _own(user, category_id)
    for name in ("name_vi", "name_en"):
        if name in changes:
            setattr(own, name, clean_text(changes[name], name, max_length=60, required=True))
    try:
        with db_transaction.atomic():
            own.save()
    except IntegrityError:
        raise Conflict(gettext("You already have a category of that name."), code="CATEGORY_EXISTS") from None
    return own


def user_category_delete(*, user, category_id) -> None:
    """The rows under it fall back to its kind, which they already hold."""
    _own(user, category_id).delete()


def exchange_rate_set(*, user, day, from_currency: str, to_currency: str, rate) -> ExchangeRate:
    """The user's own rate for a day: for this user it wins over the published one of that day."""
    day = day if isinstance(day, dt.date) else parse_date(day, "date")
    source_currency, target = normalize_currency(from_currency), normalize_currency(to_currency)
    if source_currency == target:
        raise ValidationFailed(
            gettext("from and to must differ."), code="RATE_INVALID", fields={"to": [gettext("Same as from.")]}
        )
    try:
        value = Decimal(str(rate))
    except (InvalidOperation, ValueError):
        value = None
    if value is None or not value.is_finite() or value <= 0 or value.adjusted() > 12:
        raise ValidationFailed(
            gettext("rate must be a positive number."),
            code="RATE_INVALID",
            fields={"rate": [gettext("Must be more than 0.")]},
        )
    value = value.quantize(Decimal("1e-10"))
    if value <= 0:
        raise ValidationFailed(
            gettext("rate is too small."), code="RATE_INVALID", fields={"rate": [gettext("Too small.")]}
        )
    found, _ = ExchangeRate.objects.update_or_create(
        user=user,
        day=day,
        from_currency=source_currency,
        to_currency=target,
        defaults={"rate": value, "source": ExchangeRate.Source.USER},
    )
    return found
