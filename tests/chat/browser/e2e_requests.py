"""What the end-to-end tests' scripted model reads in a request: its blocks, whether it answers tool calls,
the user's newest words."""

from tests.chat.fake_anthropic import FakeAnthropic


def blocks_of(message: dict) -> list[dict]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def answering_tools(body: dict) -> bool:
    """The request carries tool results: the model is asked to go on after its own tool calls."""
    return any(block["type"] == "tool_result" for block in blocks_of(body["messages"][-1]))


def last_user_text(body: dict) -> str:
    for message in reversed(body["messages"]):
        texts = [b["text"] for b in blocks_of(message) if message["role"] == "user" and b["type"] == "text"]
        if texts:
            return texts[-1]
    return ""


def user_texts(model: FakeAnthropic) -> list[str]:
    """The newest user text of each main-model request that was not a tool follow-up."""
    return [last_user_text(r["body"]) for r in model.main_requests if not answering_tools(r["body"])]
