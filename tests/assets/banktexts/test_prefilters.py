"""The refusal and note-label patterns carry a lookahead of the characters their alternatives open with (so that
noise is passed over quickly): each must find exactly what its alternatives alone find, on every real text of
the corpus, on the hostile noise, and on each text's tails (a push's body is searched from where it opens)."""

import json
import re
from pathlib import Path

import pytest

from assets.banktexts import fields
from assets.banktexts.banks import REFUSED, REFUSED_WORDS
from assets.rules.text import fold
from tests.assets.banktexts.test_corpus import NOISE, NOT_YET_MEASURED

CORPUS = Path(__file__).parent / "corpus"
TEXTS = [
    json.loads(line)["text"]
    for path in sorted(CORPUS.glob("*.jsonl"))
    if path.stem not in NOT_YET_MEASURED
    for line in path.open()
    if line.strip()
] + list(NOISE.values())
HAND_MADE = [
    "Huy GD the VCB Visa so tien 13,608 VND",
    "(QC) Uu dai 50% cho ban",
    "x: huy giao dich",
    "Tu choi QC soan TC gui 1313",
    "TK 123 +1,000 VND: NGUYEN VAN A chuyen tien",
    "GD moi nhat: +2,500,000 VND: PHAM",
    "Ref: 123 Mo ta: an trua Detail: x Loi nhan: y Dien giai: z N/dung: w",
    "So GD: 1 thoi gian GD: 2 GD: an",
    "Transaction note: x SUBJECT:y TAI:z So du hien tai: 5",
]


@pytest.mark.parametrize(
    ("prefiltered", "alone"),
    [(REFUSED, re.compile(REFUSED_WORDS)), (fields.NOTE, re.compile(fields.NOTE_LABELS))],
    ids=["refused", "note-labels"],
)
def test_the_lookahead_finds_what_the_alternatives_alone_find(prefiltered, alone):
    assert len(TEXTS) > 200
    for text in TEXTS + HAND_MADE:
        folded = fold(text)
        for tail in {text, folded, *(folded[at:] for at in range(1, min(len(folded), 120)))}:
            assert [m.span() for m in prefiltered.finditer(tail)] == [m.span() for m in alone.finditer(tail)], tail
