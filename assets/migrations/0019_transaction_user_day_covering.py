from django.conf import settings
from django.db import migrations, models


# The ledger-order index on (user, -occurred_on, -id) carries the columns the reads of money that counts need
# (docs/adr/0013): built beside the old one, then the old one goes, so the table is never without it.
class Migration(migrations.Migration):
    dependencies = [
        ("assets", "0018_transaction_user_no_own_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="transaction",
            index=models.Index(
                fields=["user", "-occurred_on", "-id"],
                include=("direction", "category", "currency", "amount", "excluded", "transfer"),
                name="transaction_user_day",
            ),
        ),
        migrations.RemoveIndex(model_name="transaction", name="assets_tran_user_id_294d9b_idx"),
    ]
