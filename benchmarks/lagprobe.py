"""Event-loop lag probe for the load benchmark, installed into the server process it starts.

``install(path)`` wraps ``uvicorn.Server.serve`` so a task on the server's own event loop sleeps
10 ms at a time and appends ``"<unix time> <lag ms>"`` to ``path`` whenever a wake-up comes more
than 5 ms late (a stall: a slow callback, a GC pause), and ``"<unix time> gc<generation> <ms>"``
for every garbage collection that took more than 5 ms. The benchmark reads the lines inside its
measuring window and prints the worst of each. It patches nothing of the app, so the same probe
measures any version of the server.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

PERIOD = 0.010
REPORT_ABOVE = 0.005


_gc_pauses: list[tuple[float, float, int]] = []
_gc_started = 0.0


def _gc_callback(phase: str, info: dict[str, Any]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        took = time.perf_counter() - _gc_started
        if took > REPORT_ABOVE:
            _gc_pauses.append((time.time(), took, int(info.get("generation", -1))))


async def _monitor(path: str) -> None:
    loop = asyncio.get_running_loop()
    gc.callbacks.append(_gc_callback)
    with open(path, "a", buffering=1) as out:
        while True:
            while _gc_pauses:  # "<unix time> gc<generation> <ms>": a collection's pause
                at, took, gen = _gc_pauses.pop(0)
                out.write(f"{at:.3f} gc{gen} {took * 1000:.1f}\n")
            start = loop.time()
            await asyncio.sleep(PERIOD)
            lag = loop.time() - start - PERIOD
            if lag > REPORT_ABOVE:
                out.write(f"{time.time():.3f} {lag * 1000:.1f}\n")


def install(path: str) -> None:
    """Run the probe on the event loop of every ``uvicorn.Server`` started in this process."""
    import uvicorn

    original = uvicorn.Server.serve

    async def serve(self: Any, *args: Any, **kwargs: Any) -> None:
        task = asyncio.get_running_loop().create_task(_monitor(path))
        try:
            await original(self, *args, **kwargs)
        finally:
            task.cancel()

    uvicorn.Server.serve = serve  # type: ignore[method-assign]


def max_lag_ms(path: str, start: float, end: float) -> float:
    """The worst lag (ms) logged between unix times ``start`` and ``end`` (0: none over 5 ms)."""
    worst = 0.0
    try:
        with open(path) as lines:
            for line in lines:
                at, _, lag = line.partition(" ")
                if start <= float(at) <= end:
                    worst = max(worst, float(lag))
    except (OSError, ValueError):
        return float("nan")
    return worst
