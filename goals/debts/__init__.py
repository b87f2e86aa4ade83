"""Debts and IOUs: what the user owes and what is owed to them (docs/adr/0010-debts-live-in-goals.md)."""
