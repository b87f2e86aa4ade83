"""/mcp inside the project's ASGI app: requests under the path go to the MCP application (chat/mcp/app.py),
everything else to Django.

The MCP application is built on the first /mcp request, not when the ASGI application is imported: it
imports the MCP SDK and its web stack, which a process serving only pages and websockets never needs.
"""

import functools

MCP_PATH = "/mcp"


@functools.cache
def _mcp_app():
    from chat.mcp.app import mcp_app

    return mcp_app


def with_mcp(django_app):
    """The project's HTTP app with the /mcp path prefix served by MCP and everything else by Django."""

    async def app(scope, receive, send):
        path = scope.get("path", "")
        if path == MCP_PATH or path.startswith(MCP_PATH + "/"):
            await _mcp_app()(scope, receive, send)
        else:
            await django_app(scope, receive, send)

    return app
