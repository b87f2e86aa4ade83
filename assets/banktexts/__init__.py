"""Bank notification texts (SMS, app notifications) read into transaction drafts: deterministic parsers per
bank first, the model only for text none of them knows (docs/feeds.md)."""
