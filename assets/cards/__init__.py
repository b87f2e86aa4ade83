"""Credit cards' statement cycle: what is due on a card and when (docs/debts.md, "Credit cards")."""
