"""The client side of the chaos run (``benchmarks/soak.py``): one process of websocket clients.

Two roles, each a process of its own so the run can SIGSTOP one:

* ``players``: tables of guests. Each table creates a lobby over REST (rules and seat count
  chosen by the run), starts it and plays it to the end through the public websocket protocol:
  every seat is a socket whose client picks a legal move from the position the server sends
  (``legal_placements``, ``legal_spots``, the Plague's ``choices``); some tables have resident
  spectators. Seats now and then close their socket and come back (``since=``), to any of the
  instances; a socket whose instance dies reconnects to another one. When a match ends the
  table starts another until the run's ``new_until``.
* ``churn``: spectators joining and leaving all the time: live public matches from
  ``GET /api/lobbies``, each watched for a few seconds on a random instance.

What a process saw goes to ``--out`` as JSON when it ends (the run's stop file, or its hard
deadline): per socket its open/close times and when each version arrived, every acknowledged
action (the ``events`` frame carrying the client's action id), the events of every version
seen (hashed), deliveries twice or out of order, skipped versions, error codes, HTTP 5xx
answers, and per match how it ended. The run checks all of it against the database.

This module never imports the app: it is a client, it speaks HTTP and websockets only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

#: Rules of the tables, in turn (docs/API.md, Lobbies): every preset and both first-edition
#: options on their own.
RULES: list[tuple[str, dict[str, Any]]] = [
    ("standard", {"preset": "standard"}),
    ("river", {"preset": "river"}),
    ("first_edition", {"preset": "first_edition"}),
    ("wheel_of_fortune", {"preset": "wheel_of_fortune"}),
    (
        "farm_original",
        {
            "rules": {
                "tileset": "base",
                "river": False,
                "farm_scoring": "original",
                "small_city_two_points": False,
            }
        },
    ),
    (
        "small_city",
        {
            "rules": {
                "tileset": "base",
                "river": False,
                "farm_scoring": "modern",
                "small_city_two_points": True,
            }
        },
    ),
    (
        "river_first_edition",
        {
            "rules": {
                "tileset": "base",
                "river": True,
                "farm_scoring": "original",
                "small_city_two_points": True,
            }
        },
    ),
]

#: A seat that waits this long for news while it should act asks for a ``sync`` (longer than
#: the 5 s delivery bound, so the lag check still sees a delivery that never came).
WATCHDOG = 6.0


def events_hash(events: Any) -> str:
    """A short digest of a batch's events (key order ignored)."""
    return hashlib.sha1(orjson.dumps(events, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


@dataclass
class SocketLog:
    """One websocket connection: when it was open and when each version reached it."""

    match: str
    who: str  # "seat0", "spectator", "churn"
    port: int
    opened: float
    #: The version the client already had when it opened this socket (``since``), or -1.
    since: int = -1
    closed: float | None = None
    recv: list[tuple[float, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON for the run's checks."""
        return {
            "match": self.match,
            "who": self.who,
            "port": self.port,
            "opened": self.opened,
            "since": self.since,
            "closed": self.closed,
            "recv": self.recv,
        }


@dataclass
class Seen:
    """Everything this process observed, written out at the end."""

    proc: str
    sockets: list[SocketLog] = field(default_factory=list)
    #: (match, version) → events hash, as first seen; ``conflicts`` when two sockets differ.
    batches: dict[tuple[str, int], str] = field(default_factory=dict)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    acks: list[dict[str, Any]] = field(default_factory=list)
    sent: int = 0
    duplicates: list[dict[str, Any]] = field(default_factory=list)
    gaps: list[dict[str, Any]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    error_samples: list[dict[str, Any]] = field(default_factory=list)
    http_5xx: list[dict[str, Any]] = field(default_factory=list)
    matches: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    reconnects: int = 0

    def batch(self, match: str, version: int, digest: str, who: str) -> None:
        """Note the events of ``version`` as one socket saw them."""
        first = self.batches.setdefault((match, version), digest)
        if first != digest:
            self.conflicts.append({"match": match, "v": version, "who": who})

    def error(self, code: str, data: dict[str, Any], who: str) -> None:
        """Count an error frame's code (the first few of each in full)."""
        self.errors[code] = self.errors.get(code, 0) + 1
        if self.errors[code] <= 3:
            self.error_samples.append({"who": who, "t": time.time(), **data})

    def to_json(self) -> dict[str, Any]:
        """JSON for the run's checks."""
        return {
            "proc": self.proc,
            "sockets": [s.to_json() for s in self.sockets],
            "batches": [[m, v, h] for (m, v), h in self.batches.items()],
            "conflicts": self.conflicts,
            "acks": self.acks,
            "sent": self.sent,
            "duplicates": self.duplicates,
            "gaps": self.gaps,
            "errors": self.errors,
            "error_samples": self.error_samples,
            "http_5xx": self.http_5xx,
            "matches": self.matches,
            "problems": self.problems,
            "reconnects": self.reconnects,
        }


class Cluster:
    """The instances (fixed ports; the run restarts a killed one on its port) and REST calls
    that go to another instance when one does not answer.
    """

    def __init__(self, ports: list[int], seen: Seen, rng: random.Random) -> None:
        self.ports = ports
        self.seen = seen
        self.rng = rng
        self.suspect: dict[int, float] = {}
        self.http = httpx.AsyncClient(timeout=15, limits=httpx.Limits(max_connections=40))

    def pick(self, avoid: int | None = None) -> int:
        """A port to use now: not ``avoid``, not one that just failed, if possible."""
        now = time.monotonic()
        fine = [p for p in self.ports if p != avoid and self.suspect.get(p, 0) < now]
        return self.rng.choice(fine or [p for p in self.ports if p != avoid] or self.ports)

    def failed(self, port: int) -> None:
        """``port`` refused or dropped a connection: avoid it for a moment."""
        self.suspect[port] = time.monotonic() + 2.0

    async def rest(
        self, method: str, path: str, token: str | None = None, deadline: float = 90.0, **body: Any
    ) -> Any:
        """One REST call, retried on another instance while instances die, Redis or Postgres
        restart (``deadline`` seconds at most). 5xx answers are recorded (the run requires
        none); raises RuntimeError on a 4xx other than 429 or when time runs out.
        """
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        give_up = time.monotonic() + deadline
        port: int | None = None
        while True:
            port = self.pick(avoid=port)
            try:
                r = await self.http.request(
                    method,
                    f"http://127.0.0.1:{port}{path}",
                    json=body or None,
                    headers=headers,
                )
            except httpx.HTTPError:
                self.failed(port)
                r = None
            if r is not None:
                if r.status_code < 300:
                    return r.json()
                if r.status_code >= 500:
                    self.seen.http_5xx.append(
                        {
                            "t": time.time(),
                            "port": port,
                            "method": method,
                            "path": path,
                            "status": r.status_code,
                            "body": r.text[:300],
                        }
                    )
                    self.failed(port)
                elif r.status_code != 429:
                    raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
            if time.monotonic() > give_up:
                raise RuntimeError(f"{method} {path}: no instance answered")
            await asyncio.sleep(0.3 + self.rng.random() * 0.5)


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A legal action for the seat to act, from the public position only (the legal moves
    the server sends); None when there is nothing to do.
    """
    phase = state.get("phase")
    if phase == "place_tile" and state.get("legal_placements"):
        x, y, r = rng.choice(state["legal_placements"])
        return {"type": "place_tile", "at": [x, y], "rotation": r}
    if phase == "deploy":
        spots = state.get("legal_spots") or []
        supply = (state.get("supply") or [0] * 8)[state["seat"]]
        # Followers often enough that cities, farms, crowns and the Plague all happen.
        if spots and supply and rng.random() < 0.45:
            return {"type": "place_follower", "spot": rng.choice(spots)}
        return {"type": "pass"}
    if phase == "plague" and state.get("plague") and state["plague"].get("choices"):
        x, y, spot = rng.choice(state["plague"]["choices"])
        return {"type": "plague", "at": [x, y], "spot": spot}
    return None


class Watch:
    """One client's view of a match over successive sockets: the position (the keys a move
    needs), the last version, the acknowledgements of its own actions.
    """

    def __init__(
        self,
        cluster: Cluster,
        seen: Seen,
        match: str,
        who: str,
        token: str | None,
        seat: int | None,
        rng: random.Random,
        think: tuple[float, float],
        rejoin: float,
    ) -> None:
        self.cluster = cluster
        self.seen = seen
        self.match = match
        self.who = who
        self.token = token
        self.seat = seat
        self.rng = rng
        self.think = think
        self.rejoin = rejoin
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.complete = False
        self.over = False
        self.final_scores: list[int] | None = None
        self.counter = 0
        #: The action sent and not yet answered: (id, version it was made on, body, sent at).
        self.pending: tuple[str, int, dict[str, Any], float] | None = None
        self.news = time.monotonic()

    # -- frames -------------------------------------------------------------------------

    def _on_events(self, frame: dict[str, Any], log: SocketLog, last: list[int]) -> None:
        v = int(frame["v"])
        d = frame["d"]
        now = time.time()
        if v <= last[0]:
            self.seen.duplicates.append(
                {"match": self.match, "who": self.who, "v": v, "after": last[0], "t": now}
            )
            return
        if last[0] >= 0 and v > last[0] + 1:
            self.seen.gaps.append(
                {
                    "match": self.match,
                    "who": self.who,
                    "from": last[0],
                    "to": v,
                    "t": now,
                    "port": log.port,
                    "live": d.get("delta") is not None,
                }
            )
        last[0] = v
        log.recv.append((now, v))
        self.seen.batch(self.match, v, events_hash(d.get("events")), self.who)
        if self.pending is not None and d.get("action_id") == self.pending[0]:
            self.seen.acks.append(
                {
                    "match": self.match,
                    "seat": self.seat,
                    "id": self.pending[0],
                    "v": v,
                    "events": events_hash(d.get("events")),
                }
            )
            self.pending = None
        if v <= self.version:
            return  # already known from an earlier socket
        gap = v > self.version + 1
        self.version = v
        if d.get("state") is not None:
            self.state = dict(d["state"])
            self.complete = True
        elif d.get("delta") is not None and self.state is not None and not gap:
            self.state.update(d["delta"])
        else:
            self.complete = False
        self.news = time.monotonic()

    def _on_snapshot(self, frame: dict[str, Any], log: SocketLog, last: list[int]) -> None:
        v = int(frame["v"])
        if v < last[0]:
            self.seen.duplicates.append(
                {"match": self.match, "who": self.who, "v": v, "after": last[0], "snapshot": True}
            )
        last[0] = max(last[0], v)
        log.recv.append((time.time(), v))
        if v >= self.version:
            self.version = v
            self.state = dict(frame["d"]["state"])
            self.complete = True
            self.news = time.monotonic()

    def describe(self) -> str:
        """Where this client stands (for the report of a match that did not end)."""
        st = self.state or {}
        return (
            f"v{self.version} complete={self.complete} phase={st.get('phase')} "
            f"seat={st.get('seat')} me={self.seat} pending={self.pending}"
        )

    def _done(self) -> bool:
        if self.complete and self.state is not None and self.state.get("phase") == "game_over":
            self.over = True
            self.final_scores = list(self.state.get("scores") or [])
        return self.over

    # -- acting -------------------------------------------------------------------------

    def _my_turn(self) -> bool:
        return (
            self.seat is not None
            and self.complete
            and self.state is not None
            and self.state.get("phase") != "game_over"
            and self.state.get("seat") == self.seat
        )

    async def _send_action(self, ws: ClientConnection) -> None:
        assert self.state is not None and self.seat is not None
        now = time.monotonic()
        if self.pending is not None and self.pending[1] != self.version:
            self.pending = None  # the position moved on: answered, or seen as a snapshot
        if self.pending is not None:
            action_id, made_on, body, sent = self.pending
            if now - sent > WATCHDOG:
                # Unanswered (the instance died, or the answer is late): the same id again,
                # which the server must not apply twice.
                self.pending = (action_id, made_on, body, now)
                await ws.send(
                    orjson.dumps({"t": "action", "v": made_on, "id": action_id, "d": body}).decode()
                )
            return
        body = choose(self.state, self.rng)
        if body is None:
            return
        self.counter += 1
        action_id = f"{self.who}-{self.counter}"
        self.pending = (action_id, self.version, body, now)
        self.seen.sent += 1
        await ws.send(
            orjson.dumps({"t": "action", "v": self.version, "id": action_id, "d": body}).decode()
        )

    async def _actor(self, ws: ClientConnection, wake: asyncio.Event) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    await wake.wait()
            wake.clear()
            if self._my_turn():
                if self.pending is None:
                    await asyncio.sleep(self.rng.uniform(*self.think))
                    if not self._my_turn():
                        continue
                await self._send_action(ws)
            if (self._my_turn() or not self.complete) and time.monotonic() - self.news > WATCHDOG:
                # No news for long: ask for what this socket missed (the lag check has
                # already counted the wait).
                self.news = time.monotonic()
                await ws.send(orjson.dumps({"t": "sync", "since": max(self.version, 0)}).decode())

    # -- sockets ------------------------------------------------------------------------

    async def play(self, stop_at: float, stall: float) -> str:
        """Keep a socket on the match until it ends; "over", "stalled" or "deadline"."""
        port: int | None = None
        while True:
            if self.over:
                return "over"
            if time.time() > stop_at:
                return "deadline"
            if time.monotonic() - self.news > stall:
                self.seen.problems.append(f"{self.who} stalled: {self.describe()}")
                return "stalled"
            port = self.cluster.pick(avoid=port)
            query = []
            if self.token:
                query.append(f"token={self.token}")
            since = None
            if self.version >= 0 and self.complete and self.rng.random() < 0.85:
                since = self.version
                query.append(f"since={since}")
            url = f"ws://127.0.0.1:{port}/ws/matches/{self.match}?{'&'.join(query)}"
            try:
                async with connect(url, max_size=2**22, open_timeout=10) as ws:
                    await self._serve(ws, port, stop_at, stall, since)
            except (OSError, WebSocketException, TimeoutError):
                self.cluster.failed(port)
            if not self.over:
                self.seen.reconnects += 1
                await asyncio.sleep(self.rng.uniform(0.1, 1.0))

    async def _serve(
        self, ws: ClientConnection, port: int, stop_at: float, stall: float, since: int | None
    ) -> None:
        base = -1 if since is None else since
        log = SocketLog(self.match, self.who, port, time.time(), base)
        self.seen.sockets.append(log)
        last = [base]
        wake = asyncio.Event()
        actor = asyncio.create_task(self._actor(ws, wake))
        leave_at = time.monotonic() + self.rng.expovariate(1 / self.rejoin) if self.rejoin else None
        try:
            while time.time() < stop_at:
                if leave_at is not None and time.monotonic() > leave_at:
                    return  # a client that leaves and comes back (with since=, mostly)
                if time.monotonic() - self.news > stall:
                    return
                if actor.done():
                    error = actor.exception() if not actor.cancelled() else None
                    if error is not None and not isinstance(error, WebSocketException):
                        self.seen.problems.append(f"{self.who}: client error {error!r}")
                    return
                if not self.complete and time.monotonic() - self.news > 2 * WATCHDOG:
                    # A catch-up whose end never came: start again from a snapshot (the next
                    # socket opens without since=; it gets its own time to bring one).
                    self.seen.problems.append(f"{self.who} reloads: {self.describe()}")
                    self.news = time.monotonic()
                    return
                try:
                    async with asyncio.timeout(1.0):
                        raw = await ws.recv()
                except TimeoutError:
                    continue
                frame = orjson.loads(raw)
                kind = frame.get("t")
                if kind == "events":
                    self._on_events(frame, log, last)
                elif kind == "snapshot":
                    self._on_snapshot(frame, log, last)
                elif kind == "error":
                    code = frame["d"].get("code", "?")
                    self.seen.error(code, frame["d"], self.who)
                    if self.pending is not None and frame["d"].get("id") == self.pending[0]:
                        self.pending = None  # refused: decide again on the next position
                    if code == "stale_version":
                        await ws.send(
                            orjson.dumps({"t": "sync", "since": max(self.version, 0)}).decode()
                        )
                    if code in ("unauthorized", "forbidden", "not_found"):
                        self.seen.problems.append(f"{self.who} on {self.match}: {frame['d']}")
                else:
                    continue
                if self._done():
                    return
                wake.set()
        finally:
            log.closed = time.time()
            actor.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await actor


class Table:
    """A table of guests playing one match after another."""

    def __init__(self, number: int, cfg: dict[str, Any], cluster: Cluster, seen: Seen) -> None:
        self.number = number
        self.cfg = cfg
        self.cluster = cluster
        self.seen = seen
        self.rng = random.Random(f"{cfg['seed']}-{cfg['proc']}-{number}")
        self.tokens: list[str] = []
        self.games = 0

    async def run(self) -> None:
        """Play until ``new_until``; each match to its end (or the hard deadline)."""
        while time.time() < self.cfg["new_until"]:
            try:
                await self._one()
            except RuntimeError as exc:
                self.seen.problems.append(f"table {self.number}: {exc}")
                await asyncio.sleep(2)

    async def _one(self) -> None:
        cfg = self.cfg
        while len(self.tokens) < 5:
            name = f"T{cfg['proc'][-1]}{self.number}s{len(self.tokens)}"
            self.tokens.append(
                (await self.cluster.rest("POST", "/api/players", name=name))["token"]
            )
        index = (cfg["first_rules"] + self.number + self.games * 5) % len(RULES)
        rules_name, rules = RULES[index]
        seats = 2 + (self.number + self.games) % 4
        self.games += 1
        host = self.tokens[0]
        lobby = await self.cluster.rest(
            "POST", "/api/lobbies", host, seats=seats, private=False, **rules
        )
        code = lobby["code"]
        for token in self.tokens[1:seats]:
            await self.cluster.rest("POST", f"/api/lobbies/{code}/join", token)
        match = (await self.cluster.rest("POST", f"/api/lobbies/{code}/start", host))["match_id"]
        think = tuple(cfg["think"])
        watches = [
            Watch(
                self.cluster,
                self.seen,
                match,
                f"{match[:6]}-s{seat}",
                self.tokens[seat],
                seat,
                random.Random(self.rng.random()),
                (think[0], think[1]),
                cfg["rejoin"],
            )
            for seat in range(seats)
        ]
        spectators = self.rng.choice((0, 0, 1, 2))
        watches += [
            Watch(
                self.cluster,
                self.seen,
                match,
                f"{match[:6]}-w{i}",
                None,
                None,
                random.Random(self.rng.random()),
                (0, 0),
                cfg["rejoin"],
            )
            for i in range(spectators)
        ]
        started = time.time()
        ends = await asyncio.gather(
            *(w.play(cfg["hard_stop"], cfg["stall"]) for w in watches), return_exceptions=True
        )
        seat_ends = [e if isinstance(e, str) else repr(e) for e in ends[:seats]]
        scores = next((w.final_scores for w in watches if w.final_scores is not None), None)
        self.seen.matches.append(
            {
                "id": match,
                "rules": rules_name,
                "seats": seats,
                "spectators": spectators,
                "ends": seat_ends,
                "finished": all(e == "over" for e in seat_ends),
                "scores": scores,
                "started": started,
                "ended": time.time(),
                "version": max(w.version for w in watches),
            }
        )


async def churn(cfg: dict[str, Any], cluster: Cluster, seen: Seen, stop: Path) -> None:
    """Spectators coming and going on live public matches until the stop file appears."""
    rng = random.Random(f"{cfg['seed']}-churn")
    live: list[str] = []

    async def refresh() -> None:
        while not stop.exists() and time.time() < cfg["hard_stop"]:
            with contextlib.suppress(RuntimeError):
                got = await cluster.rest("GET", "/api/lobbies", deadline=20)
                live[:] = [m["id"] for m in got["matches"]]
            await asyncio.sleep(2)

    async def one(n: int) -> None:
        while not stop.exists() and time.time() < cfg["hard_stop"]:
            if not live:
                await asyncio.sleep(0.5)
                continue
            match = rng.choice(live)
            watch = Watch(cluster, seen, match, f"churn{n}", None, None, rng, (0, 0), 0)
            stay = min(time.time() + rng.uniform(1, 12), cfg["hard_stop"])
            with contextlib.suppress(Exception):
                await watch.play(stay, stall=60)
            await asyncio.sleep(rng.uniform(0, 1))

    await asyncio.gather(refresh(), *(one(n) for n in range(cfg["churners"])))


async def run(cfg: dict[str, Any], out: Path) -> None:
    """One client process: its tables (or churn) until done; writes what it saw to ``out``."""
    seen = Seen(cfg["proc"])
    cluster = Cluster(cfg["ports"], seen, random.Random(f"{cfg['seed']}-{cfg['proc']}"))
    stop = Path(cfg["stop_file"])
    try:
        if cfg["role"] == "churn":
            await churn(cfg, cluster, seen, stop)
        else:
            tables = [Table(n, cfg, cluster, seen) for n in cfg["tables"]]
            await asyncio.gather(*(t.run() for t in tables))
    finally:
        await cluster.http.aclose()
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(seen.to_json()))
        tmp.replace(out)


def main() -> int:
    """``python benchmarks/soak_client.py CONFIG.json OUT.json`` (started by soak.py)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    cfg = json.loads(args.config.read_text())
    asyncio.run(run(cfg, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
