import importlib

from django.db import migrations

# The month totals go (docs/adr/0002-month-totals.md): the home sums the ledger's months itself. Their triggers
# and functions go first, so no write to the ledger reaches for the table once it is dropped; going back puts
# them back and fills the table again from the ledger, as 0006 did.
month_totals = importlib.import_module("assets.migrations.0006_month_totals")


class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0006_month_totals"),
    ]

    operations = [
        # Reversed, the operations run last to first: the table comes back before its triggers and backfill.
        migrations.RunPython(month_totals.uninstall, month_totals.install),
        migrations.DeleteModel(name="MonthTotal"),
    ]
