"""Chart specs for the pages: what static/zeus/charts.js draws with Chart.js, and what the chart's text
equivalent (a table beside the canvas) reads. Plain data, built by the page that owns the figures."""

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from zeus.money import format_amount

KINDS = {"line", "bar", "doughnut"}


@dataclass
class Series:
    label: str
    values: list[Decimal]


@dataclass
class Chart:
    """One chart: `kind` (line, bar, doughnut), labels along the x axis, one or more series of amounts."""

    id: str
    kind: str
    caption: str
    labels: list[str]
    currency: str
    label_heading: str  # the table's first column: "Month", "Category"
    series: list[Series] = field(default_factory=list)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Unknown chart kind {self.kind!r}.")

    def spec(self) -> dict:
        """The JSON charts.js reads (passed with json_script): numbers as numbers, for drawing only."""
        language = get_language() or "vi"
        return {
            "type": self.kind,
            "labels": self.labels,
            "currency": self.currency,
            "locale": language,
            "datasets": [{"label": s.label, "data": [float(v) for v in s.values]} for s in self.series],
        }

    def rows(self) -> list[dict]:
        """The text equivalent: one row per label, one formatted amount per series."""
        language = get_language() or "vi"
        return [
            {
                "label": label,
                "cells": [format_amount(s.values[i], self.currency, locale=language) for s in self.series],
            }
            for i, label in enumerate(self.labels)
        ]

    def table_body(self) -> SafeString:
        """The rows of the text equivalent as the table's HTML, made in one pass: a loop of template tags per
        cell cost more than the amounts' formatting on the home (two charts, ~30 cells). Each label and amount
        is localized and escaped exactly as `{{ value }}` renders it."""
        language = get_language() or "vi"
        series = [[format_amount(v, self.currency, locale=language) for v in s.values] for s in self.series]
        out = []
        for i, label in enumerate(self.labels):
            cells = "".join(f'<td class="num">{conditional_escape(localize(col[i]))}</td>' for col in series)
            out.append(f'<tr><th scope="row">{conditional_escape(localize(label))}</th>{cells}</tr>')
        return mark_safe("".join(out))
