"""CSV that a spreadsheet opens as data (docs/security.md): every cell of every export goes through
`formula_safe`, so no column (a description, a category, a bank's id, a source) can be run as a formula."""

import csv

# Cells starting with these are formulas (or DDE) to Excel, LibreOffice and Google Sheets; tab and carriage
# return are stripped by some of them first.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(value) -> str:
    """The cell as text, with a leading formula character quoted away by an apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


class FormulaSafeWriter:
    """csv.writer whose every row passes each cell through `formula_safe`."""

    def __init__(self, out, **kwargs):
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row):
        return self._writer.writerow([formula_safe(cell) for cell in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)
