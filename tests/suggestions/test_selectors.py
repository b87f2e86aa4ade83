from suggestions.selectors import suggestion_list_active, suggestion_to_dict
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
