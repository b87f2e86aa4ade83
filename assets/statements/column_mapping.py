"""A bank table's column mapping as a client sends it (`{"date": "Booking date", "amount": "Betrag", ...}`):
checked against the file's header and resolved to column indexes, or refused with a 400 naming each fault.
Pure."""

from django.utils.translation import gettext as _

from assets.rules.text import fold
from assets.statements.rows import ImportRejected
from zeus.text import is_storable

MAPPING_KEYS = {
    "date", "description", "amount", "debit", "credit", "direction", "external_id", "currency", "date_format",
    "status", "fee", "tax",
}  # fmt: skip
# A mapping is client input remembered per user: its texts are bounded (a date format is a pattern for
# strptime, which compiles it: ten thousand directives are a regex with ten thousand groups).
MAX_MAPPING_TEXT = 200
MAX_DATE_FORMAT = 40
_DATE_TOKENS = (("YYYY", "%Y"), ("YY", "%y"), ("MM", "%m"), ("DD", "%d"), ("HH", "%H"), ("mm", "%M"), ("ss", "%S"))


def check_mapping(mapping, header: list[str]) -> dict:
    """The mapping with each column resolved to its index; a 400 naming what is wrong otherwise."""
    if not isinstance(mapping, dict):
        raise ImportRejected(_("mapping must be a JSON object."), code="MAPPING_INVALID")
    unknown = set(mapping) - MAPPING_KEYS
    if unknown:
        raise ImportRejected(
            _("Unknown mapping keys: %(value)s.") % {"value": ", ".join(sorted(unknown))},
            code="MAPPING_INVALID",
            fields={"mapping": [_("Allowed: %(value)s.") % {"value": ", ".join(sorted(MAPPING_KEYS))}]},
        )
    problems: dict[str, list[str]] = {}
    if not mapping.get("date"):
        problems["date"] = [_("Name the date column.")]
    if not (mapping.get("amount") or mapping.get("debit") or mapping.get("credit")):
        problems["amount"] = [_("Name the amount column, or the debit and credit columns.")]
    if mapping.get("amount") and (mapping.get("debit") or mapping.get("credit")):
        problems["amount"] = [_("Name either an amount column or debit/credit columns, not both.")]
    folded = [fold(h) for h in header]
    resolved: dict = {}
    for key in (
        "date", "description", "amount", "debit", "credit", "direction", "external_id", "currency", "status", "fee",
        "tax",
    ):  # fmt: skip
        column = mapping.get(key)
        if not column:
            continue
        if not isinstance(column, str) or len(column) > MAX_MAPPING_TEXT or fold(column) not in folded:
            problems[key] = [
                _("No column is named “%(column)s”; the columns are: %(header)s.")
                % {"column": str(column)[:MAX_MAPPING_TEXT], "header": ", ".join(header)}
            ]
            continue
        resolved[key] = folded.index(fold(column))
    beside = resolved.get("amount", -1) + 1
    if (
        "amount" in resolved
        and resolved.get("currency") == resolved["amount"]
        and beside < len(header)
        and not header[beside].strip()
    ):
        # One name over two columns (DEGIRO's `Mutatie`): its own holds the currency, the unnamed next the
        # figure, where the cells bear that out (conventions.one_name_over_two).
        resolved["amount"], resolved["named_amount"] = beside, resolved["amount"]
    date_format = mapping.get("date_format")
    if date_format is not None:
        if (
            not isinstance(date_format, str)
            or not date_format.strip()
            or len(date_format) > MAX_DATE_FORMAT
            or not is_storable(date_format)
        ):
            problems["date_format"] = [
                _("A format such as %(letters)s or %(codes)s, at most %(count)s characters.")
                % {"letters": "DD/MM/YYYY", "codes": "%d/%m/%Y", "count": MAX_DATE_FORMAT}
            ]
        else:
            resolved["date_format"] = _strptime_format(date_format.strip())
    if problems:
        raise ImportRejected(
            _("The column mapping is incomplete: %(value)s") % {"value": next(iter(problems.items()))[1][0]},
            code="MAPPING_INVALID",
            fields={"mapping": problems},
        )
    return resolved


def _strptime_format(text: str) -> str:
    if "%" in text:
        return text
    for token, directive in _DATE_TOKENS:
        text = text.replace(token, directive)
    return text
