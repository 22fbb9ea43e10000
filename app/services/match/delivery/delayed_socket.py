"""A spectator's socket on a match with a spectator delay (app/services/match/spectating/delay.py).

The hub fans every frame of the live match out to its connections; this connection keeps the
live position from its socket and sends the visible one instead. Nothing here writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

import orjson

from app.realtime.connection import Connection, Socket
from app.realtime.protocol import dumps, snapshot_frame
from app.services.match.reads import current, delayed_json
from app.services.match.spectating.delay import state_at, visible
from app.services.runtime import Runtime
from app.services.spectator_delay import SpectatorDelay

log = logging.getLogger(__name__)


def _kind(frame: str) -> str:
    head = frame[:24]
    for kind in ("presence", "chat", "error", "pong", "aids", "clock", "snapshot", "events"):
        if f'"t":"{kind}"' in head or f'"t": "{kind}"' in head:
            return kind
    return "other"


def _players_room(frame: str) -> bool:
    try:
        return bool(orjson.loads(frame)["d"].get("room") != "spectators")
    except (KeyError, TypeError, AttributeError, orjson.JSONDecodeError):
        return True


def _at(frame: str) -> datetime:
    try:
        at = datetime.fromisoformat(orjson.loads(frame)["d"]["at"])
    except (KeyError, TypeError, ValueError, orjson.JSONDecodeError):
        return datetime.now(UTC)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class DelayedConnection(Connection):
    """A spectator's socket on a delayed match.

    What the hub pushes is filtered here: batches, snapshots and clock frames of the live match
    are never sent (they only wake the feed), presence frames carry the visible version, the
    players' chat frames wait until the cutoff passes their time (the spectators' own go at
    once), errors, pongs and the answers to ``aids`` (computed on the visible position:
    app/services/match/insight/aids.py) go at once. The feed (a
    task started by :meth:`start_feed`, stopped with the socket) sends a snapshot of the
    visible position whenever it moves on, and a full one once the match has ended.
    """

    def __init__(self, socket: Socket, rt: Runtime, match_id: str, delay: SpectatorDelay) -> None:
        super().__init__(socket, None, None)
        self._rt = rt
        self._match_id = match_id
        self._delay = delay
        self._wake = asyncio.Event()
        self._held: list[tuple[datetime, str]] = []
        self.shown = -1
        self._resend = False
        self._feed: asyncio.Task[None] | None = None

    def push(self, version: int | None, frame: str) -> None:
        """Filter one frame of the hub (see the class docstring)."""
        kind = "events" if version is not None else _kind(frame)
        if kind in ("events", "snapshot", "clock", "other"):
            self._wake.set()
            return
        if kind == "chat" and _players_room(frame):
            # What the players say may tell what spectators must not see yet; the spectators'
            # own room says nothing they have not seen (they all watch the same delay).
            self._held.append((_at(frame), frame))
            self._wake.set()
            return
        if kind == "presence":
            data = orjson.loads(frame)
            data["v"] = max(self.shown, 0)
            frame = dumps(data)
        super().push(None, frame)

    def request_sync(self, since: int) -> None:
        """The client asks again: it gets the visible position again."""
        self._resend = True
        self._wake.set()

    def start_feed(self, shown: int) -> None:
        """Start sending (``shown``: the version of the snapshot already sent)."""
        self.shown = shown
        self.start(shown)
        self._feed = asyncio.get_running_loop().create_task(self._run(), name="delayed-feed")

    async def stop(self) -> None:
        """Stop the feed and the writer."""
        if self._feed is not None:
            self._feed.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._feed
        await super().stop()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                wait = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database restarting: try again shortly
                log.debug("delayed feed: %s", exc)
                wait = 1.0
            if wait is None:
                await self._wake.wait()
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), max(0.05, wait))

    async def _step(self) -> float | None:
        """Send what became visible; returns seconds until the next look (None: a push)."""
        live = await current(self._rt, self._match_id)
        if live.state.is_over:
            shown, cutoff, due = live.version, None, None
        else:
            shown, cutoff, due = await visible(self._rt, self._match_id, live.version, self._delay)
        if shown != self.shown or self._resend:
            self._resend = False
            at = await state_at(self._rt, live, shown)
            super().push(None, snapshot_frame(at.version, delayed_json(self._rt, at, self._delay)))
            self.shown = at.version
        ready = [f for t, f in self._held if cutoff is None or t < cutoff]
        self._held = [(t, f) for t, f in self._held if not (cutoff is None or t < cutoff)]
        for frame in ready:
            super().push(None, frame)
        now = datetime.now(UTC)
        times = [due] if due is not None else []
        if self._delay.seconds:
            times += [t + timedelta(seconds=self._delay.seconds) for t, _ in self._held]
        if not times:
            return None
        return (min(times) - now).total_seconds()
