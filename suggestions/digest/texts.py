"""The weekly review in words (the inbox notice, the mail, the page's summary) and as a chart, in the user's
language: the caller sets it with translation.override."""

import functools
from collections import defaultdict
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from assets.labels import category_label
from suggestions.digest.compose import TOP
from zeus.formatting import number_text, week_label
from zeus.money import format_amount
from zeus.wording import NotificationWords

STATE_LABELS = {
    "on_track": gettext_lazy("on track"),
    "spend_pace": gettext_lazy("spending ahead of pace"),
    "overspent": gettext_lazy("overspent"),
    "goal_drift": gettext_lazy("behind on the goal"),
}


def reader() -> str:
    """The language the words are being made in (the reader's: the page's request, or the batch's override)."""
    return translation.get_language() or "vi"


def title(review: dict, *, _=_, this_year: int | None = None, week=week_label, locale: str | None = None) -> str:
    """ "Tuần 49: đã chi 1.500.000 ₫" (the page's heading, the notice's and the mail's title); the week's year
    only when it is not this_year. (`week` and `locale`: texts() passes week_label memoised for the batch, whose
    reviews share their week, and the reader() it read once per language; the words are the same.)"""
    c = review["currency"]
    return _("%(week)s: %(spent)s spent") % {
        "week": week(review["week"], this_year=this_year),
        "spent": format_amount(Decimal(review["spent"]), c, locale=locale or reader()),
    }


def body(review: dict, *, _=_, number=number_text, label=category_label, locale: str | None = None) -> str:
    """The review in a few plain lines: the inbox text and the mail's body. (`_`, `number`, `label` and `locale`:
    texts() passes gettext, number_text and category_label memoised for the batch and the reader() it read once
    per language; the words are the same.)"""
    c, locale = review["currency"], locale or reader()
    lines = []
    spent = format_amount(Decimal(review["spent"]), c, locale=locale)
    average = format_amount(Decimal(review["average_previous"]), c, locale=locale)
    if review["change_pct"] is None:
        lines.append(_("You spent %(spent)s this week.") % {"spent": spent})
    elif review["change_pct"] >= 0:
        lines.append(
            _(
                "You spent %(spent)s this week, %(pct)s%% more than your average of %(average)s over the four "
                "weeks before."
            )
            % {"spent": spent, "pct": number(review["change_pct"], locale=locale), "average": average}
        )
    else:
        lines.append(
            _(
                "You spent %(spent)s this week, %(pct)s%% less than your average of %(average)s over the four "
                "weeks before."
            )
            % {"spent": spent, "pct": number(-review["change_pct"], locale=locale), "average": average}
        )
    missing = review.get("rate_missing") or []
    if missing:
        left_out = ", ".join(format_amount(Decimal(m["amount"]), m["currency"], locale=locale) for m in missing)
        lines.append(_("Rate missing: %(amount)s not counted") % {"amount": left_out} + ".")
    if review["top_categories"]:
        top = ", ".join(
            f"{label(t['category'])} {format_amount(Decimal(t['spent']), c, locale=locale)}"
            for t in review["top_categories"]
        )
        lines.append(_("Top categories: %(top)s.") % {"top": top})
    if review["biggest"]:
        big = review["biggest"][0]
        lines.append(
            _("Biggest: %(description)s, %(amount)s.")
            % {
                "description": big["description"],
                "amount": format_amount(Decimal(big["amount"]), big.get("currency", c), locale=locale),
            }
        )
    plan = review["plan"]
    if plan:
        lines.append(
            _("Plan: %(state)s, a %(streak)s-day streak, %(left)s left to spend safely this month.")
            % {
                "state": str(STATE_LABELS.get(plan["state"], plan["state"])),
                "streak": plan["streak"],
                "left": format_amount(Decimal(plan["safe_left"]), plan["currency"], locale=locale),
            }
        )
    for goal in review["goals"][:TOP]:
        lines.append(
            _("Goal %(name)s: %(pct)s%%.") % {"name": goal["name"], "pct": number(goal["progress_pct"], locale=locale)}
        )
    if review["due_next_week"]:
        due = ", ".join(
            f"{d['merchant']} {format_amount(Decimal(d['amount']), d['currency'], locale=locale)}"
            for d in review["due_next_week"]
        )
        lines.append(_("Due next week: %(due)s.") % {"due": due})
    if review["insights"]:
        lines.append(
            _("Noticed this week: %(titles)s.") % {"titles": "; ".join(i["title"] for i in review["insights"])}
        )
    return "\n".join(lines)


def texts(reviews: dict[int, dict], languages: dict[int, str]) -> dict[int, tuple[str, str]]:
    """Each review's (title, body), as title() and body() write them under the user's language: the users
    grouped by language (one translation.override each, not one per user) and each sentence's translation
    and each number's text made once per language for the batch (the same few repeat for every user)."""
    by_language: dict[str, list[int]] = defaultdict(list)
    for uid in reviews:
        by_language[languages.get(uid, "vi")].append(uid)
    out = {}
    for language, uids in by_language.items():
        with translation.override(language):
            words = functools.lru_cache(maxsize=None)(_)  # inside the override: this language's catalogue
            # Babel re-reads the locale's number pattern for every call: the same few percentages repeat.
            numbers = functools.lru_cache(maxsize=1024)(number_text)
            labels = functools.lru_cache(maxsize=None)(category_label)  # lazy texts, translated at each str()
            # A batch's reviews are of one week: its label is translated once, not once per user.
            weeks = functools.lru_cache(maxsize=None)(week_label)
            # The active language, read once for the batch, not twice per user (each read goes through asgiref's
            # context-local storage).
            locale = reader()
            for uid in uids:
                review = reviews[uid]
                out[uid] = (
                    title(review, _=words, week=weeks, locale=locale),
                    body(review, _=words, number=numbers, label=labels, locale=locale),
                )
    return {uid: out[uid] for uid in reviews}


def chart(review: dict, *, this_year: int | None = None) -> dict:
    """This week against the four before, oldest first, for static/zeus/charts.js: {type, labels, datasets,
    currency}; the labels are the weeks as the reader says them ("Tuần 49")."""
    weeks = [*reversed(review["previous_weeks"]), {"week": review["week"], "spent": review["spent"]}]
    return {
        "type": "bar",
        "labels": [week_label(w["week"], this_year=this_year) for w in weeks],
        "datasets": [{"label": _("Spent"), "data": [w["spent"] for w in weeks]}],
        "currency": review["currency"],
    }


# What the inbox notice's words are made of: kept with the notice, worded again in each reader's language.
NOTICE_KEYS = ("currency", "week", "spent", "average_previous", "change_pct", "rate_missing", "top_categories",
               "plan", "goals", "due_next_week", "insights")  # fmt: skip


def notice_facts(review: dict) -> dict:
    facts = {key: review.get(key) for key in NOTICE_KEYS}
    facts["biggest"] = (review.get("biggest") or [])[:1]
    facts["goals"] = (review.get("goals") or [])[:TOP]
    return facts


def notice_words(facts: dict) -> NotificationWords | None:
    """The weekly review's inbox notice in the active language, from the facts kept with it."""
    review = facts.get("review")
    if not review:
        return None
    return NotificationWords(title=title(review)[:200], body=body(review), cta_url="")
