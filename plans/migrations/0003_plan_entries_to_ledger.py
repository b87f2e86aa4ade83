"""A plan's spending entries become rows of the ledger (docs/plans.md, "Logging progress").

Each discretionary entry becomes a manual expense of its user in its plan's currency, for the same amount, on
the day it was logged, in "other" (the category a spending entry takes when none is named), with its note as
the description, on the user's default spending account (assets.selectors.spending_accounts, whose order is
repeated here because a migration reads the historical models). The entry is then deleted, in the same
transaction: run again, the migration finds none left, so no row is ever made twice. Goal entries stay.
"""

from django.db import migrations, models

# assets.selectors.SPENDING_ACCOUNT_ORDER as it stands at this migration.
SPENDING_ACCOUNT_ORDER = ("cash", "e_wallet", "bank_account", "credit_card")


def default_account(Asset, user_id: int, currency: str):
    accounts = Asset.objects.filter(
        user_id=user_id, currency=currency, source="manual", kind__in=SPENDING_ACCOUNT_ORDER, archived_at__isnull=True
    ).order_by("created_at", "id")
    return min(accounts, key=lambda a: SPENDING_ACCOUNT_ORDER.index(a.kind), default=None)


def spending_entries_to_ledger(apps, schema_editor):
    PlanEntry = apps.get_model("plans", "PlanEntry")
    Transaction = apps.get_model("assets", "Transaction")
    Asset = apps.get_model("assets", "Asset")
    moved = PlanEntry.objects.filter(kind="discretionary").select_related("plan").order_by("id")
    accounts = {}
    for entry in moved.iterator():
        plan = entry.plan
        key = (plan.user_id, plan.currency)
        if key not in accounts:
            accounts[key] = default_account(Asset, *key)
        Transaction.objects.create(
            user_id=plan.user_id,
            amount=entry.amount,
            currency=plan.currency,
            direction="expense",
            description=entry.note,
            category="other",
            occurred_on=entry.logged_on,
            asset=accounts[key],
            source="manual",
        )
    moved.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("plans", "0002_forecast_watch"),
        ("assets", "0011_ledger"),
    ]

    operations = [
        # Reversed, the moved rows stay in the ledger, where they now live, and the entries left (all goal
        # contributions) take back their kind through this default.
        migrations.AlterField(
            model_name="planentry",
            name="kind",
            field=models.CharField(
                choices=[("discretionary", "Discretionary"), ("goal", "Goal")], default="goal", max_length=20
            ),
        ),
        migrations.RunPython(spending_entries_to_ledger, migrations.RunPython.noop),
        migrations.RemoveField(model_name="planentry", name="kind"),
    ]
