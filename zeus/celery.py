"""The Celery app: `celery -A zeus worker|beat` finds it here (Celery looks up `zeus.celery` when the package has
no `app`). It is loaded by those processes and by the first task a web process sends (each tasks module
registers its tasks on this app), never by Django's set-up: Celery and kombu are a large import that a process
sending no task does not need (tests/test_startup.py)."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeus.settings.base")

app = Celery("zeus")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Each app's tasks module, and the account-data jobs' (a package of the zeus app, not an app of its own).
app.autodiscover_tasks()
app.autodiscover_tasks(["zeus.account_data"])

# Each job: (its task's name, when, and how long a missed run stays worth running: about one period).
app.conf.beat_schedule = {
    task: {"task": task, "schedule": schedule, "options": {"expires": expires}}
    for task, schedule, expires in [
        # Vietcombank publishes in the morning, Vietnam time (UTC+7): read at 02:15 UTC, once a day.
        ("assets.fetch_exchange_rates", crontab(hour=2, minute=15), 60 * 60),
        ("assets.reconcile_feeds", crontab(hour=3, minute=30), 60 * 60),
        ("plans.watch_cash_shortfall", crontab(minute=35), 55 * 60),
        ("goals.send_debt_reminders", crontab(minute=20), 55 * 60),
        ("plans.send_due_reminders", crontab(minute="*/15"), 14 * 60),
        ("plans.finalize_ended_plans", crontab(minute=5), 55 * 60),
        ("zeus.send_pending_mail", crontab(minute="*/5"), 4 * 60),
        ("suggestions.refresh_suggestions", crontab(hour=1, minute=0), 60 * 60),
        ("suggestions.generate_insights", crontab(hour=2, minute=0), 60 * 60),
        ("suggestions.send_weekly_digest", crontab(minute=0), 55 * 60),
        ("zeus.erase_due_accounts", crontab(hour=4, minute=10), 60 * 60),
        ("zeus.expire_account_exports", crontab(hour=4, minute=40), 60 * 60),
        ("suggestions.detect_recurring", crontab(hour=1, minute=30), 60 * 60),
    ]
}
