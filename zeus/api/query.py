"""A list's query filters, read through a serializer: a known filter with a value it cannot take is a 400
naming it (VALIDATION_ERROR), never a silent ignore; parameter names a view does not know (a client's
cache-buster) stay ignored, as a serializer ignores fields it does not declare."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers


class FilterChoiceField(serializers.ChoiceField):
    """A choice among a filter's values, its error listing them in the reader's language. Blank is allowed and
    means "not given", as an empty parameter always has."""

    default_error_messages = {"invalid_choice": _("“{input}” is not one of: {choices}.")}

    def __init__(self, choices, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_blank", True)
        super().__init__(choices, **kwargs)

    def to_internal_value(self, data):
        if data == "" and self.allow_blank:
            return ""
        try:
            return self.choice_strings_to_values[str(data)]
        except KeyError:
            self.fail("invalid_choice", input=str(data)[:40], choices=", ".join(self.choice_strings_to_values))


def query_filters(serializer_class: type[serializers.Serializer], request) -> dict:
    """The request's query filters validated by `serializer_class`: only those given, as it cleaned them."""
    filters = serializer_class(data=request.query_params)
    filters.is_valid(raise_exception=True)
    return dict(filters.validated_data)
