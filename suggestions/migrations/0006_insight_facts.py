"""Insights are worded when read, from their facts (suggestions/insights/wording.py). The rows written before
kept most facts but not the merchant (nor a bill's days ahead): those are filled from the rows they name. An
insight's inbox row gets its insight's facts. A row whose facts cannot be found keeps its stored text, which
the readers fall back to."""

import datetime as dt

from django.db import migrations


def fill(apps, schema_editor):
    Suggestion = apps.get_model("suggestions", "Suggestion")
    Series = apps.get_model("suggestions", "RecurringSeries")
    Transaction = apps.get_model("assets", "Transaction")
    Notification = apps.get_model("zeus", "Notification")
    for s in Suggestion.objects.filter(kind__in=["duplicate_charge", "price_change", "bill_due"]).iterator():
        facts = dict(s.payload or {})
        if "merchant" not in facts:
            if s.kind == "duplicate_charge":
                first = Transaction.objects.filter(id__in=facts.get("transaction_ids") or []).order_by("id").first()
                if first is not None:
                    facts["merchant"] = first.description.strip()
            else:
                series = Series.objects.filter(id=facts.get("series_id")).first()
                if series is not None:
                    facts["merchant"] = series.merchant
        if s.kind == "bill_due" and "days" not in facts and facts.get("due_on"):
            due = facts["due_on"]
            facts["days"] = max(0, (dt.date.fromisoformat(due) - s.created_at.date()).days)
        if facts != s.payload:
            Suggestion.objects.filter(id=s.id).update(payload=facts)
    by_key = {
        (s["user_id"], s["dedupe_key"]): {"insight": s["kind"], **(s["payload"] or {})}
        for s in Suggestion.objects.values("user_id", "dedupe_key", "kind", "payload")
    }
    for n in Notification.objects.filter(kind="insight", facts={}).exclude(dedupe_key=None).iterator():
        facts = by_key.get((n.user_id, n.dedupe_key))
        if facts:
            Notification.objects.filter(id=n.id).update(facts=facts)


class Migration(migrations.Migration):
    dependencies = [
        ("suggestions", "0005_currency_iso4217"),
        ("zeus", "0012_notification_facts"),
        ("assets", "0011_ledger"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
