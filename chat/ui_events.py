"""UI events (docs/contract/cards.md) → the deterministic user-turn text the chat loop runs.

Payloads are validated strictly: an unknown event, a missing or extra key, or a value of the wrong shape is
a BAD_FRAME. `confirm` is not here: the loop calls chat.tools.decide_approval and then runs the turn
`ui_event_to_turn("confirm_result", {"tool", "decision", "output"})`.
"""

import json
import re

from django.utils.translation import gettext as _

from chat import limits
from chat.kinds import ASSET_KINDS, GOAL_KINDS
from chat.tools import CONFIRMABLE
from zeus.errors import ValidationFailed
from zeus.money import normalize_currency, parse_amount

MAX_TURN_TEXT = limits.MAX_TEXT
GOAL_FORM_KEYS = ("name", "kind", "target_amount", "deadline", "current_amount", "currency")
GOAL_FORM_PREFIX = "Create a financial goal using this form data JSON exactly: "
ASSET_PREFIX = "Create a manual asset named "
FORM_PREFIX = "Submit the {intent} form with this form data JSON: "
_SLUG = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_SPAN = re.compile(
    r"^(?:in\s+)?\d{1,3}\s*(years?|yrs?|y|năm|nam|months?|mos?|m|tháng|thang|weeks?|w|tuần|tuan|days?|d|ngày|ngay)$",
    re.IGNORECASE,
)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class BadFrame(ValidationFailed):
    code = "BAD_FRAME"


def _one_of(what: str, choices) -> str:
    return _("%(what)s must be one of: %(choices)s.") % {"what": what, "choices": ", ".join(choices)}


def ui_event_to_turn(event: str, payload: dict) -> str:
    handler = _EVENTS.get(event) if isinstance(event, str) else None
    if handler is None:
        raise BadFrame(_("Unknown ui_event “%(event)s”.") % {"event": str(event)[:40]})
    if not isinstance(payload, dict):
        raise BadFrame(_("A ui_event payload is a JSON object."))
    return handler(payload)


def _keys(payload: dict, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    missing = [k for k in required if k not in payload]
    extra = sorted(set(payload) - set(required) - set(optional))
    if missing or extra:
        raise BadFrame(
            _("Expected the keys %(required)s; missing: %(missing)s; extra: %(extra)s.")
            % {"required": ", ".join(required), "missing": ", ".join(missing) or "-", "extra": ", ".join(extra) or "-"}
        )


def _text(value, what: str, max_length: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadFrame(_("%(what)s must be non-empty text.") % {"what": what})
    value = " ".join(value.split())
    if len(value) > max_length:
        raise BadFrame(_("%(what)s is at most %(count)s characters.") % {"what": what, "count": max_length})
    return value


def _action_selected(payload: dict) -> str:
    _keys(payload, ("prompt",))
    if not isinstance(payload["prompt"], str) or not payload["prompt"].strip():
        raise BadFrame(_("%(what)s must be non-empty text.") % {"what": "prompt"})
    prompt = payload["prompt"].strip()
    if len(prompt) > MAX_TURN_TEXT:
        raise BadFrame(_("%(what)s is at most %(count)s characters.") % {"what": "prompt", "count": MAX_TURN_TEXT})
    return prompt


def _existing_asset_selected(payload: dict) -> str:
    _keys(payload, ("asset_id",))
    value = payload["asset_id"]
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
        raise BadFrame(_("%(what)s must be a positive integer.") % {"what": "asset_id"})
    return f"Use my asset #{value} for that"


def _quick_create_selected(payload: dict) -> str:
    _keys(payload, ("kind", "name"))
    if payload["kind"] not in ASSET_KINDS:
        raise BadFrame(_one_of("kind", ASSET_KINDS))
    name = _text(payload["name"], "name", 100)
    return f"{ASSET_PREFIX}{json.dumps(name, ensure_ascii=False)} (kind: {payload['kind']})."


def _form_submit(payload: dict) -> str:
    _keys(payload, ("intent", "values"))
    intent, values = payload["intent"], payload["values"]
    if not isinstance(intent, str) or not _SLUG.match(intent):
        raise BadFrame(_("intent must be a short lower_case name."))
    if not isinstance(values, dict):
        raise BadFrame(_("%(what)s must be a JSON object.") % {"what": "values"})
    if intent == "create_goal":
        return GOAL_FORM_PREFIX + json.dumps(_goal_values(values), ensure_ascii=False)
    text = FORM_PREFIX.format(intent=intent) + json.dumps(_form_values(values), ensure_ascii=False)
    if len(text) > MAX_TURN_TEXT:
        raise BadFrame(_("The form data is longer than a message (%(count)s characters).") % {"count": MAX_TURN_TEXT})
    return text


def _goal_values(values: dict) -> dict:
    extra = sorted(set(values) - set(GOAL_FORM_KEYS))
    if extra:
        raise BadFrame(_("Unknown goal form fields: %(fields)s.") % {"fields": ", ".join(extra)})
    # Blank optional fields are the same as absent ones.
    values = {k: v for k, v in values.items() if not (isinstance(v, str) and not v.strip()) and v is not None}
    for key in ("name", "kind", "target_amount", "deadline"):
        if key not in values:
            raise BadFrame(_("The goal form needs %(field)s.") % {"field": key})
    out = {"name": _text(values["name"], "name", 100)}
    if values["kind"] not in GOAL_KINDS:
        raise BadFrame(_one_of("kind", GOAL_KINDS))
    out["kind"] = values["kind"]
    out["target_amount"] = _amount(values["target_amount"], "target_amount", positive=True)
    deadline = _text(values["deadline"], "deadline", 40)
    if not (_DATE.match(deadline) or _SPAN.match(deadline)):
        raise BadFrame(_("deadline must be YYYY-MM-DD or a span such as “10 years”."))
    out["deadline"] = deadline
    if "current_amount" in values:
        out["current_amount"] = _amount(values["current_amount"], "current_amount", positive=False)
    if "currency" in values:
        try:
            out["currency"] = normalize_currency(_text(values["currency"], "currency", 3))
        except ValidationFailed as exc:
            raise BadFrame(exc.message) from None
    return out


def _amount(value, what: str, *, positive: bool) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise BadFrame(_("%(what)s must be an amount.") % {"what": what})
    text = value.strip() if isinstance(value, str) else str(value)
    try:
        parsed = parse_amount(text)
    except ValidationFailed:
        raise BadFrame(_("%(what)s is not an amount; try 150000, 150k, 2tr or $12.50.") % {"what": what}) from None
    if positive and parsed.amount <= 0:
        raise BadFrame(_("%(what)s must be greater than zero.") % {"what": what})
    return text


def _form_values(values: dict) -> dict:
    if len(values) > 20:
        raise BadFrame(_("A form has at most %(count)s fields.") % {"count": 20})
    out = {}
    for key, value in values.items():
        if not isinstance(key, str) or not _SLUG.match(key):
            raise BadFrame(_("Bad form field name “%(field)s”.") % {"field": str(key)[:40]})
        if isinstance(value, str):
            if len(value) > 500:
                raise BadFrame(_("%(what)s is at most %(count)s characters.") % {"what": key, "count": 500})
            value = value.strip()
        elif value is not None and not isinstance(value, bool | int | float):
            raise BadFrame(_("%(what)s must be text, a number, true/false or null.") % {"what": key})
        out[key] = value
    return out


def _confirm_result(payload: dict) -> str:
    _keys(payload, ("tool", "decision", "output"))
    tool, decision, output = payload["tool"], payload["decision"], payload["output"]
    # None when the loop could not tell which delete the approval was for (an unknown or foreign id).
    if tool is not None and tool not in CONFIRMABLE:
        raise BadFrame(_one_of("tool", (*CONFIRMABLE, "null")))
    if decision not in ("approve", "reject"):
        raise BadFrame(_one_of("decision", ("approve", "reject")))
    if not isinstance(output, dict):
        raise BadFrame(_("%(what)s must be a JSON object.") % {"what": "output"})
    result = json.dumps(output, ensure_ascii=False)
    if len(result) > 2000:
        result = json.dumps({"error": output["error"]} if "error" in output else {"status": "done"})
    what = f"the {tool} confirmation" if tool else "the confirmation"
    if "error" in output:
        return f"I answered {what} ({decision}), but it did not go through. Result JSON: {result}"
    if decision == "reject":
        return f"I rejected {what}, so nothing was deleted."
    return f"I approved {what}. Result JSON: {result}"


DRAFT_VALUE_KEYS = ("amount", "direction", "occurred_on", "description", "category", "asset_id")


def _draft_decision(payload: dict) -> str:
    """Save or discard a bank-text draft from its card; the model runs decide_bank_text_draft with exactly
    these values (routed to the bank_text workflow by the event, and by its text when read back)."""
    _keys(payload, ("draft_id", "decision"), ("values",))
    draft_id = payload["draft_id"]
    if isinstance(draft_id, str) and draft_id.isascii() and draft_id.isdigit():
        draft_id = int(draft_id)
    if isinstance(draft_id, bool) or not isinstance(draft_id, int) or not 0 < draft_id < 2**63:
        raise BadFrame(_("%(what)s must be a positive integer.") % {"what": "draft_id"})
    if payload["decision"] not in ("save", "discard"):
        raise BadFrame(_one_of("decision", ("save", "discard")))
    text = f"Decide the bank-text draft #{draft_id}: {payload['decision']}."
    values = payload.get("values")
    if values is not None and payload["decision"] == "save":
        if not isinstance(values, dict):
            raise BadFrame(_("%(what)s must be a JSON object.") % {"what": "values"})
        extra = sorted(set(values) - set(DRAFT_VALUE_KEYS))
        if extra:
            raise BadFrame(_("Unknown draft fields: %(fields)s.") % {"fields": ", ".join(extra)})
        values = {k: v for k, v in values.items() if v is not None and not (isinstance(v, str) and not v.strip())}
        if values:
            text += " Use these corrected values JSON exactly: " + json.dumps(_form_values(values), ensure_ascii=False)
    if len(text) > MAX_TURN_TEXT:
        raise BadFrame(
            _("The corrections are longer than a message (%(count)s characters).") % {"count": MAX_TURN_TEXT}
        )
    return text


_EVENTS = {
    "draft_decision": _draft_decision,
    "action_selected": _action_selected,
    "existing_asset_selected": _existing_asset_selected,
    "quick_create_selected": _quick_create_selected,
    "form_submit": _form_submit,
    "confirm_result": _confirm_result,
}
# Made by the server only, from a decision it took itself (docs/security.md): a client sending one would be
# telling the model what a delete did. `confirm` is the client's side of it (chat.turn.inputs).
SERVER_EVENTS = frozenset({"confirm_result"})
CLIENT_EVENTS = frozenset(set(_EVENTS) - SERVER_EVENTS) | {"confirm"}


# The texts above, read back: an earlier turn's event is known only by the text it stored. Matched on folded
# text (lower case, no diacritics), as the router reads every text.
_READ_BACK = (
    (
        re.compile("^" + re.escape(GOAL_FORM_PREFIX.lower().strip())),
        lambda m: ("form_submit", {"intent": "create_goal"}),
    ),
    (re.compile("^" + re.escape(ASSET_PREFIX.lower())), lambda m: ("quick_create_selected", {})),
    (
        re.compile(r"^i (?:approved|rejected|answered) the ([a-z][a-z0-9_]*) confirmation"),
        lambda m: ("confirm", {"tool": m[1]}),
    ),
    (
        re.compile("^" + re.escape(FORM_PREFIX.lower()).replace(re.escape("{intent}"), "([a-z][a-z0-9_]*)")),
        lambda m: ("form_submit", {"intent": m[1]}),
    ),
    (re.compile(r"^decide the bank-text draft #\d+"), lambda m: ("draft_decision", {})),
)


def event_of(folded_text: str) -> tuple[str, dict] | None:
    """The event (name, the facts that route it) whose turn text this is, or None for a text the user wrote."""
    for pattern, event in _READ_BACK:
        match = pattern.match(folded_text)
        if match:
            return event(match)
    return None
