"""The users of a nightly or weekly job, in bounded batches with their clock, currency and language."""

import datetime as dt
import zoneinfo
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from suggestions.thresholds import BATCH_SIZE
from zeus.account_data.unlocked import unlocked_users
from zeus.models import DEFAULT_LANGUAGE, DEFAULT_TIMEZONE
from zeus.money import DEFAULT_CURRENCY


@dataclass(frozen=True)
class BatchUser:
    id: int
    timezone: str
    currency: str
    language: str = DEFAULT_LANGUAGE


def user_batches(
    *, user_ids: Iterable[int] | None = None, user_id_range: tuple[int, int] | None = None, size: int = BATCH_SIZE
) -> Iterator[list[BatchUser]]:
    """Active users not locked for erasure, in id order, `size` at a time, with their clock and currency
    (keyset pages); only these ids, or only the ids in [first, last] (a fan-out batch), if given."""
    qs = unlocked_users().filter(is_active=True).order_by("id")
    if user_ids is not None:
        qs = qs.filter(id__in=list(user_ids))
    if user_id_range is not None:
        qs = qs.filter(id__range=user_id_range)
    last = 0
    while True:
        page = list(
            qs.filter(id__gt=last).values_list("id", "profile__timezone", "profile__currency", "profile__language")[
                :size
            ]
        )
        if not page:
            return
        yield [
            BatchUser(uid, tz or DEFAULT_TIMEZONE, cur or DEFAULT_CURRENCY, lang or DEFAULT_LANGUAGE)
            for uid, tz, cur, lang in page
        ]
        last = page[-1][0]
        # A short page is the last, and so is one that reached the range's end: no query for an empty page.
        if len(page) < size or (user_id_range is not None and last >= user_id_range[1]):
            return


def local_today(timezone_name: str, now: dt.datetime) -> dt.date:
    return now.astimezone(zoneinfo.ZoneInfo(timezone_name)).date()
