"""A notification's words, made when it is read, in the reader's language (docs/i18n.md).

A producer that wants its notification to follow the reader's language stores its facts with it and registers
a writer here, for its kind or, where one kind has several producers, for the name its facts carry as `words`
(from its AppConfig.ready: zeus cannot import the apps above it). The stored title and body are the fallback:
for kinds without a writer (an admin's reply is a person's own words), and for rows whose facts the writer
cannot read (one stored before its facts were kept)."""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class NotificationWords:
    title: str
    body: str
    cta_url: str


Writer = Callable[[dict], NotificationWords | None]
WRITERS: dict[str, Writer] = {}


def notification_writer_register(*, kind: str, writer: Writer) -> None:
    WRITERS[kind] = writer


def notification_words(notification) -> NotificationWords:
    facts = notification.facts or {}
    writer = WRITERS.get(facts.get("words") or notification.kind)
    try:
        written = writer(facts) if writer is not None and facts else None
    except (KeyError, TypeError, ValueError, ArithmeticError):
        written = None  # facts the writer cannot read: the words stored with the row
    if written is None:
        return NotificationWords(title=notification.title, body=notification.body, cta_url=notification.cta_url)
    # A writer leaves empty what it does not word (a synced row's bank description, a link known when stored).
    return NotificationWords(
        title=written.title or notification.title,
        body=written.body or notification.body,
        cta_url=written.cta_url or notification.cta_url,
    )
