import datetime as dt

import pytest

from suggestions.insights.job import insights_generate
from suggestions.models import Suggestion
from tests import factories
from tests.suggestions.factories import NOW, day, steady_life, weekly
from zeus.models import Notification
from zeus.timeutil import user_today


def run(user=None, now=NOW) -> int:
    return insights_generate(user_ids=[user.id] if user else None, now=now)


def insights(user, kind=None) -> list[Suggestion]:
    qs = Suggestion.objects.filter(user=user).order_by("id")
    return list(qs.filter(kind=kind) if kind else qs)


def refund(user, description, amount, on):
    factories.txn(
        user, direction="income", category="other_income", description=description, amount=amount, occurred_on=on
    )


def keys(user, kind=None) -> list[str]:
    return [s.dedupe_key for s in insights(user, kind)]


def test_an_ordinary_quarter_yields_nothing(alice):
    steady_life(alice)
    assert run(alice) == 0
    assert insights(alice) == []


def test_a_shopping_spree_is_a_category_spike_with_a_notification(alice):
    steady_life(alice)
    weekly(alice, category="shopping", amounts=[7_500_000, *[200_000, 350_000, 150_000, 300_000] * 3])

    assert run(alice) == 1
    (spike,) = insights(alice)
    assert spike.kind == "category_spike"
    assert spike.dedupe_key == "category_spike:shopping:2026-W49"
    assert spike.status == "active"
    assert "₫7,500,000" in spike.body
    assert spike.cta_url.startswith("/chat?prompt=")
    assert spike.payload["last_7_days"] == "7500000"
    note = Notification.objects.get(user=alice)
    assert (note.kind, note.dedupe_key, note.title) == ("insight", spike.dedupe_key, spike.title)


def test_a_rerun_adds_nothing(alice):
    steady_life(alice)
    weekly(alice, category="shopping", amounts=[7_500_000, *[200_000, 350_000, 150_000, 300_000] * 3])
    factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    factories.budget(alice, category="dining", amount=50_000)

    first = run(alice)
    assert first == 4  # a spike, a duplicate, a budget at 80 % and at 100 %
    assert run(alice) == 0
    assert run(alice, now=NOW + dt.timedelta(hours=20)) == 0
    assert Suggestion.objects.filter(user=alice).count() == first
    assert Notification.objects.filter(user=alice, kind="insight").count() == first


def test_a_dismissed_insight_does_not_come_back_in_its_period(alice):
    steady_life(alice)
    weekly(alice, category="shopping", amounts=[7_500_000, *[200_000, 350_000, 150_000, 300_000] * 3])
    run(alice)
    Suggestion.objects.filter(user=alice).update(status="dismissed")
    assert run(alice) == 0


def test_the_same_spike_seen_again_next_iso_week_is_not_repeated(alice):
    steady_life(alice)
    weekly(alice, category="shopping", amounts=[0, *[200_000, 350_000, 150_000, 300_000] * 3])
    factories.txn(alice, category="shopping", description="Uniqlo", amount=5_000_000, occurred_on=day(0))
    sunday = NOW + dt.timedelta(days=3)
    monday = NOW + dt.timedelta(days=4)
    assert run(alice, now=sunday) == 1
    assert run(alice, now=monday) == 0
    assert keys(alice) == ["category_spike:shopping:2026-W49"]


def test_a_new_spike_a_week_later_is_reported_again(alice):
    steady_life(alice)
    weekly(alice, category="shopping", amounts=[5_000_000, *[200_000, 350_000, 150_000, 300_000] * 3])
    assert run(alice) == 1
    factories.txn(alice, category="shopping", description="Uniqlo", amount=9_000_000, occurred_on=day(-7))
    assert run(alice, now=NOW + dt.timedelta(days=7)) == 1
    assert keys(alice) == ["category_spike:shopping:2026-W49", "category_spike:shopping:2026-W50"]


def test_a_steady_large_rent_is_not_a_spike(alice):
    steady_life(alice)
    for paid_on in (dt.date(2026, 9, 1), dt.date(2026, 10, 1), dt.date(2026, 11, 1), dt.date(2026, 12, 1)):
        factories.txn(alice, category="housing", description="Rent", amount=6_500_000, occurred_on=paid_on)
    assert run(alice) == 0


def test_a_monthly_subscription_is_neither_a_spike_nor_a_duplicate(alice):
    steady_life(alice)
    for paid_on in (dt.date(2026, 9, 12), dt.date(2026, 10, 12), dt.date(2026, 11, 12), dt.date(2026, 12, 2)):
        factories.txn(alice, category="subscriptions", description="Netflix", amount=260_000, occurred_on=paid_on)
    assert run(alice) == 0


def test_a_category_empty_most_weeks_spikes_only_above_every_earlier_week(alice, bob):
    steady_life(alice)
    weekly(alice, category="gifts", amounts=[3_000_000, 0, 800_000, 0, 0, 0, 0, 800_000, 0, 0, 0, 0, 0])
    steady_life(bob)
    weekly(bob, category="personal_care", amounts=[1_000_000, 0, 0, 0, 1_000_000, 0, 0, 0, 1_000_000, 0, 0, 0, 0])
    run()
    assert keys(alice) == ["category_spike:gifts:2026-W49"]
    assert keys(bob) == []


def test_a_spike_just_under_the_minimum_amount_is_not_reported(alice, bob):
    steady_life(alice)
    weekly(alice, category="entertainment", amounts=[599_000, *[100_000, 120_000] * 6])
    steady_life(bob)
    weekly(bob, category="entertainment", amounts=[611_000, *[100_000, 120_000] * 6])
    run()
    assert keys(alice) == []
    assert keys(bob) == ["category_spike:entertainment:2026-W49"]


def test_the_minimum_amount_is_per_currency(alice):
    alice.profile.currency = "USD"
    alice.profile.save()
    for k in range(13):
        factories.txn(alice, category="groceries", amount=f"{80 + k % 3}.50", occurred_on=day(7 * k + 2))
    weekly(alice, category="dining", amounts=["45.00", *["15.00", "18.00"] * 6])
    assert run(alice) == 1
    assert keys(alice) == ["category_spike:dining:2026-W49"]
    assert "$45.00" in insights(alice)[0].body


def test_a_new_user_with_two_weeks_of_data_gets_no_spikes(alice):
    steady_life(alice, weeks=2)
    factories.txn(alice, category="shopping", description="Uniqlo", amount=4_000_000, occurred_on=day(1))
    assert run(alice) == 0


def test_a_spike_needs_six_windows_ended_since_the_first_expense(alice, bob):
    # window k is the 7 days ending 7k days ago: alice's first meal, 42 days ago, is window 6's last day (six
    # windows of history); bob's, 41 days ago, falls in window 5 (five)
    usual = [200_000, 210_000, 190_000, 205_000, 195_000, 215_000]
    for k, amount in enumerate(usual, start=1):
        factories.txn(alice, category="dining", description="Pho 24", amount=amount, occurred_on=day(7 * k))
        factories.txn(bob, category="dining", description="Pho 24", amount=amount, occurred_on=day(7 * k - 1))
    for user in (alice, bob):
        factories.txn(user, category="dining", description="Pizza 4P's", amount=5_000_000, occurred_on=day(1))
    assert run(alice) == 1
    assert keys(alice) == ["category_spike:dining:2026-W49"]
    assert run(bob) == 0


def test_two_equal_charges_on_one_day_are_a_duplicate(alice):
    steady_life(alice)
    for _ in range(2):
        factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    assert run(alice) == 1
    (dup,) = insights(alice)
    assert dup.kind == "duplicate_charge"
    assert dup.title == "Possible duplicate charge at CGV Cinemas"
    assert len(dup.payload["transaction_ids"]) == 2
    assert dup.payload["dates"] == ["2026-12-01"]


def test_charges_on_consecutive_days_are_within_24_hours(alice):
    steady_life(alice)
    factories.txn(alice, category="shopping", description="CIRCLE K #221", amount=150_000, occurred_on=day(10))
    factories.txn(alice, category="shopping", description="Circle K #305", amount=150_000, occurred_on=day(9))
    assert run(alice) == 1
    assert insights(alice)[0].payload["dates"] == ["2026-11-23", "2026-11-24"]


def test_two_equal_coffees_a_week_apart_are_not_a_duplicate(alice):
    steady_life(alice)
    factories.txn(alice, category="dining", description="Cong Caphe", amount=45_000, occurred_on=day(1))
    factories.txn(alice, category="dining", description="Cong Caphe", amount=45_000, occurred_on=day(8))
    assert run(alice) == 0


def test_equal_amounts_at_different_merchants_are_not_a_duplicate(alice):
    steady_life(alice)
    factories.txn(alice, category="dining", description="Cong Caphe", amount=45_000, occurred_on=day(1))
    factories.txn(alice, category="dining", description="The Coffee House", amount=45_000, occurred_on=day(1))
    assert run(alice) == 0


def test_a_first_large_purchase_in_a_quiet_category_is_a_spike(alice):
    steady_life(alice)
    factories.txn(alice, category="health", description="FV Hospital", amount=1_200_000, occurred_on=day(3))
    assert run(alice) == 1
    assert insights(alice)[0].payload["score"] is None


def test_a_purchase_and_its_refund_are_not_a_duplicate(alice):
    steady_life(alice)
    factories.txn(alice, category="shopping", description="Shopee", amount=450_000, occurred_on=day(2))
    refund(alice, "Refund Shopee", 450_000, day(1))
    assert run(alice) == 0


def test_a_double_charge_already_refunded_is_not_reported(alice):
    steady_life(alice)
    for _ in range(2):
        factories.txn(alice, category="shopping", description="Lazada", amount=190_000, occurred_on=day(3))
    refund(alice, "Lazada refund", 190_000, day(1))
    assert run(alice) == 0


def test_a_recurring_daily_fare_is_not_a_duplicate(alice):
    steady_life(alice)
    for n in range(60):
        if day(n).weekday() < 5:
            factories.txn(alice, category="transport", description="Metro Line 1", amount=20_000, occurred_on=day(n))
    assert run(alice) == 0


def test_two_rides_a_day_apart_with_a_regular_driver_app_are_two_visits(alice):
    steady_life(alice)  # Grab every week
    factories.txn(alice, category="transport", description="Grab", amount=45_000, occurred_on=day(5))
    factories.txn(alice, category="transport", description="Grab", amount=45_000, occurred_on=day(6))
    assert run(alice) == 0


def test_a_double_swipe_at_a_regular_shop_is_still_a_duplicate(alice):
    steady_life(alice)  # Co.op Mart every week
    swipes = [
        factories.txn(alice, category="groceries", description="CO.OP MART", amount=412_000, occurred_on=day(12))
        for _ in range(2)
    ]
    assert run(alice) == 1
    assert insights(alice)[0].payload["transaction_ids"] == [t.id for t in swipes]


def test_a_duplicated_income_is_reported_as_a_duplicate_deposit(alice):
    steady_life(alice)
    for _ in range(2):
        factories.txn(
            alice, direction="income", category="bonus", description="ACME bonus", amount=3_000_000, occurred_on=day(4)
        )
    run(alice)
    assert [s.title for s in insights(alice)] == ["Possible duplicate deposit at ACME bonus"]


def test_budget_thresholds_land_at_80_and_at_100_percent_once_each(alice):
    steady_life(alice)
    factories.budget(alice, category="groceries", amount=1_000_000)  # background puts 600,000 on Dec 1
    factories.budget(alice, category="transport", amount=5_000_000)
    factories.txn(alice, category="groceries", description="Bach Hoa Xanh", amount=200_000, occurred_on=day(0))
    assert run(alice) == 1
    assert keys(alice) == ["budget_threshold:groceries:80:2026-12"]
    assert "80%" in insights(alice)[0].title

    factories.txn(alice, category="groceries", description="Bach Hoa Xanh", amount=250_000, occurred_on=day(0))
    assert run(alice) == 1
    assert keys(alice) == ["budget_threshold:groceries:80:2026-12", "budget_threshold:groceries:100:2026-12"]
    assert run(alice) == 0


def test_last_months_spending_does_not_count_toward_this_months_budget(alice):
    steady_life(alice)
    factories.budget(alice, category="shopping", amount=1_000_000)
    factories.txn(alice, category="shopping", description="Uniqlo", amount=2_000_000, occurred_on=dt.date(2026, 11, 30))
    run(alice)
    assert keys(alice, "budget_threshold") == []


def test_each_user_sees_only_their_own_insights(alice, bob):
    steady_life(alice)
    steady_life(bob)
    for _ in range(2):
        factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    factories.txn(bob, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    run()
    assert len(insights(alice)) == 1
    assert insights(bob) == []
    assert not Notification.objects.filter(user=bob).exists()


def test_the_users_today_is_in_their_timezone(alice):
    alice.profile.timezone = "America/Los_Angeles"  # 2026-12-02 21:00 there: the spike on the 3rd is tomorrow
    alice.profile.save()
    steady_life(alice)
    factories.txn(alice, category="shopping", description="Uniqlo", amount=7_000_000, occurred_on=day(0))
    assert run(alice) == 0


def test_queries_per_batch_do_not_grow_with_users(db, django_assert_max_num_queries):
    users = [factories.user(f"u{n}") for n in range(12)]
    for user in users:
        steady_life(user, weeks=4)
    with django_assert_max_num_queries(5):
        assert insights_generate(now=NOW) == 0


def test_queries_per_batch_grow_only_with_new_insights(db, django_assert_max_num_queries):
    users = [factories.user(f"u{n}") for n in range(6)]
    for user in users:
        steady_life(user)
        for _ in range(2):
            factories.txn(user, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    # users page, totals, budgets, candidates, series, existing keys, users by id, the bulk insert, 3 per
    # notification (savepoint, insert, release), the empty users page, the transaction around the writes
    with django_assert_max_num_queries(12 + 3 * len(users)):
        assert insights_generate(now=NOW) == len(users)


def test_the_command_runs_one_user(alice, bob):
    from django.core.management import call_command

    for user in (alice, bob):
        for _ in range(2):
            factories.txn(
                user, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=user_today(user)
            )
    call_command("generate_insights", "--user", "alice")
    assert len(insights(alice)) == 1
    assert insights(bob) == []


def test_the_command_refuses_an_unknown_user(db):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError):
        call_command("generate_insights", "--user", "nobody")


@pytest.mark.django_db(transaction=True)
def test_a_new_insight_is_pushed_live_to_the_users_sockets():
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from zeus.live import user_group

    alice = factories.user("alice")
    steady_life(alice, weeks=2)
    for _ in range(2):
        factories.txn(alice, category="entertainment", description="CGV Cinemas", amount=240_000, occurred_on=day(2))
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(alice.id), channel)

    assert run(alice) == 1

    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "notification.push"
    assert message["notification"]["kind"] == "insight"
    assert message["notification"]["title"] == "Possible duplicate charge at CGV Cinemas"
    async_to_sync(layer.group_discard)(user_group(alice.id), channel)
