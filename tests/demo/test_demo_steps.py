from demo.seed import seed_demo
from plans.selectors import plan_current
from zeus.timeutil import user_today


def test_the_demo_user_has_an_active_plan_for_this_month_once(db):
    first = seed_demo()
    plan = plan_current(user=first.user, today=user_today(first.user))
    assert plan is not None and plan.status == "active"
    assert first.added["plans"] == 1
    again = seed_demo()
    assert again.added["plans"] == 0
    assert plan_current(user=again.user, today=user_today(again.user)).id == plan.id


def test_the_demo_shows_the_planted_duplicate_and_spike_at_once_and_only_once(db):
    from suggestions.selectors import suggestion_list_active

    first = seed_demo()
    assert first.added["insights"] == 2
    kinds = {s.kind for s in suggestion_list_active(user=first.user, limit=50)}
    assert {"duplicate_charge", "category_spike"} <= kinds
    assert seed_demo().added["insights"] == 0


def test_the_demo_has_debts_both_ways_and_a_vietqr_account(db):
    from goals.debts.models import Debt
    from goals.debts.qr import debt_vietqr

    first = seed_demo()
    assert first.added["debts"] == 4
    assert seed_demo().added["debts"] == 0
    user = first.user
    assert set(Debt.objects.filter(user=user).values_list("direction", flat=True)) == {"i_owe", "owed_to_me"}
    loan = Debt.objects.get(user=user, installments=12)
    assert loan.payments.count() >= 2  # the instalments already due are paid
    friend = Debt.objects.get(user=user, counterparty="Lan")
    vcb = user.assets.get(bank_bin="970436")
    assert debt_vietqr(user=user, debt_id=friend.id, account=vcb.id).payload.startswith("000201")
