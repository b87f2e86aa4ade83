"""Chart specs for the pages: what static/zeus/charts.js draws with Chart.js, and what the chart's text
equivalent (a table beside the canvas) reads. Plain data, built by the page that owns the figures."""

from dataclasses import dataclass, field
from decimal import Decimal

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
