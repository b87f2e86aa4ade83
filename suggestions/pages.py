"""/digest/<iso-week>: one weekly review, with a chart of the week against the four before and the same
figures as a table (the chart's text equivalent)."""

import datetime as dt
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import re_path
from django.utils.translation import gettext as _

from suggestions.digest.compose import iso_week
from suggestions.digest.job import weekly_digest_for
from suggestions.digest.texts import body, chart, title
from zeus.money import format_amount


def _money(value: str, currency: str) -> str:
    return format_amount(Decimal(value), currency)


@login_required
def digest_page(request, week: str):
    review = weekly_digest_for(user=request.user, iso_week=week)
    if review is None:
        raise Http404(_("No weekly review for that week."))
    c = review["currency"]
    start = dt.date.fromisoformat(review["start"])
    drawn = chart(review)
    context = {
        "review": review,
        "title": title(review),
        "summary": body(review).splitlines(),
        "spent": _money(review["spent"], c),
        "average": _money(review["average_previous"], c),
        "chart": drawn,
        "chart_rows": [
            {"label": label, "value": format_amount(Decimal(value), c)}
            for label, value in zip(drawn["labels"], drawn["datasets"][0]["data"], strict=True)
        ],
        "top": [
            {"category": t["category"].replace("_", " "), "spent": _money(t["spent"], c)}
            for t in review["top_categories"]
        ],
        "biggest": [{**b, "amount": _money(b["amount"], c)} for b in review["biggest"]],
        "due": [{**d, "amount": _money(d["amount"], d["currency"])} for d in review["due_next_week"]],
        "previous_week": iso_week(start - dt.timedelta(days=7)),
        "next_week": iso_week(start + dt.timedelta(days=7)),
    }
    return render(request, "suggestions/digest.html", context)


urlpatterns = [re_path(r"^digest/(?P<week>\d{4}-W\d{2})/?$", digest_page)]
