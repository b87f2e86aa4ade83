"""/digest/<iso-week>: one weekly review, with a chart of the week against the four before and the same
figures as a table (the chart's text equivalent)."""

import datetime as dt
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import re_path
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from assets.labels import category_label
from suggestions import reviews
from suggestions.digest.job import weekly_digest_for
from suggestions.digest.texts import body, chart, title
from zeus.formatting import date_range
from zeus.money import format_amount
from zeus.timeutil import user_today


def _money(value: str, currency: str) -> str:
    return format_amount(Decimal(value), currency, locale=get_language() or "vi")


@login_required
def digest_page(request, week: str):
    review = weekly_digest_for(user=request.user, iso_week=week)
    if review is None:
        raise Http404(_("No weekly review for that week."))
    c = review["currency"]
    start = dt.date.fromisoformat(review["start"])
    previous_week, next_week = reviews.neighbours(user=request.user, start=start)
    this_year = user_today(request.user).year
    drawn = chart(review, this_year=this_year)
    context = {
        "review": review,
        "this_year": this_year,
        "title": title(review, this_year=this_year),
        "dates": date_range(start, dt.date.fromisoformat(review["end"])),
        "summary": body(review).splitlines(),
        "spent": _money(review["spent"], c),
        "average": _money(review["average_previous"], c),
        "chart": drawn,
        "chart_rows": [
            {"label": label, "value": _money(value, c)}
            for label, value in zip(drawn["labels"], drawn["datasets"][0]["data"], strict=True)
        ],
        "top": [
            {"category": category_label(t["category"]), "spent": _money(t["spent"], c)}
            for t in review["top_categories"]
        ],
        "biggest": [_big(b, c) for b in review["biggest"]],
        "converted": review.get("converted", []),
        "rate_missing": review.get("rate_missing", []),
        "due": [{**d, "amount": _money(d["amount"], d["currency"])} for d in review["due_next_week"]],
        "previous_week": previous_week,
        "next_week": next_week,
    }
    return render(request, "suggestions/digest.html", context)


def _big(big: dict, currency: str) -> dict:
    """A big expense in its own currency; in another, its converted amount beside it, with the rate."""
    own = big.get("currency", currency)
    row = {**big, "amount": _money(big["amount"], own), "converted": None}
    if own != currency and big.get("converted") is not None:
        row["converted"] = [{**big, "currency": own, "to_currency": currency, "converted": big["converted"]}]
    elif own != currency:
        row["rate_missing"] = [{"currency": own, "amount": big["amount"]}]
    return row


@login_required
def digest_index(request):
    context = {"weeks": reviews.review_weeks(user=request.user), "this_year": user_today(request.user).year}
    return render(request, "suggestions/digest_index.html", context)


@login_required
def digest_latest(request):
    return redirect(f"/digest/{reviews.latest_review_week(user=request.user).iso_week}")


urlpatterns = [
    re_path(r"^digest/?$", digest_index),
    re_path(r"^digest/latest/?$", digest_latest),
    re_path(r"^digest/(?P<week>\d{4}-W\d{2})/?$", digest_page),
]
