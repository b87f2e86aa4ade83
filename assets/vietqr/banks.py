"""The banks a VietQR can name, by their NAPAS BIN. The list is data (banks.json) with its source in it."""

import dataclasses
import functools
import json
from pathlib import Path

_DATA = Path(__file__).with_name("banks.json")


@dataclasses.dataclass(frozen=True)
class Bank:
    bin: str
    short_name: str
    name: str


@functools.cache
def _by_bin() -> dict[str, Bank]:
    document = json.loads(_DATA.read_text(encoding="utf-8"))
    return {row["bin"]: Bank(**row) for row in document["banks"]}


def bank_for(bank_bin: str) -> Bank | None:
    return _by_bin().get(bank_bin)


def all_banks() -> list[Bank]:
    return sorted(_by_bin().values(), key=lambda bank: bank.short_name.casefold())


def source() -> str:
    return json.loads(_DATA.read_text(encoding="utf-8"))["source"]
