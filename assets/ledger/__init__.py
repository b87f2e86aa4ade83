"""The ledger's truth (docs/ledger.md): transfers between one's own accounts, corrections, splits, import
batches, the user's own categories and exchange rates, and the one query for money that counts."""
