"""Memory stays bounded by the file kinds' caps: the largest PDF a capture takes is read, encoded and sent
once, and a body over the cap is refused before it is read (test_capture_api.py)."""

import tracemalloc

import pytest
from django.core.files.uploadedfile import TemporaryUploadedFile

from assets.captures.files import MAX_PDF_BYTES
from assets.captures.services import capture_create
from tests.assets.captures.conftest import STATEMENT_ROWS, answer, sample


@pytest.mark.django_db
def test_the_largest_pdf_is_read_in_memory_bounded_by_a_few_times_its_size(alice, model):
    model.script(answer("statement", STATEMENT_ROWS, issuer="Vietcombank"))
    model.emulate_cache = False  # the offline server's own prefix hashing is not what is measured
    pdf = sample("statement.pdf")
    size = MAX_PDF_BYTES - 1024
    data = pdf[: -len(b"%%EOF\n")] + b"%" + b"x" * (size - len(pdf) - 2) + b"\n%%EOF\n"
    upload = TemporaryUploadedFile("big.pdf", "application/pdf", len(data), None)
    upload.write(data)
    upload.seek(0)
    tracemalloc.start()
    try:
        capture = capture_create(user=alice, upload=upload, name="big.pdf")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        upload.close()
    assert capture.drafts.count() == 3 and capture.size == len(data) == size
    # The bytes, their base64 as bytes and text, the SDK's JSON body as text and bytes; and the offline server,
    # in this same process, reads that body, parses it and decodes the base64 again to check it.
    assert peak < 16 * size, f"peak {peak / 2**20:.0f} MiB for a {size / 2**20:.0f} MiB PDF"
    print(f"capture of a {size / 2**20:.1f} MiB PDF: peak traced memory {peak / 2**20:.1f} MiB")
