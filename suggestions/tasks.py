"""Thin tasks: ids in, services do the work. Without ids a task fans out one task per batch of users."""

from celery import shared_task

from suggestions import selectors, services


@shared_task(name="suggestions.refresh_suggestions")
def refresh_suggestions(user_ids: list[int] | None = None) -> int:
    if user_ids is None:
        for batch in selectors.user_batches():
            refresh_suggestions.delay(user_ids=[u.id for u in batch])
        return 0
    return services.suggestions_refresh_users(user_ids=user_ids)


@shared_task(name="suggestions.generate_insights")
def generate_insights(user_ids: list[int] | None = None) -> int:
    if user_ids is None:
        for batch in selectors.user_batches():
            generate_insights.delay(user_ids=[u.id for u in batch])
        return 0
    return services.insights_generate(user_ids=user_ids)


@shared_task(name="suggestions.detect_recurring")
def detect_recurring(user_ids: list[int] | None = None) -> int:
    if user_ids is None:
        for batch in selectors.user_batches():
            detect_recurring.delay(user_ids=[u.id for u in batch])
        return 0
    return services.recurring_detect(user_ids=user_ids).series


@shared_task(name="suggestions.send_weekly_digest")
def send_weekly_digest(user_ids: list[int] | None = None) -> int:
    if user_ids is None:
        for batch in selectors.user_batches():
            send_weekly_digest.delay(user_ids=[u.id for u in batch])
        return 0
    return services.weekly_digest_send(user_ids=user_ids)
