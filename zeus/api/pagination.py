import json
from base64 import b64decode
from collections.abc import Callable

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.response import Response

from zeus.errors import ValidationFailed
from zeus.text import is_storable, json_too_deep


class InvalidCursor(ValidationFailed):
    code = "INVALID_CURSOR"


class NewestFirstCursorPagination(CursorPagination):
    """`?cursor=` pages, newest first, `page_size` 50 by default and 200 at most.

    Keyset pagination over every ordering field, not DRF's first-field position plus an offset: orderings
    such as (-occurred_on, -id) repeat their first field many times a day, and DRF's offset is capped at
    1,000, after which its pages would repeat. The cursor's position is the full ordering key of the row
    it points at, each part checked against its model field, so a forged cursor is a 400, never a 500.
    """

    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        try:
            size = int(raw)
        except ValueError:
            size = 0
        if not 1 <= size <= self.max_page_size:
            raise ValidationFailed(
                _("page_size must be a whole number from 1 to %(max_page_size)s.")
                % {"max_page_size": self.max_page_size},
                fields={
                    "page_size": [
                        _("A whole number from 1 to %(max_page_size)s.") % {"max_page_size": self.max_page_size}
                    ]
                },
            )
        return size

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.page_size = self.get_page_size(request)
        self.base_url = request.build_absolute_uri()
        model = queryset.model
        self.ordering = _unique(self.get_ordering(request, queryset, view), model)
        self.cursor = self.decode_cursor(request)
        reverse = bool(self.cursor and self.cursor.reverse)
        key = self._decode_key(model, self.cursor.position) if self.cursor else None

        ordering = [_flip(field) for field in self.ordering] if reverse else list(self.ordering)
        queryset = queryset.order_by(*ordering)
        if key is not None:
            queryset = queryset.filter(_after(ordering, key))
        rows = list(queryset[: self.page_size + 1])
        more = len(rows) > self.page_size
        self.page = rows[: self.page_size]
        if reverse:
            self.page.reverse()
            self.has_previous, self.has_next = more, key is not None
        else:
            self.has_next, self.has_previous = more, key is not None
        return self.page

    def decode_cursor(self, request):
        try:
            # DRF's decoder drops characters outside base64 silently, reading garbage as the first page.
            b64decode(request.query_params.get(self.cursor_query_param, "").encode("ascii"), validate=True)
            return super().decode_cursor(request)
        except (NotFound, ValueError) as exc:
            raise InvalidCursor(
                _("That page cursor is not valid."), fields={"cursor": [_("Not a valid cursor.")]}
            ) from exc

    def _decode_key(self, model, position) -> list | None:
        if position is None:
            return None
        try:
            parts = position_parts(position)
            if len(parts) != len(self.ordering):
                raise ValueError
            return [
                model._meta.get_field(field.lstrip("-")).to_python(part)
                for field, part in zip(self.ordering, parts, strict=True)
            ]
        except (ValueError, TypeError, ValidationError, FieldDoesNotExist):
            raise InvalidCursor(
                _("That page cursor is not valid."), fields={"cursor": [_("Not a valid cursor.")]}
            ) from None

    def _key_of(self, row) -> str:
        parts = []
        for field in self.ordering:
            name = field.lstrip("-")
            value = row[name] if isinstance(row, dict) else getattr(row, name)
            parts.append(value if isinstance(value, int | str) or value is None else str(value))
        return json.dumps(parts)

    def get_next_link(self):
        if not self.has_next:
            return None
        position = self._key_of(self.page[-1]) if self.page else self.cursor.position
        return self.encode_cursor(Cursor(offset=0, reverse=False, position=position))

    def get_previous_link(self):
        if not self.has_previous:
            return None
        position = self._key_of(self.page[0]) if self.page else self.cursor.position
        return self.encode_cursor(Cursor(offset=0, reverse=True, position=position))

    def get_paginated_response(self, data):
        return Response({"results": data, "next": self.get_next_link(), "previous": self.get_previous_link()})

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["results", "next", "previous"],
            "properties": {
                "results": schema,
                "next": {"type": "string", "nullable": True, "format": "uri"},
                "previous": {"type": "string", "nullable": True, "format": "uri"},
            },
        }


MAX_POSITION = 512


def position_parts(position: str) -> list:
    """A cursor position's parts, checked before and after parsing (ValueError otherwise): a short, flat
    JSON list of integers and storable text, as `_key_of` writes them. A forged position is client input:
    nested brackets would recurse in the parser, and a NUL would fail inside the database (an integer out of
    a column's range is Django's to answer: it matches nothing)."""
    if len(position) > MAX_POSITION or json_too_deep(position, 1):
        raise ValueError("cursor position too long or nested")
    parts = json.loads(position, parse_constant=_refuse_constant)
    if not isinstance(parts, list) or not all(_plain_part(part) for part in parts):
        raise ValueError("cursor position is not a list of plain values")
    return parts


def _plain_part(part) -> bool:
    return isinstance(part, int) or (isinstance(part, str) and is_storable(part))


def _refuse_constant(name: str):
    raise ValueError(f"{name} in a cursor position")


def _unique(ordering: tuple[str, ...], model) -> tuple[str, ...]:
    """The ordering with the primary key as its last tie-breaker, so every row has a distinct key."""
    pk = model._meta.pk.name
    ordering = tuple(
        f"{field[0] if field[0] == '-' else ''}{pk}" if field.lstrip("-") == "pk" else field for field in ordering
    )
    if ordering[-1].lstrip("-") != pk:
        ordering = (*ordering, f"-{pk}" if ordering[-1].startswith("-") else pk)
    return ordering


def _flip(field: str) -> str:
    return field[1:] if field.startswith("-") else f"-{field}"


def _after(ordering: list[str], key: list) -> Q:
    """Rows strictly after `key` in `ordering`: (a, b) after (x, y) when a > x, or a = x and b > y."""
    condition = Q()
    for i in reversed(range(len(ordering))):
        name = ordering[i].lstrip("-")
        step = Q(**{f"{name}__{'lt' if ordering[i].startswith('-') else 'gt'}": key[i]})
        if i < len(ordering) - 1:
            step |= Q(**{name: key[i]}) & condition
        condition = step
    # The redundant bound on the first field lets the database range-scan its index instead of
    # evaluating the OR across every row.
    first = ordering[0].lstrip("-")
    return Q(**{f"{first}__{'lte' if ordering[0].startswith('-') else 'gte'}": key[0]}) & condition


def paginate(
    *,
    request,
    view,
    queryset,
    serializer_class=None,
    ordering=None,
    transform: Callable[[list], list] | None = None,
    render: Callable[[object], dict] | None = None,
):
    """Cursor-paginates a selector's queryset for a plain APIView.

    `ordering` is completed with the primary key as the last tie-breaker. `transform` maps the page's rows
    before they are serialized, so derived figures (a budget's spending, a goal's progress) are computed for
    one page at once. `render` instead of a serializer: a plain function per row, for the long lists where
    DRF's per-field machinery would cost more than the query (the queryset may then be `.values()` rows);
    with neither, `transform` returns the rows as they are shown.
    """
    paginator = NewestFirstCursorPagination()
    if ordering:
        paginator.ordering = tuple(ordering)
    page = paginator.paginate_queryset(queryset, request, view=view)
    if transform is not None:
        page = transform(page)
    if serializer_class is None:
        # Rows rendered by `render`, or by `transform` already when neither is given.
        return paginator.get_paginated_response(page if render is None else [render(row) for row in page])
    return paginator.get_paginated_response(serializer_class(page, many=True, context={"request": request}).data)
