"""Audit rows for admin tests, written through chat.audit as a turn would write them."""

import datetime as dt

from chat.audit import RunRecord, turn_run_record


def run(owner, *, thread=None, day: dt.date, calls=((10, 5),), tools=(), error: str = "", admin: bool = False):
    """A finished turn: `calls` are (input, output) token pairs of main model calls, `tools` (name, is_error)."""
    record = RunRecord(user_id=owner.id, thread_id=thread.id if thread else None, day=day, timezone="UTC", admin=admin)
    for input_tokens, output_tokens in calls:
        note = record.model_call("main", "claude-sonnet-5-5")
        note.end(usage={"input": input_tokens, "output": output_tokens, "cache_read": 3, "cache_write": 7})
    for n, (name, is_error) in enumerate(tools):
        output = {"error": {"code": "INVALID_AMOUNT"}} if is_error else {"ok": True}
        record.tool_call(name=name, call_id=f"toolu_{n}", started=record.started, output=output, is_error=is_error)
    outcome = "error" if error else "ok"
    return turn_run_record(record=record, workflow="inspect", decided_by="pattern", outcome=outcome, error_code=error)
