"""A chart on a page: a canvas for Chart.js, its JSON through json_script, and a table as its text equivalent."""

import json
import re
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from zeus.charts import Chart, Series


def render(chart: Chart) -> str:
    return Template("{% load zeus_ui %}{% chart c %}").render(Context({"c": chart}))


def trend() -> Chart:
    return Chart(
        id="net-worth",
        kind="line",
        caption="Net worth",
        labels=["Nov", "Dec"],
        currency="VND",
        label_heading="Month",
        series=[Series(label="Net worth", values=[Decimal("1250000"), Decimal("-300000")])],
    )


def test_the_canvas_names_the_json_it_is_drawn_from():
    with translation.override("vi"):
        html = render(trend())
    canvas = re.search(r'<canvas data-chart="([^"]+)"', html).group(1)
    blob = re.search(rf'<script id="{canvas}" type="application/json">(.*?)</script>', html, re.S).group(1)
    spec = json.loads(blob)
    assert spec == {
        "type": "line",
        "labels": ["Nov", "Dec"],
        "currency": "VND",
        "locale": "vi",
        "datasets": [{"label": "Net worth", "data": [1250000.0, -300000.0]}],
    }


@pytest.mark.parametrize(
    "language,first,second", [("vi", "1.250.000\xa0₫", "-300.000\xa0₫"), ("en", "₫1,250,000", "-₫300,000")]
)
def test_the_text_equivalent_is_a_table_of_the_same_figures_in_the_language(language, first, second):
    with translation.override(language):
        html = render(trend())
    table = html[html.index("<table") : html.index("</table>")]
    assert 'aria-labelledby="net-worth-caption"' in table
    assert '<th scope="row">Nov</th><td class="num">' + first in table
    assert second in table
    # The canvas is hidden from assistive technology: the table speaks for it.
    assert '<div class="chart" aria-hidden="true">' in html


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        Chart(id="x", kind="pie3d", caption="", labels=[], currency="VND", label_heading="")
