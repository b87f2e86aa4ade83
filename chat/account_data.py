"""The chat's threads, messages, audit, usage and approvals, declared for the account's export, restore and
erasure (zeus/account_data)."""

from zeus.account_data.registry import Record, register

RECORDS = [
    Record("chat.Thread", "user"),
    Record("chat.Message", "thread__user"),
    # What a reply sent to the model: the user reads it, so it leaves with the export; keyed by its message, it is
    # not re-created (the restored messages are new rows).
    Record("chat.SentToModel", "message__thread__user", restored=False),
    Record("chat.TurnRun", "user"),
    Record("chat.ModelCall", "run__user"),
    Record("chat.ToolCall", "run__user"),
    Record("chat.DailyUsage", "user"),
    Record("chat.TokenBudget", "user"),
    Record("chat.ToolExecution", "user", references={"thread_id": "chat.Thread"}),
    Record("chat.Approval", "user", references={"thread_id": "chat.Thread"}),
    Record(
        "chat.AdminReply",
        "user",
        exported=False,
        reason="staff's audit of a reply they wrote; the reply itself is a message of the thread, exported there",
    ),
    Record(
        "chat.ProviderKey",
        "user",
        exported=False,
        reason="a stored API key of the user's own: a secret never leaves the server",
    ),
    Record(
        "chat.McpToken",
        "user",
        exported=False,
        reason="a way in for MCP clients: never leaves the server, and ends the moment erasure is requested",
        credential=True,
    ),
]


def register_all() -> None:
    for record in RECORDS:
        register(record)
