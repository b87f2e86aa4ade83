"""Bank feeds. SePay posts each bank transaction of a linked account to a webhook (docs/feeds.md)."""
