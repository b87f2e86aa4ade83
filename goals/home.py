"""The goals app's panels on the home page (zeus/panels.py): budgets with their bars, goals with progress.

The home draws at most five of each, and their rows were the costliest part of its templates (an include per
row, two or three `blocktranslate`s and up to four money filters each). Here each row's text is made once in
Python, exactly as those tags render it (translated, localized, escaped), and the home's templates lay it out
with plain variables. `goals/budget_bar.html` and `goals/goal_progress.html` stay the pages' own rows;
tests/pages/test_home.py renders both ways and asserts the same bytes, so the two cannot drift apart.
"""

from django.utils.formats import date_format, localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from assets.home import this_month_counted
from goals.models import Goal
from goals.pages import budget_rows, goal_rows
from goals.selectors import budget_list, budget_statuses, goal_list
from zeus.money import format_amount
from zeus.selectors import user_currency

SHOWN = 5


def _text(value) -> str:
    """A value as `{{ value }}` (or a blocktranslate's variable) renders it: localized, then escaped."""
    return conditional_escape(localize(value))


def _money(amount, currency: str, language: str) -> str:
    """As the `money` filter renders inside a blocktranslate (zeus/templatetags/zeus_ui.py)."""
    if amount is None or amount == "":
        return ""
    return _text(format_amount(amount, currency, locale=language))


def budget_row_text(row: dict) -> dict:
    """The row of goals/budget_bar.html with its text made: what the home's budgets template lays out."""
    language = get_language() or "vi"
    b = row["budget"]
    spent_of = _("%(spent)s of %(limit)s") % {
        "spent": _money(row["spent"], b.currency, language),
        "limit": _money(b.amount, b.currency, language),
    }
    if row["remaining"] < 0:
        note = f'<span class="tag bad">{_text(_("Over"))}</span> ' + _("%(over)s over the limit") % {
            "over": _money(row["remaining"], b.currency, language)
        }
    else:
        note = _("%(left)s left this month") % {"left": _money(row["remaining"], b.currency, language)}
    return {
        "label": row["label"],
        "state": row["state"],
        "pct": _text(row["pct"]),
        "used_pct": _text(row["used_pct"]),
        "spent_of": mark_safe(spent_of),
        "aria": mark_safe(
            _("%(label)s: %(pct)s%% used") % {"label": _text(row["label"]), "pct": _text(row["used_pct"])}
        ),
        "note": mark_safe(note),
        "converted": row["converted"],
        "rate_missing": row["rate_missing"],
    }


def goal_row_text(row: dict) -> dict:
    """The row of goals/goal_progress.html with its text made: what the home's goals template lays out."""
    language = get_language() or "vi"
    goal, progress = row["goal"], row["progress"]
    if row["achieved"]:
        tag = f'<span class="tag good">{_text(_("Achieved"))}</span>'
    elif progress.on_track:
        tag = f'<span class="tag good">{_text(_("On track"))}</span>'
    else:
        tag = f'<span class="tag warn">{_text(_("Behind"))}</span>'
    note = ""
    if not row["achieved"]:
        note = '<p class="muted bar-note">%s</p>' % (
            _("%(monthly)s a month to reach it by %(deadline)s")
            % {
                "monthly": _money(progress.monthly_needed, goal.currency, language),
                "deadline": _text(date_format(goal.deadline, "DATE_FORMAT")) if goal.deadline else _text(""),
            }
        )
    return {
        "name": goal.name,
        "kind": row["kind"],
        "tag": mark_safe(tag),
        "pct": _text(row["pct"]),
        "current_of": mark_safe(
            _("%(current)s of %(target)s")
            % {
                "current": _money(goal.current_amount, goal.currency, language),
                "target": _money(goal.target_amount, goal.currency, language),
            }
        ),
        "aria": mark_safe(
            _("%(name)s: %(pct)s%% saved") % {"name": _text(goal.name), "pct": _text(progress.progress_pct)}
        ),
        "note": mark_safe(note),
    }


def budgets_panel(request, today) -> dict:
    currency = user_currency(request.user)
    statuses = budget_statuses(
        user=request.user, budgets=budget_list(user=request.user), month=(today.year, today.month),
        reads={currency: this_month_counted(request, currency, today)},
    )  # fmt: skip
    rows = budget_rows(statuses)
    return {
        "rows": [budget_row_text(row) for row in rows[:SHOWN]],
        "more": max(0, len(rows) - SHOWN),
        "prompt": _("How are my budgets doing this month?"),
    }


def goals_panel(request, today) -> dict:
    rows = goal_rows(goal_list(user=request.user, status=Goal.Status.ACTIVE)[: SHOWN + 1], today=today)
    return {
        "rows": [goal_row_text(row) for row in rows[:SHOWN]],
        "more": len(rows) > SHOWN,
        "prompt": _("Am I on track for my goals?"),
    }
