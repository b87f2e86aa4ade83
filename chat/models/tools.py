"""Tool-call records: approvals and replay protection (filled by the tool catalog work)."""
