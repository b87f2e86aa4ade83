"""What the three fixed-width bank standards (AEB Norma 43, Belgian CODA, French CFONB 120) share: a file of
records, one a line, each naming its kind in its first characters. Their libraries build an object for every
record of what they are given and keep them all, so a long file is handed over in runs: the statement's header
records, then at most CHUNK_ENTRIES entries (an entry's first record and the records that complete it). Memory
is bounded by a run, not the file. Pure."""

from collections.abc import Callable, Iterable, Iterator

from django.utils.translation import gettext as _

from assets.statements.rows import ImportRejected

CHUNK_ENTRIES = 2_000


def lines_of(source: Iterable[bytes]) -> Iterator[bytes]:
    """The file's records without their line ends (banks write CRLF, LF or CR), blank lines left out, and without
    the byte-order mark a text editor puts before the first one."""
    for number, line in enumerate(source):
        if number == 0:
            line = line.removeprefix(b"\xef\xbb\xbf")
        for record in line.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n"):
            if record.strip():
                yield record


def runs(
    records: Iterable[bytes],
    *,
    opens: Callable[[bytes], bool],
    heads: int,
    starts: Callable[[bytes], bool],
) -> Iterator[list[bytes]]:
    """Runs of records, each its statement's first `heads` records (from the record `opens` accepts) and then
    at most CHUNK_ENTRIES entries (from each record `starts` accepts up to the next). A statement's trailing
    records go with its last run; a statement with no entries is one run of its own, so the library still
    reads (and checks) it."""
    header: list[bytes] = []
    run: list[bytes] = []
    entries = 0
    for record in records:
        if opens(record):
            if header or run:
                yield header + run
            header, run, entries = [record], [], 0
        elif header and len(header) < heads and not run:
            header.append(record)
        elif starts(record) and entries == CHUNK_ENTRIES:
            yield header + run
            run, entries = [record], 1
        else:
            entries += starts(record)
            run.append(record)
    if header or run:
        yield header + run  # records before any header: the library says what is wrong with them


def refused(what: str, detail: object, code: str) -> ImportRejected:
    """The file refused, with the library's own words on why (cut short: they may quote a whole record)."""
    return ImportRejected(
        _("The %(what)s file could not be read: %(value)s") % {"what": what, "value": str(detail)[:200]},
        code=code,
    )
