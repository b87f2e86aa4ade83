"""Template helpers every page uses: money for the active language, and charts with their text equivalent."""

import datetime as dt
from decimal import Decimal

from django import template
from django.utils.translation import get_language

from zeus import formatting
from zeus.charts import Chart
from zeus.money import format_amount, format_number, format_rate

register = template.Library()


@register.filter
def money(amount, currency: str) -> str:
    """`{{ amount|money:currency }}`: `1.250.000 ₫` in Vietnamese, `₫1,250,000` in English."""
    if amount is None or amount == "":
        return ""
    return format_amount(Decimal(amount), currency, locale=get_language() or "vi")


@register.filter
def number(value) -> str:
    if value is None or value == "":
        return ""
    return format_number(value, locale=get_language() or "vi")


@register.filter
def rate(value) -> str:
    """`{{ rate|rate }}`: an exchange rate with all its digits, grouped for the active language."""
    if value is None or value == "":
        return ""
    return format_rate(value, locale=get_language() or "vi")


@register.filter
def day(value) -> str:
    """`{{ date|day }}`: the date as the reader writes it (zeus.formatting)."""
    if not value:
        return ""
    return formatting.date_text(value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)))


@register.filter
def moment(value, tz) -> str:
    """`{{ when|moment:tz }}`: an instant on the user's clock (tz: their profile's zone), in their language."""
    if not value:
        return ""
    return formatting.moment_text(value, tz=tz)


@register.filter
def week(iso_week: str, this_year=None) -> str:
    """`{{ "2026-W49"|week:this_year }}`: "Tuần 49", with ", 2026" when that is not the reader's this_year."""
    return formatting.week_label(iso_week, this_year=this_year) if iso_week else ""


@register.simple_tag
def days(start, end) -> str:
    """`{% days start end %}`: a span of days as the reader writes it, "30/11 - 06/12/2026"."""
    return formatting.date_range(start, end)


@register.inclusion_tag("zeus/chart.html")
def chart(spec: Chart):
    """`{% chart the_chart %}`: the canvas, its JSON and a table a screen reader (or a browser without
    JavaScript) reads instead."""
    return {"chart": spec, "spec": spec.spec(), "body": spec.table_body()}


@register.simple_tag(takes_context=True)
def panel(context, rendered):
    """`{% panel p %}`: one app's panel (zeus/panels.py) rendered with the page's context plus its own data."""
    with context.push(**rendered.data):
        return context.template.engine.get_template(rendered.panel.template).render(context)


@register.filter
def get(mapping, key):
    """`{{ labels|get:code }}`: a label looked up by code; the code itself when there is none."""
    return mapping.get(key, key) if mapping else key
