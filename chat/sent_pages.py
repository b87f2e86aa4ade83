"""What one reply's turn sent to the model, as a page (chat/turn/sent.py): the chat's disclosure under each
reply links here, so it can be read without JavaScript; every value is escaped by the template."""

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from chat.selectors import sent_to_model_get, thread_get
from zeus.errors import NotFound


def _shown(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, default=str)


def sent_blocks(content: dict) -> list[dict]:
    """The stored messages with each tool call's input and each result's output as indented JSON text."""
    return [
        {
            "role": message["role"],
            "blocks": [
                {**block, "json": _shown(block.get("input" if block["type"] == "tool_use" else "output"))}
                if block["type"] in ("tool_use", "tool_result")
                else block
                for block in message["content"]
            ],
        }
        for message in content.get("messages", [])
    ]


@login_required
@require_GET
def sent_page(request, thread_id, message_id):
    try:
        thread = thread_get(user=request.user, thread_id=thread_id)
        sent = sent_to_model_get(thread=thread, message_id=message_id)
    except NotFound:
        raise Http404 from None
    return render(
        request,
        "chat/sent.html",
        {"thread": thread, "sent": sent, "content": sent.content, "messages": sent_blocks(sent.content)},
    )
