"""Query expressions every app's batch reads share (zeus is below every app: any may import it)."""

from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, BooleanField, F, Func, Value


class AnyOf(Func):
    """`column = ANY(array)`: one parameter however many ids, where `__in` binds (and the driver parses) one
    per id, most of a batch's read of a thousand users. Use it in filter(): `.filter(AnyOf("user_id", ids))`."""

    # The two expressions joined read `(column = ANY(ids))`: the joiner opens the parenthesis the template closes.
    template = "(%(expressions)s))"
    arg_joiner = " = ANY("
    output_field = BooleanField()

    def __init__(self, column: str, ids):
        super().__init__(F(column), Value(list(ids), output_field=ArrayField(BigIntegerField())))
