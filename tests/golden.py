"""Golden answers: a response compared byte for byte with the file the code wrote before a change meant to keep
it. `ZEUS_WRITE_GOLDEN=1` writes the files again: only when the answer is meant to change."""

import json
import os
from pathlib import Path

WRITE = os.environ.get("ZEUS_WRITE_GOLDEN") == "1"


def check_golden(directory: Path, name: str, response) -> None:
    assert response.status_code == 200, response.content
    path = directory / f"{name}.json"
    if WRITE:
        directory.mkdir(exist_ok=True)
        path.write_bytes(response.content)
    assert response.content == path.read_bytes(), f"{name}: the response changed"
    json.loads(response.content)
