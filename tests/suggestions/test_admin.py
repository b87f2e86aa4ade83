from django.test import Client

from suggestions.models import RecurringSeries, Suggestion
from suggestions.recurring.detection import add_months
from suggestions.recurring.job import recurring_detect
from tests import factories
from tests.suggestions.factories import suggestion
from zeus.timeutil import user_today


def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def test_staff_can_filter_and_search_suggestions(staff, alice):
    suggestion(alice, key="a", title="Set a monthly budget")
    suggestion(alice, key="b", kind="goal_nudge", title="House is behind schedule")
    client = staff_client(staff)
    page = client.get("/admin/suggestions/suggestion/?kind__exact=goal_nudge&q=alice")
    assert page.status_code == 200
    assert "House is behind schedule" in page.text
    assert "Set a monthly budget" not in page.text


def test_the_changelist_does_not_query_once_per_row(staff, alice, bob, django_assert_max_num_queries):
    for n in range(20):
        suggestion(alice if n % 2 else bob, key=f"k{n}")
    client = staff_client(staff)
    with django_assert_max_num_queries(12):
        assert client.get("/admin/suggestions/suggestion/").status_code == 200


def test_staff_can_run_insights_for_the_selected_users_now(staff, alice, bob):
    chosen = suggestion(alice, key="a")
    suggestion(bob, key="b")
    for user in (alice, bob):
        for _ in range(2):
            factories.txn(
                user, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=user_today(user)
            )
    response = staff_client(staff).post(
        "/admin/suggestions/suggestion/",
        {"action": "run_insights", "_selected_action": [chosen.id]},
        follow=True,
    )
    assert response.status_code == 200
    assert "1 new insight" in response.text
    assert Suggestion.objects.filter(user=alice, kind="duplicate_charge").exists()
    assert not Suggestion.objects.filter(user=bob, kind="duplicate_charge").exists()


def test_staff_can_detect_recurring_series_for_the_selected_users_now(staff, alice, bob):
    first = add_months(user_today(alice), -4)
    for user in (alice, bob):
        for k in range(4):
            factories.txn(user, category="subscriptions", description="Netflix", amount=260_000,
                          occurred_on=add_months(first, k))  # fmt: skip
    recurring_detect(user_ids=[alice.id])
    (chosen,) = RecurringSeries.objects.filter(user=alice)
    for k in range(4):
        factories.txn(alice, category="personal_care", description="California Fitness", amount=500_000,
                      occurred_on=add_months(first, k))  # fmt: skip

    response = staff_client(staff).post(
        "/admin/suggestions/recurringseries/",
        {"action": "detect_now", "_selected_action": [chosen.id]},
        follow=True,
    )

    assert response.status_code == 200
    assert "Detected 2 series for 1 user(s): 1 new, 0 ended" in response.text
    assert set(RecurringSeries.objects.filter(user=alice).values_list("merchant", flat=True)) == {
        "Netflix",
        "California Fitness",
    }
    assert not RecurringSeries.objects.filter(user=bob).exists()
