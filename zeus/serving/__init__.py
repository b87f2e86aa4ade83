"""Serving Zeus: gunicorn faces the browser and hands websockets and `/mcp` to the ASGI server (docs/serving.md)."""
