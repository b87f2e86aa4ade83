"""A small HTTP/1.1 load generator for the serving benchmark: N keep-alive clients on raw asyncio sockets.

Two shapes of load. `hammer` is closed-loop: each client sends its next request the moment the last one is
answered, so it measures capacity, and its latency at N clients is N / throughput by Little's law (a queue
the clients themselves keep full). `paced` is open-loop: the clients send at a fixed total rate whatever the
answers, as people do, and each latency is taken from the instant the request was due, so a stall is counted
for every request it delayed (no coordinated omission).

wrk would cost less CPU, but a newcomer's machine or CI may lack it; this client is kept cheap (the request
bytes are built once, the response is parsed only as far as its Content-Length), and it runs on the same cores
as the server, so compare servers within one run. A server that closes the connection
(gunicorn's sync workers answer `Connection: close`) is reconnected, as a browser or a REST client would.
"""

import asyncio
import time
from dataclasses import dataclass, field


@dataclass
class Result:
    requests: int = 0
    errors: int = 0
    elapsed: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.requests / self.elapsed if self.elapsed else 0.0


def _request_bytes(host: str, port: int, path: str, headers: dict[str, str]) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: keep-alive"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """The status and whether the server keeps the connection; the body is read and dropped."""
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, _, rest = head.partition(b"\r\n")
    status = int(status_line.split(b" ", 2)[1])
    length, close, chunked = 0, False, False
    for line in rest.split(b"\r\n"):
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"connection":
            close = value.strip().lower() == b"close"
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length:
        await reader.readexactly(length)
    return status, not close


async def _client(host, port, payload, deadline, result: Result, record_after: float) -> None:
    reader = writer = None
    while time.perf_counter() < deadline:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port)
            started = time.perf_counter()
            writer.write(payload)
            status, keep = await _read_response(reader)
            finished = time.perf_counter()
            if started >= record_after:
                result.requests += 1
                result.latencies.append(finished - started)
                result.statuses[status] = result.statuses.get(status, 0) + 1
            if not keep:
                writer.close()
                writer = None
        except (OSError, asyncio.IncompleteReadError, ValueError):
            result.errors += 1
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.01)
    if writer is not None:
        writer.close()


async def _run(host, port, path, headers, clients, seconds, warmup) -> Result:
    payload = _request_bytes(host, port, path, headers)
    result = Result()
    start = time.perf_counter()
    record_after = start + warmup
    deadline = record_after + seconds
    await asyncio.gather(*(_client(host, port, payload, deadline, result, record_after) for _ in range(clients)))
    result.elapsed = time.perf_counter() - record_after
    return result


def hammer(
    host: str,
    port: int,
    path: str,
    *,
    headers: dict[str, str] | None = None,
    clients: int = 10,
    seconds: float = 2.0,
    warmup: float = 0.3,
) -> Result:
    """GET `path` from `clients` concurrent keep-alive connections for `seconds` (after `warmup`)."""
    return asyncio.run(_run(host, port, path, headers or {}, clients, seconds, warmup))


async def _paced_client(host, port, payload, due: list[float], result: Result) -> None:
    reader = writer = None
    for at in due:
        delay = at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port)
            writer.write(payload)
            status, keep = await _read_response(reader)
            result.requests += 1
            result.latencies.append(time.perf_counter() - at)  # from when it was due, queueing included
            result.statuses[status] = result.statuses.get(status, 0) + 1
            if not keep:
                writer.close()
                writer = None
        except (OSError, asyncio.IncompleteReadError, ValueError):
            result.errors += 1
            if writer is not None:
                writer.close()
            writer = None
    if writer is not None:
        writer.close()


def _schedule(begin: float, clients: int, interval: float, span: float) -> list[list[float]]:
    """When each client's requests are due: one every `interval`, the clients' phases spread over it."""
    count = max(1, int(span / interval))
    return [[begin + (i / clients + k) * interval for k in range(count)] for i in range(clients)]


async def _run_paced(host, port, path, headers, clients, rate, seconds, warmup) -> Result:
    payload = _request_bytes(host, port, path, headers)
    warm = Result()
    start = time.perf_counter()
    interval = clients / rate  # each client's period; their phases spread evenly over it
    warm_due = _schedule(start, clients, interval, warmup)
    await asyncio.gather(*(_paced_client(host, port, payload, d, warm) for d in warm_due))
    result = Result()
    begin = time.perf_counter()
    due = _schedule(begin, clients, interval, seconds)
    await asyncio.gather(*(_paced_client(host, port, payload, d, result) for d in due))
    result.elapsed = time.perf_counter() - begin
    return result


def paced(
    host: str,
    port: int,
    path: str,
    *,
    headers: dict[str, str] | None = None,
    clients: int = 50,
    rate: float = 100.0,
    seconds: float = 4.0,
    warmup: float = 1.0,
) -> Result:
    """GET `path` from `clients` keep-alive connections at `rate` requests a second in all (open loop)."""
    return asyncio.run(_run_paced(host, port, path, headers or {}, clients, rate, seconds, warmup))
