"""The tool catalog served over MCP (streamable HTTP at /mcp), for a user identified by their MCP token.
See docs/mcp.md."""
