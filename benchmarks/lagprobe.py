"""Event-loop lag probe for the load benchmark, installed into the server process it starts.

``install(path)`` wraps ``uvicorn.Server.serve`` so a task on the server's own event loop sleeps
10 ms at a time and appends ``"<unix time> <lag ms>"`` to ``path`` whenever a wake-up comes more
than 5 ms late (a stall: a slow callback, a GC pause), and ``"<unix time> gc<generation> <ms>"``
for every garbage collection (its pause, however short). The benchmark reads the lines inside
its measuring window (:func:`figures.probe_figures`). It patches nothing of the app, so the same
probe measures any version of the server and the bare pipelines.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

PERIOD = 0.010
REPORT_ABOVE = 0.005


#: Collections not yet written: (unix time, seconds, generation).
_gc_pauses: list[tuple[float, float, int]] = []
_gc_started = 0.0


def _gc_callback(phase: str, info: dict[str, Any]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        took = time.perf_counter() - _gc_started
        _gc_pauses.append((time.time(), took, int(info.get("generation", -1))))


def _take_gc_lines() -> str:
    """The collections logged since the last call, as lines (the list is swapped, not copied:
    a collection during this call lands in the list taken or the new one, never lost).
    """
    global _gc_pauses
    pauses, _gc_pauses = _gc_pauses, []
    return "".join(f"{at:.3f} gc{gen} {took * 1000:.3f}\n" for at, took, gen in pauses)


async def _monitor(path: str) -> None:
    loop = asyncio.get_running_loop()
    gc.callbacks.append(_gc_callback)
    with open(path, "a", buffering=1) as out:
        while True:
            if _gc_pauses:  # "<unix time> gc<generation> <ms>": a collection's pause
                out.write(_take_gc_lines())
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
