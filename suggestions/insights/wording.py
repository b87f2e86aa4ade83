"""An insight's sentences, made from its facts when it is read, in the reader's language (docs/i18n.md).

An insight stores its kind and facts (amounts as decimal strings, category codes, ISO dates, the merchant);
its title, body and prompt are written here in the active language, so a reader who switches to Vietnamese
reads last week's insights in Vietnamese. The text stored with the row is the fallback for a row whose facts
are incomplete (one written before the facts were kept)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from assets.labels import category_label
from suggestions.drafts import chat_url
from zeus.money import format_amount
from zeus.wording import NotificationWords


@dataclass(frozen=True)
class Words:
    title: str
    body: str
    prompt: str
    cta_url: str

    @classmethod
    def asking(cls, *, title: str, body: str, prompt: str) -> "Words":
        """An insight's call to action opens the chat with its prompt typed in."""
        return cls(title=title, body=body, prompt=prompt, cta_url=chat_url(prompt))


def _money(value: str, currency: str) -> str:
    return format_amount(Decimal(value), currency, locale=translation.get_language() or "vi")


def _category(code: str) -> str:
    return category_label(code).lower()


def _day(value: str, pattern: str = "DATE_FORMAT") -> str:
    return date_format(dt.date.fromisoformat(value), pattern)


def category_spike(f: dict) -> Words:
    words = {"category": _category(f["category"]), "amount": _money(f["last_7_days"], f["currency"]),
             "median": _money(f["median"], f["currency"])}  # fmt: skip
    return Words.asking(
        title=_("Unusual %(category)s spending this week") % words,
        body=_("You spent %(amount)s on %(category)s in the last 7 days, against a typical %(median)s a week.") % words,
        prompt=_("Why is my %(category)s spending so high this week?") % words,
    )


def budget_threshold(f: dict) -> Words:
    spent, limit = Decimal(f["spent"]), Decimal(f["limit"])
    words = {
        "category": _category(f["category"]),
        "pct": int(spent * 100 / limit) if limit else int(f["level"]),
        "spent": _money(f["spent"], f["currency"]),
        "limit": _money(f["limit"], f["currency"]),
    }
    if int(f["level"]) >= 100:
        title = _("You have gone over your %(category)s budget") % words
        prompt = _("I went over my %(category)s budget this month; how do I get back on track?") % words
    else:
        title = _("You have used %(pct)s%% of your %(category)s budget") % words
        prompt = _("How can I stay within my %(category)s budget for the rest of the month?") % words
    body = _("You have spent %(spent)s of your %(limit)s %(category)s budget this month.") % words
    return Words.asking(title=title, body=body, prompt=prompt)


def duplicate_charge(f: dict) -> Words:
    days = sorted(f["dates"])
    words = {"merchant": f["merchant"], "amount": _money(f["amount"], f["currency"]),
             "count": len(f["transaction_ids"]), "first": _day(days[0]), "last": _day(days[-1])}  # fmt: skip
    words["when"] = (_("on %(first)s") if len(days) == 1 else _("between %(first)s and %(last)s")) % words
    if f["direction"] == "expense":
        return Words.asking(
            title=_("Possible duplicate charge at %(merchant)s") % words,
            body=_(
                "%(count)s charges of %(amount)s at %(merchant)s %(when)s. "
                "If you paid only once, ask %(merchant)s for a refund."
            )
            % words,
            prompt=_("Was I charged twice at %(merchant)s for %(amount)s?") % words,
        )
    return Words.asking(
        title=_("Possible duplicate deposit at %(merchant)s") % words,
        body=_(
            "%(count)s deposits of %(amount)s from %(merchant)s %(when)s. "
            "If it came only once, one of them is a mistake."
        )
        % words,
        prompt=_("Was %(amount)s from %(merchant)s recorded twice?") % words,
    )


def price_change(f: dict) -> Words:
    c = f["currency"]
    words = {"merchant": f["merchant"], "before": _money(f["previous_amount"], c), "after": _money(f["amount"], c),
             "on": _day(f["charged_on"])}  # fmt: skip
    return Words.asking(
        title=_("%(merchant)s went up: %(before)s → %(after)s") % words,
        body=_("%(merchant)s charged %(after)s on %(on)s, up from %(before)s.") % words,
        prompt=_("%(merchant)s now charges me %(after)s instead of %(before)s; is it still worth it?") % words,
    )


def bill_due(f: dict) -> Words:
    c, days = f["currency"], int(f["days"])
    if days == 0:
        when = _("today")
    elif days == 1:
        when = _("tomorrow")
    else:
        when = ngettext("in %(days)d day", "in %(days)d days", days) % {"days": days}
    words = {"merchant": f["merchant"], "amount": _money(f["amount"], c), "left": _money(f["safe_left"], c),
             "when": when, "on": _day(f["due_on"], "MONTH_DAY_FORMAT")}  # fmt: skip
    return Words.asking(
        title=_("%(merchant)s (%(amount)s) is due %(when)s") % words,
        body=_(
            "%(merchant)s usually charges %(amount)s around %(on)s, more than the %(left)s your plan has left "
            "to spend safely this month."
        )
        % words,
        prompt=_("My %(merchant)s bill of %(amount)s is due %(when)s; how do I cover it this month?") % words,
    )


WRITERS = {
    "category_spike": category_spike,
    "budget_threshold": budget_threshold,
    "duplicate_charge": duplicate_charge,
    "price_change": price_change,
    "bill_due": bill_due,
}


def insight_words(kind: str, facts: dict) -> Words | None:
    """The insight's sentences in the active language, or None when its facts cannot make them (an older row
    whose facts were not all kept: its stored text is read instead)."""
    writer = WRITERS.get(kind)
    if writer is None or not facts:
        return None
    try:
        return writer(facts)
    except (KeyError, TypeError, ValueError, InvalidOperation, IndexError, ZeroDivisionError):
        return None


def insight_notification_words(facts: dict) -> NotificationWords | None:
    """The inbox row of an insight: its facts are the insight's, under the insight's kind."""
    words = insight_words(facts.get("insight", ""), {k: v for k, v in facts.items() if k != "insight"})
    return words and NotificationWords(title=words.title, body=words.body, cta_url=words.cta_url)
