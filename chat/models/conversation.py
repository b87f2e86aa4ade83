"""Threads and messages (filled by the chat loop work)."""
