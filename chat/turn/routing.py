"""Which workflow a turn runs and which tools it is offered: the UI event's own workflow when it names one,
then the patterns over the texts (no model call), the router model for the rest, the default when that
fails. A staff turn is never offered a tool that writes."""

import logging

from chat import router
from chat.provider.client import classify
from chat.provider.stream import usage_dict
from chat.tools import CATALOG
from chat.turn.conversation import prior_assistant_text, user_texts
from chat.turn.data import Turn
from chat.turn.request import router_request

log = logging.getLogger(__name__)


async def route(client, turn: Turn) -> router.Route:
    decided = await _decide(client, turn)
    if turn.admin:
        decided = router.Route(
            workflow=decided.workflow,
            tools=tuple(name for name in decided.tools if not CATALOG[name].writes),
            decided_by=decided.decided_by,
        )
    return decided


async def _decide(client, turn: Turn) -> router.Route:
    import anthropic  # loaded by client_for already; the module must not load it at start

    if turn.event is not None:
        decided = router.route_event(*turn.event)
        if decided is not None:
            return decided
    texts = user_texts(turn.history) + turn.steering
    prior = prior_assistant_text(turn.history)
    decided = router.route_by_patterns(texts, prior)
    if decided is not None:
        return decided
    turn.check_budget()
    request = router_request(texts, prior)
    note = turn.run.model_call("router", request["model"])
    turn.sent_router = request["messages"][0]["content"]
    try:
        reply = await client.messages.create(**request)
    except anthropic.APIError as exc:
        note.end(error=classify(exc).code)
        log.warning("router model failed (%s); using the default workflow", type(exc).__name__)
        return router.route_from_model_reply("")
    counts = usage_dict(reply.usage.to_dict() if reply.usage is not None else None)
    note.end(usage=counts, stop_reason=reply.stop_reason)
    turn.reply.add_usage(counts)
    text = "".join(block.text for block in reply.content if block.type == "text")
    return router.route_from_model_reply(text)
