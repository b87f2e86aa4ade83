"""/budgets and /goals: create, edit, delete, progress; bad input named next to its field, nothing saved."""

import datetime as dt
from decimal import Decimal

import pytest

from goals.models import Budget, Goal
from tests import factories
from zeus.timeutil import user_today

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/budgets", "/budgets/", "/goals", "/goals/"])
def test_they_answer_with_and_without_the_slash(alice_web, url):
    assert alice_web.get(url).status_code == 200


def test_creating_a_budget_shows_its_bar(alice_web, alice):
    factories.txn(alice, category="dining", amount="500000", occurred_on=user_today(alice))
    response = alice_web.post("/budgets", {"new-category": "dining", "new-amount": "2tr"})
    assert response.status_code == 302
    budget = Budget.objects.get(user=alice)
    assert budget.amount == Decimal("2000000")
    html = alice_web.get("/budgets").content.decode()
    assert '<progress class="bar good" max="100" value="25"' in html
    assert "₫1,500,000 left this month" in html


@pytest.mark.parametrize(
    "form,field",
    [
        ({"new-category": "dining", "new-amount": "a lot"}, "new-amount"),
        ({"new-category": "dining", "new-amount": "0"}, "new-amount"),
        ({"new-category": "salary", "new-amount": "1tr"}, "new-category"),
        ({"new-category": "dining", "new-amount": ""}, "new-amount"),
    ],
)
def test_a_bad_budget_is_named_next_to_its_field(alice_web, alice, form, field):
    response = alice_web.post("/budgets", form)
    assert response.status_code == 400 and f'id="id_{field}_error"' in response.content.decode()
    assert not Budget.objects.exists()


def test_a_second_budget_for_a_category_is_refused_in_the_language(alice_web, alice):
    from zeus.services import profile_update

    factories.budget(alice, category="dining")
    profile_update(user=alice, language="vi")
    response = alice_web.post("/budgets", {"new-category": "dining", "new-amount": "1tr"})
    assert response.status_code == 400
    assert "Danh mục này đã có ngân sách." in response.content.decode()
    assert Budget.objects.count() == 1


def test_editing_and_deleting_a_budget(alice_web, alice):
    budget = factories.budget(alice, category="dining", amount="1000000")
    assert f'action="/budgets/{budget.id}/edit"' in alice_web.get(f"/budgets?edit={budget.id}").content.decode()
    alice_web.post(f"/budgets/{budget.id}/edit", {f"b{budget.id}-category": "dining", f"b{budget.id}-amount": "3tr"})
    budget.refresh_from_db()
    assert budget.amount == Decimal("3000000")
    bad = alice_web.post(
        f"/budgets/{budget.id}/edit", {f"b{budget.id}-category": "dining", f"b{budget.id}-amount": "x"}
    )
    assert bad.status_code == 400
    budget.refresh_from_db()
    assert budget.amount == Decimal("3000000")
    assert "Delete this budget?" in alice_web.get(f"/budgets?delete={budget.id}").content.decode()
    alice_web.post(f"/budgets/{budget.id}/delete")
    assert not Budget.objects.exists()


def test_another_users_budget_and_goal_are_out_of_reach(alice_web, bob):
    budget, goal = factories.budget(bob), factories.goal(bob)
    alice_web.post(f"/budgets/{budget.id}/delete")
    alice_web.post(f"/goals/{goal.id}/delete")
    alice_web.post(f"/goals/{goal.id}/add", {f"a{goal.id}-amount": "1tr"})
    assert Budget.objects.filter(id=budget.id).exists() and Goal.objects.get(id=goal.id).current_amount == 0


def test_creating_a_goal_adding_money_and_seeing_progress(alice_web, alice):
    deadline = user_today(alice) + dt.timedelta(days=400)
    form = {"new-name": "Trip", "new-kind": "savings", "new-target_amount": "10tr", "new-current_amount": "",
            "new-deadline": deadline.isoformat()}  # fmt: skip
    assert alice_web.post("/goals", form).status_code == 302
    goal = Goal.objects.get(user=alice)
    alice_web.post(f"/goals/{goal.id}/add", {f"a{goal.id}-amount": "2.5tr"})
    goal.refresh_from_db()
    assert goal.current_amount == Decimal("2500000")
    html = alice_web.get("/goals").content.decode()
    assert '<progress class="bar good" max="100" value="25"' in html and "On track" in html


@pytest.mark.parametrize(
    "change,field",
    [
        ({"new-name": ""}, "new-name"),
        ({"new-target_amount": "many"}, "new-target_amount"),
        ({"new-deadline": "2001-01-01"}, "new-deadline"),
        ({"new-deadline": "soon"}, "new-deadline"),
        ({"new-kind": "yacht"}, "new-kind"),
    ],
)
def test_a_bad_goal_is_named_next_to_its_field(alice_web, alice, change, field):
    deadline = user_today(alice) + dt.timedelta(days=400)
    form = {"new-name": "Trip", "new-kind": "savings", "new-target_amount": "10tr", "new-current_amount": "",
            "new-deadline": deadline.isoformat(), **change}  # fmt: skip
    response = alice_web.post("/goals", form)
    assert response.status_code == 400 and f'id="id_{field}_error"' in response.content.decode()
    assert not Goal.objects.exists()


def test_editing_and_deleting_a_goal(alice_web, alice):
    goal = factories.goal(alice, name="House")
    prefix = f"g{goal.id}"
    form = {f"{prefix}-name": "Bigger house", f"{prefix}-kind": "house", f"{prefix}-target_amount": "2 tỷ",
            f"{prefix}-current_amount": "0", f"{prefix}-deadline": goal.deadline.isoformat()}  # fmt: skip
    assert alice_web.post(f"/goals/{goal.id}/edit", form).status_code == 302
    goal.refresh_from_db()
    assert (goal.name, goal.target_amount) == ("Bigger house", Decimal("2000000000"))
    alice_web.post(f"/goals/{goal.id}/delete")
    assert not Goal.objects.exists()
