"""Statement files: CSV (Zeus's header, or a bank's with a column mapping), OFX/QFX, QIF and CAMT.053,
recognised by content. Each format is a parser yielding rows; the importer validates, dedupes and lands them
in one transaction, in batches, so a large file is read with bounded memory (docs/feeds.md)."""
