"""Query expressions every app's batch reads share (zeus is below every app: any may import it)."""

from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, BooleanField, F, Func, Value


class IdArray(ArrayField):
    """A bigint[] of ids that are already ints (AnyOf makes them so, in one C-level pass): handed to the driver
    as the list it is. ArrayField prepares each element through its base field (three method calls an id), which
    for a batch read of a thousand users costs more than building the rest of the statement."""

    def __init__(self, **kwargs):
        super().__init__(BigIntegerField(), **kwargs)

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
        # int() of each id: what BigIntegerField's preparation would make of it (a numeric string included).
        super().__init__(F(column), Value(list(map(int, ids)), output_field=IdArray()))
