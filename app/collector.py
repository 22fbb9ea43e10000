"""The cyclic garbage collector of a serving process, paced by the event loop.

CPython 3.11 starts a young collection when its count of container objects (allocations
minus deallocations) passes the first threshold. On a busy server that count hardly moves:
every move frees about as many older objects (the view, frames, finished coroutines) as it
allocates, so young collections come seldom and then walk everything created since the last
one and still alive — mostly the wait chains of every socket that received a frame meanwhile.
At 700 matches a young collection held 15,000–73,000 objects and stopped the event loop
15–56 ms (middle ones 45–53 ms), 29 of 31 collections over 10 ms (docs/PERFORMANCE.md).

So the loop paces them by time instead: every :data:`PACE_SECONDS` it collects the young and
middle generations together (``gc.collect(1)``): only the sockets active in that window have
new objects, a few thousand at most, ~1–3 ms. Counting thresholds stay as the fallback of a
loop that stops pacing. Full collections keep CPython's own rule (only once the objects that
survived grew the old generation by a quarter), at most every :data:`FULL_AFTER_PACES`
paces; a wave of closing sockets runs one itself (:func:`app.realtime.hub.give_back_memory`).
What the imports made lives as long as the process and is frozen out of every collection.
"""

from __future__ import annotations

import asyncio
import gc

#: Seconds between two paced collections of the young and middle generations.
PACE_SECONDS = 0.05

#: Paced (middle) collections before a full one may run: 6,000 × 50 ms = 5 minutes at least.
FULL_AFTER_PACES = 6_000

#: ``gc.set_threshold``: young collections by count only when the pacing stalls (5,000 net
#: allocations), a middle one with every 3rd of those, full ones as above.
THRESHOLDS = (5_000, 3, FULL_AFTER_PACES)


def configure() -> None:
    """Freeze what exists now (the imports, the app: it lives as long as the process; no
    ``gc.collect()`` first: it found no garbage among those ~140k objects and cost ~80 ms of
    every start-up) and set :data:`THRESHOLDS`. Call once, before serving.
    """
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


async def pace(every: float = PACE_SECONDS) -> None:
    """Forever: collect the young and middle generations every ``every`` seconds (run it as a
    task on the serving loop; cancel it to stop). Nothing while the collector is disabled.
    """
    while True:
        await asyncio.sleep(every)
        if gc.isenabled():
            gc.collect(1)
