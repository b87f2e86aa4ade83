"""Tool results are capped at 16 KiB of JSON. Lists lose their tail (marked `truncated: true`); the JSON is
never cut mid-way."""

import json

MAX_RESULT_BYTES = 16 * 1024


def result_size(output: dict) -> int:
    # ASCII escapes make the bytes an upper bound for either json.dumps setting the loop may use.
    return len(json.dumps(output).encode())


def cap_output(output: dict) -> dict:
    if result_size(output) <= MAX_RESULT_BYTES:
        return output
    for key, value in output.items():
        if isinstance(value, list) and value:
            capped = _shorten(output, key, value)
            if capped is not None:
                return capped
    return {
        "error": {
            "code": "RESULT_TOO_LARGE",
            "message": "The result is larger than 16 KiB; ask for fewer rows or a narrower filter.",
        }
    }


def _shorten(output: dict, key: str, items: list) -> dict | None:
    """The longest prefix of `items` that fits, by bisection."""

    def with_prefix(n: int) -> dict:
        out = {**output, key: items[:n], "truncated": True}
        if "count" in out:
            out["count"] = n
        return out

    lo, hi = 0, len(items)
    if result_size(with_prefix(0)) > MAX_RESULT_BYTES:
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if result_size(with_prefix(mid)) <= MAX_RESULT_BYTES:
            lo = mid
        else:
            hi = mid - 1
    return with_prefix(lo)
