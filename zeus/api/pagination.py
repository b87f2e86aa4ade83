from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from zeus.errors import ValidationFailed


class NewestFirstCursorPagination(CursorPagination):
    """`?cursor=` pages, newest first, `page_size` 50 by default and 200 at most."""

    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def decode_cursor(self, request):
        try:
            return super().decode_cursor(request)
        except NotFound as exc:
            raise ValidationFailed("That page cursor is not valid.", code="INVALID_CURSOR") from exc

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is not None:
            try:
                size = int(raw)
            except ValueError:
                size = 0
            if not 1 <= size <= self.max_page_size:
                raise ValidationFailed(
                    f"page_size must be a whole number from 1 to {self.max_page_size}.",
                    fields={"page_size": ["Out of range."]},
                )
        return super().get_page_size(request)

    def get_paginated_response(self, data):
        return Response({"results": data, "next": self.get_next_link(), "previous": self.get_previous_link()})

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["results"],
            "properties": {
                "results": schema,
                "next": {"type": "string", "nullable": True, "format": "uri"},
                "previous": {"type": "string", "nullable": True, "format": "uri"},
            },
        }


def paginate(*, request, view, queryset, serializer_class, ordering=None):
    """Cursor-paginates a selector's queryset for a plain APIView."""
    paginator = NewestFirstCursorPagination()
    if ordering:
        paginator.ordering = ordering
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True, context={"request": request}).data)
