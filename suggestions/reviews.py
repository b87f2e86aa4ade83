"""The weekly reviews a person can open: the weeks that have one, newest first, and the neighbours of a week
(the next one only once it has begun)."""

import datetime as dt
from dataclasses import dataclass

from suggestions.models import WeeklyDigest
from zeus.timeutil import user_today

INDEX_SIZE = 52


@dataclass(frozen=True)
class ReviewWeek:
    iso_week: str
    start: dt.date

    @property
    def end(self) -> dt.date:
        return self.start + dt.timedelta(days=6)


def week_of(day: dt.date) -> ReviewWeek:
    start = day - dt.timedelta(days=day.weekday())
    year, week, _ = start.isocalendar()
    return ReviewWeek(f"{year}-W{week:02d}", start)


def review_weeks(*, user, limit: int = INDEX_SIZE) -> list[ReviewWeek]:
    """This week (its review is made when opened) and every week a review was sent for, newest first."""
    current = week_of(user_today(user))
    sent = WeeklyDigest.objects.filter(user=user).order_by("-week_start").values_list("iso_week", "week_start")
    weeks = [current, *(ReviewWeek(w, s) for w, s in sent[:limit] if w != current.iso_week)]
    return weeks[:limit]


def latest_review_week(*, user) -> ReviewWeek:
    """The newest sent review's week, or this week when none was sent yet."""
    newest = WeeklyDigest.objects.filter(user=user).order_by("-week_start").values_list("week_start", flat=True)
    start = newest.first()
    return week_of(start) if start is not None else week_of(user_today(user))


def neighbours(*, user, start: dt.date) -> tuple[ReviewWeek, ReviewWeek | None]:
    """The week before, and the week after when it has begun for this person."""
    following = week_of(start + dt.timedelta(days=7))
    return week_of(start - dt.timedelta(days=7)), following if following.start <= user_today(user) else None
