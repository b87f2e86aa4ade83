"""Which configured models the anthropic SDK lists as deprecated or retired, and what replaces them.

The SDK ships its own table (read through zeus.adapters.sdk_deprecated_models: model → end-of-life date,
written like "November 30th, 2026") and warns on every call to such a model. Zeus turns it into a system check instead,
so a deployment hears about it when it starts, in `manage.py check` and on the admin index, naming the date
and the model to move to. The SDK names no successor; SUCCESSORS holds the replacements Anthropic's model
deprecations page recommends (see docs/chat.md, "Models").
"""

import datetime as dt
import re
from dataclasses import dataclass

from zeus.adapters import sdk_deprecated_models

SUCCESSORS = {
    "claude-sonnet-4-5": "claude-sonnet-5-5",
    "claude-sonnet-4-5-20250929": "claude-sonnet-5-5",
    "claude-opus-4-5": "claude-opus-5-5",
    "claude-opus-4-5-20251101": "claude-opus-5-5",
    "claude-mythos-preview": "claude-mythos-5",
}
_DATE = re.compile(r"^(?P<month>[A-Za-z]+) (?P<day>\d{1,2})(?:st|nd|rd|th)?, (?P<year>\d{4})$")


@dataclass(frozen=True)
class ModelNotice:
    setting: str
    model: str
    end_of_life: dt.date | None
    end_of_life_text: str
    successor: str | None
    retired: bool

    @property
    def message(self) -> str:
        when = self.end_of_life.isoformat() if self.end_of_life else self.end_of_life_text
        state = f"retired on {when}" if self.retired else f"deprecated; it retires on {when}"
        move = f"Set {self.setting}={self.successor}"
        if not self.successor:
            move = f"Choose a current model for {self.setting}"
        return f"{self.setting} is {self.model}, which is {state}: requests to a retired model fail. {move}."


def end_of_life_date(text: str) -> dt.date | None:
    match = _DATE.match(text.strip())
    if not match:
        return None
    try:
        return dt.datetime.strptime(f"{match['month']} {match['day']} {match['year']}", "%B %d %Y").date()
    except ValueError:
        return None


def model_notice(setting: str, model: str, *, today: dt.date, table: dict | None = None) -> ModelNotice | None:
    """None when the SDK does not list `model`. A model whose end-of-life date is today or earlier is retired."""
    table = sdk_deprecated_models() if table is None else table
    if model not in table:
        return None
    text = table[model]
    date = end_of_life_date(text)
    return ModelNotice(
        setting=setting,
        model=model,
        end_of_life=date,
        end_of_life_text=text,
        successor=SUCCESSORS.get(model),
        retired=date is not None and date <= today,
    )
