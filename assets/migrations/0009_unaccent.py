from django.contrib.postgres.operations import UnaccentExtension
from django.db import migrations

# The ledger search folds diacritics in SQL ("pho" finds "phở"): PostgreSQL's unaccent, a trusted extension.


class Migration(migrations.Migration):
    dependencies = [("assets", "0008_casso_and_reconciliation")]

    operations = [UnaccentExtension()]
