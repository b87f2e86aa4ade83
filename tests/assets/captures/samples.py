"""The sample files the capture tests read, and how they were made (`python -m tests.assets.captures.samples`
writes them again). No public receipt or statement sample was at hand that could be kept in the repository, so
both are made here, and say so: the receipt is drawn with Pillow (a café's receipt, invented), the statement
PDF is written object by object (a one-page Vietcombank-style account statement, invented numbers). They are
real files of their formats (a baseline JPEG, a PDF 1.4 with a text layer), as a phone's camera or a bank's
export would send, small enough to keep."""

from pathlib import Path

DATA = Path(__file__).parent / "data"

RECEIPT_LINES = [
    "CONG CA PHE - 12 LY THUONG KIET",
    "HOA DON BAN HANG",
    "Ngay: 01/12/2026  Gio: 08:42",
    "------------------------------",
    "Bac xiu          2 x 29.000   58.000",
    "Banh mi          1 x 25.000   25.000",
    "------------------------------",
    "TONG CONG                     83.000",
    "Thanh toan: the VISA ****1234",
    "Cam on quy khach!",
]

STATEMENT_LINES = [
    "SAO KE TAI KHOAN / ACCOUNT STATEMENT",
    "Vietcombank - So TK: 0071000123456 - VND",
    "Tu ngay 01/11/2026 den ngay 30/11/2026",
    "Ngay GD     Noi dung                          Ghi no      Ghi co      So du",
    "03/11/2026  LUONG THANG 10 CONG TY ABC                    25.000.000  37.500.000",
    "05/11/2026  THANH TOAN DIEN EVN HCMC          850.000                 36.650.000",
    "12/11/2026  CHUYEN TIEN NGUYEN VAN A TIEN NHA 6.000.000               30.650.000",
]


def receipt_jpeg() -> bytes:
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (360, 40 + 22 * len(RECEIPT_LINES)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(RECEIPT_LINES):
        draw.text((16, 20 + 22 * i), line, fill="black")
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def receipt_png() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.open(io.BytesIO(receipt_jpeg())).save(out, "PNG")
    return out.getvalue()


def _pdf(pages_text: list[list[str]]) -> bytes:
    """A PDF 1.4 whose pages carry `pages_text` as Helvetica text, with a correct cross-reference table."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font_id = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for lines in pages_text:
        body = ["BT /F1 9 Tf 40 800 Td 12 TL"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            body.append(f"({escaped}) Tj T*")
        body.append("ET")
        stream = "\n".join(body).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content_id = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 %d 0 R >> >> "
            b"/Contents %d 0 R >>" % (font_id, content_id)
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def statement_pdf() -> bytes:
    return _pdf([STATEMENT_LINES])


def letter_pdf() -> bytes:
    """A PDF that is no statement: a letter."""
    return _pdf([["Dear neighbours,", "The garden party is on Saturday at four.", "Bring a chair."]])


def write() -> None:
    DATA.mkdir(exist_ok=True)
    (DATA / "receipt.jpg").write_bytes(receipt_jpeg())
    (DATA / "statement.pdf").write_bytes(statement_pdf())
    (DATA / "letter.pdf").write_bytes(letter_pdf())


if __name__ == "__main__":
    write()
