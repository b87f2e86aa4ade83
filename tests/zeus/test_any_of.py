"""zeus.queries.AnyOf: `column = ANY(ids)` with the ids bound as one array, as they are."""

import pytest

from tests import factories
from zeus.models import Profile
from zeus.queries import AnyOf

pytestmark = pytest.mark.django_db


def test_it_matches_the_ids_given_and_nothing_for_none():
    users = [factories.user(f"any{n}") for n in range(3)]
    wanted = {users[0].pk, users[2].pk}
    assert set(Profile.objects.filter(AnyOf("user_id", wanted)).values_list("user_id", flat=True)) == wanted
    # A thousand ids are one parameter, each a whole number (a numeric string reads as its number).
    many = [users[1].pk, *range(10**6, 10**6 + 999)]
    assert list(Profile.objects.filter(AnyOf("user_id", many)).values_list("user_id", flat=True)) == [users[1].pk]
    assert list(Profile.objects.filter(AnyOf("user_id", [str(users[1].pk)])).values_list("user_id", flat=True)) == [
        users[1].pk
    ]
    assert not Profile.objects.filter(AnyOf("user_id", [])).exists()


def test_an_id_that_is_no_whole_number_is_refused_before_any_query():
    with pytest.raises(ValueError):
        AnyOf("user_id", ["1; DROP TABLE"])
