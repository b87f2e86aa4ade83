from suggestions.batches import user_batches
from suggestions.selectors import suggestion_list_active, suggestion_to_dict
from tests import factories
from tests.suggestions.factories import suggestion


def test_the_chat_reads_the_newest_active_suggestions(alice, bob):
    for n in range(4):
        suggestion(alice, key=f"k{n}", title=f"S{n}")
    suggestion(alice, key="gone", status="dismissed")
    suggestion(bob, key="bobs")

    found = suggestion_list_active(user=alice, limit=3)

    assert isinstance(found, list)
    assert [s.title for s in found] == ["S3", "S2", "S1"]
    assert set(suggestion_to_dict(found[0])) == {
        "id", "kind", "title", "body", "cta_url", "prompt", "status", "created_at"
    }  # fmt: skip


def test_a_fan_out_batch_reads_its_users_in_one_query(db, django_assert_num_queries):
    users = [factories.user(f"u{n}") for n in range(3)]
    with django_assert_num_queries(1):  # the range's end is reached: no query for an empty page after it
        batches = list(user_batches(user_id_range=(users[0].id, users[-1].id), size=3))
    assert [[u.id for u in batch] for batch in batches] == [[u.id for u in users]]


def test_full_pages_are_followed_until_every_user_is_read(db):
    users = [factories.user(f"u{n}") for n in range(5)]
    batches = list(user_batches(user_ids=[u.id for u in users], size=2))
    assert [[u.id for u in batch] for batch in batches] == [[u.id for u in users[k : k + 2]] for k in (0, 2, 4)]
    ranged = list(user_batches(user_id_range=(users[0].id, users[-1].id + 10), size=2))
    assert [len(batch) for batch in ranged] == [2, 2, 1]
