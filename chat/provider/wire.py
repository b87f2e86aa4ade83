"""What each model call sends beyond the messages, by model family.

Never sampling parameters, a forced tool choice or an assistant prefill (the 5.5 models refuse all three, and
nothing here needs them). On a model of the 5.5 generation the main loop sends
`thinking: {"type": "between_tools"}` (no up-front thinking, so the first tokens are not delayed; the model
still notes its progress between tool calls in thinking blocks, which go back unchanged) and
`output_config.effort` from ZEUS_EFFORT for the turn's workflow. The router call sends no `thinking` (Haiku 5.5
thinks adaptively by default, and its thinking counts against max_tokens, hence ROUTER_MAX_TOKENS) and the
lowest effort. Models of the 4.x generation get neither field: they do not think unless asked, and some refuse
`effort`. Plain data, no SDK: the system checks read ZEUS_EFFORT through it at start.
"""

import functools
from dataclasses import dataclass

EFFORT_LEVELS = ("low", "medium", "high")
DEFAULT_EFFORT = "low"
ROUTER_EFFORT = "low"
# One word comes back; the rest is headroom for the router model's adaptive thinking.
ROUTER_MAX_TOKENS = 512


@dataclass(frozen=True)
class ModelWire:
    between_tools: bool = False  # accepts thinking {"type": "between_tools"}
    effort: bool = False  # accepts output_config.effort


# By model family, longest prefix first; an unknown model gets nothing beyond the messages.
MODEL_WIRE = {
    "claude-sonnet-5-5": ModelWire(between_tools=True, effort=True),
    "claude-opus-5-5": ModelWire(between_tools=True, effort=True),
    "claude-haiku-5-5": ModelWire(effort=True),
}


def model_wire(model: str) -> ModelWire:
    for prefix in sorted(MODEL_WIRE, key=len, reverse=True):
        if model == prefix or model.startswith(prefix + "-"):
            return MODEL_WIRE[prefix]
    return ModelWire()


class EffortInvalid(ValueError):
    pass


def parse_effort(raw: str) -> dict[str, str]:
    """ZEUS_EFFORT: one level for every workflow ("low"), or workflow=level pairs with an optional
    `default` ("default=low,coach=medium"). Levels: low, medium, high (between_tools allows no more)."""
    raw = (raw or "").strip()
    if not raw:
        return {"default": DEFAULT_EFFORT}
    if "=" not in raw:
        pairs = {"default": raw}
    else:
        pairs = {}
        for item in filter(None, (p.strip() for p in raw.split(","))):
            name, sep, level = item.partition("=")
            if not sep or not name.strip():
                raise EffortInvalid(f"ZEUS_EFFORT: {item!r} is not workflow=level.")
            pairs[name.strip()] = level.strip()
    for name, level in pairs.items():
        if level not in EFFORT_LEVELS:
            raise EffortInvalid(f"ZEUS_EFFORT: {name}={level!r}; use one of {', '.join(EFFORT_LEVELS)}.")
    pairs.setdefault("default", DEFAULT_EFFORT)
    return pairs


@functools.lru_cache(maxsize=8)
def _effort_table(raw: str) -> dict[str, str]:
    try:
        return parse_effort(raw)
    except EffortInvalid:
        return {"default": DEFAULT_EFFORT}  # the system check (chat.E002) reports it


def effort_for(workflow: str, raw: str) -> str:
    table = _effort_table(raw)
    return table.get(workflow, table["default"])


def main_request_options(model: str, workflow: str, effort_setting: str) -> dict:
    """The fields of a main-loop call beyond model, max_tokens, system, tools and messages."""
    wire = model_wire(model)
    options: dict = {}
    if wire.between_tools:
        options["thinking"] = {"type": "between_tools"}
    if wire.effort:
        options["output_config"] = {"effort": effort_for(workflow, effort_setting)}
    return options


def router_request_options(model: str) -> dict:
    wire = model_wire(model)
    return {"output_config": {"effort": ROUTER_EFFORT}} if wire.effort else {}
