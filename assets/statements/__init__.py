"""Statement files: CSV and XLSX (Zeus's header, a bank's with a column mapping, or one whose Vietnamese or
English header maps itself), OFX/QFX, QIF, CAMT.052/053/054 and MT940, recognised by content. Each format is
a parser yielding rows; the importer validates, dedupes and lands them in one transaction, in batches, so a
large file is read with bounded memory (docs/feeds.md). The parsers' libraries load only when used."""
