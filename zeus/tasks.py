"""Thin mail and push tasks: a notification id in, zeus.mail or zeus.push does the work."""

from zeus import mail, push
from zeus.celery import app


@app.task(bind=True, name="zeus.send_notification_mail", max_retries=6, acks_late=True, ignore_result=True)
def send_notification_mail(self, notification_id: int) -> str:
    try:
        return mail.mail_deliver(notification_id)
    except mail.MAIL_ERRORS as exc:
        if self.request.is_eager or self.request.retries >= self.max_retries:
            # Left pending with its next try recorded: zeus.send_pending_mail picks it up.
            return "failed"
        raise self.retry(exc=exc, countdown=min(3600, 60 * 2**self.request.retries)) from exc


@app.task(name="zeus.send_pending_mail", ignore_result=True)
def send_pending_mail() -> dict:
    return mail.mail_sweep()


@app.task(name="zeus.send_notification_push", acks_late=True, ignore_result=True)
def send_notification_push(notification_id: int) -> dict:
    """One notification to its user's push subscriptions; a push service that is down loses that push (the
    inbox keeps the notification), never the task queue."""
    return push.push_deliver(notification_id)
