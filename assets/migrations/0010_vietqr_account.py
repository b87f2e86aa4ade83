from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("assets", "0009_unaccent")]

    operations = [
        migrations.AddField(
            model_name="asset", name="bank_bin", field=models.CharField(blank=True, default="", max_length=6)
        ),
        migrations.AddField(
            model_name="asset", name="account_number", field=models.CharField(blank=True, default="", max_length=19)
        ),
    ]
