"""The router's evaluation sets: accuracy on what the patterns decide, and the share they decide without a
model call. eval_set.json was written and committed before the patterns; holdout_set.json after them, and it
was never used to change them."""

import json
from pathlib import Path

import pytest

from chat.router import WORKFLOWS, route_by_patterns

HERE = Path(__file__).parent
SETS = {name: json.loads((HERE / f"{name}.json").read_text()) for name in ("eval_set", "holdout_set")}


def route(item):
    texts = [item["previous"], item["text"]] if "previous" in item else [item["text"]]
    return route_by_patterns(texts, item.get("assistant"))


def test_the_eval_set_is_large_and_labelled_with_real_workflows():
    items = SETS["eval_set"]
    assert len(items) >= 220
    assert {item["workflow"] for item in items} == set(WORKFLOWS)
    assert sum("previous" in item or "assistant" in item for item in items) >= 25


@pytest.mark.parametrize("name", list(SETS))
def test_patterns_are_accurate_on_what_they_decide_and_decide_most(name, capsys):
    items = SETS[name]
    decided, wrong = 0, []
    for item in items:
        got = route(item)
        if got is None:
            continue
        decided += 1
        assert got.decided_by == "pattern"
        if got.workflow != item["workflow"]:
            wrong.append((item["text"], item["workflow"], got.workflow))
    accuracy = 1 - len(wrong) / decided
    share = decided / len(items)
    with capsys.disabled():
        print(
            f"\nrouter {name}: {len(items)} texts, patterns decide {decided} ({share:.1%}) without a model call, "
            f"accuracy on those {accuracy:.1%}; wrong: {wrong}"
        )
    assert accuracy >= 0.95, wrong
    assert share >= 0.70
