"""A VietQR payload drawn as SVG, by segno (a kept QR library), error correction M as banking apps print."""

import io


def svg(payload: str) -> str:
    import segno  # only the VietQR answers need it

    buffer = io.BytesIO()
    segno.make_qr(payload, error="m").save(buffer, kind="svg", scale=4, border=4, xmldecl=False, svgns=True)
    return buffer.getvalue().decode("ascii")
