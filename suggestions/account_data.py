"""Suggestions, insights, recurring series and the weekly digests, declared for the account's export, restore
and erasure (zeus/account_data)."""

from zeus.account_data.registry import Record, register

RECORDS = [
    Record("suggestions.Suggestion", "user"),
    Record("suggestions.RecurringSeries", "user"),
    Record("suggestions.WeeklyDigest", "user"),
]


def register_all() -> None:
    for record in RECORDS:
        register(record)
