"""The model provider (Anthropic's Messages API), as the chat turn and the router call it.

- `wire`    what each model call sends beyond the messages, by model family (thinking, effort)
- `client`  the SDK clients, one HTTP client per event loop, and how SDK errors become error frames
- `stream`  a streamed response folded from its raw events into one small record

Only `client` touches the SDK, and only inside its functions (docs/architecture.md, "Start-up").
"""
