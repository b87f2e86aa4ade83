"""Query expressions every app's batch reads share (zeus is below every app: any may import it)."""

from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, BooleanField, F, Func, Value


class IdArray(ArrayField):
    """A bigint[] of ids made whole numbers by AnyOf: bound as one list, where ArrayField sends each element
    through its base field's preparation (most of the cost of compiling a batch's read of a thousand users)."""

    def get_db_prep_value(self, value, connection, prepared=False):
        return value


class AnyOf(Func):
    """`column = ANY(array)`: one parameter however many ids, where `__in` binds (and the driver parses) one
    per id, most of a batch's read of a thousand users. Use it in filter(): `.filter(AnyOf("user_id", ids))`."""

    # The two expressions joined read `(column = ANY(ids))`: the joiner opens the parenthesis the template closes.
    template = "(%(expressions)s))"
    arg_joiner = " = ANY("
    output_field = BooleanField()

    def __init__(self, column: str, ids):
        # int() refuses what is not a whole number, as the base field's preparation did.
        super().__init__(F(column), Value(list(map(int, ids)), output_field=IdArray(BigIntegerField())))
