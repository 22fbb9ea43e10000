"""A move's budget: what hundreds of moves cost Postgres and the process, in counts, not times
(they hold on a loaded machine). A change that needs more raises the budget below in the same
change and says why.

The scenario: two-person matches (no computer, every person's socket on this instance, so a
move is written as published and not broadcast) played to the end through
:func:`app.services.match.play.play.submit_action` — the call the websocket and REST action
handlers make — in process, against a Postgres database of the test's own (cloned from the
migrated template, dropped after). Moves are drawn from the legal ones with a fixed seed and
``DECK_SEED`` fixes the tiles, so every run plays the same moves. Two time controls: none, and
a Fischer clock (the clock JSON is written with every move). Each is warmed by one whole match
first (statement caches, the engine's), then measured over :data:`MEASURED_MATCHES` matches.
A move is measured from the call to its settled consequences (the background work it spawned,
the hub's delivery), so the last move of a match carries the match's history.

How each figure is counted:

- **Statements, round trips** (per move, each move apart): the frontend protocol messages
  every asyncpg connection writes (:class:`tests.budget.meters.Wire`: SQLAlchemy's dialect and
  the play path's raw pool both run on asyncpg). A statement is a simple query (``BEGIN`` and
  ``COMMIT`` of a transaction are statements of their own) or an Execute; a round trip is a
  simple query or a Sync.
- **Commits**: ``pg_stat_database.xact_commit`` of the test's database (per database, so the
  other xdist workers do not touch it). Postgres 15 keeps a backend's counts until it flushes
  them (at most once a second, or 10 s idle, or at exit): before each reading every connection
  with counts pending (the app's pools hold one connection each here, and the meter's) runs
  ``pg_stat_force_next_flush()`` (:data:`tests.budget.meters.FLUSH_SQL`), and the transactions
  this adds are subtracted. Checked in every run against the transactions read off the wire:
  equal.
- **WAL bytes** (``pg_walinspect``): the records between the two readings that touch a block of
  this database's relations (``rel <spc>/<dboid>/<node>`` in ``block_ref``) or commit a
  transaction that did (its xid), so other workers' WAL in the shared cluster falls out.
  Full-page images are left out (printed apart): they come with the cluster's checkpoints, not
  with the moves. The budget is a move's: the median of the bytes per transaction (grouped by
  xid; a match's history is one transaction among ~140). The mean per move is printed: it also
  holds pruning and the updates that found their page full, which come and go with the other
  workers' transactions (next item). Autovacuum is off for the database's tables.
- **HOT share**: from the same WAL, the match-row updates (records on ``matches``) that are
  HOT, among those whose new version fitted on its page (one block: the page had room or was
  pruned). An update to a new page says nothing of the app: Postgres prunes a page's dead
  versions on access only when no transaction of the whole cluster older than them still runs
  (the snapshot's xmin is cluster-wide), so other workers' transactions decide it. The WAL's
  counts are checked against ``pg_stat_user_tables`` (``n_tup_upd``, ``n_tup_hot_upd``), whose
  share is printed too.
- **Python objects**: what a move leaves allocated with the garbage collector off (so cyclic
  garbage counts too): the growth of ``gc.get_count()[0]`` (container objects) and of
  ``sys.getallocatedblocks()`` (small memory blocks: strings and numbers as well) from the
  call to its settled end. CPython 3.11 counts no allocations that are freed again (no
  allocation hook short of C), so what a move keeps or leaves to the collector is the count
  measured. Both repeat from run to run: the moves do.
"""

from __future__ import annotations

import gc
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.engine import DEPLOY, PLACE_TILE, GameState, legal_follower_spots, legal_placements
from app.services import identity
from app.services.lobby import dealing, lobby, seats
from app.services.match import reads
from app.services.match.delivery.sockets import match_hub_factory
from app.services.match.play import play, subscribers
from app.services.runtime import Runtime
from app.settings import ROOT
from tests.budget.meters import (
    FLUSH_APP_COMMITS,
    FLUSH_APP_ROLLBACKS,
    PgMeter,
    Tally,
    Wal,
    Wire,
    flush_app,
)
from tests.support.app import make_settings
from tests.support.services import create_pg_database, drop_pg_database, run_async

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(180)]

# ----------------------------------------------------------------------------- the budgets

#: Every move but a match's last: one statement, the group commit's (app/db/group_commit.py,
#: app/db/hot.py ``append_fast``): the match row bumped if still at the cached version and the
#: log row appended, in autocommit: no BEGIN/COMMIT, no read first.
STATEMENTS_PER_MOVE = 1
#: ... in one round trip and one transaction.
ROUND_TRIPS_PER_MOVE = 1
COMMITS_PER_MOVE = 1
#: A match's last move: its own statement, then the match's history settles in one transaction
#: (app/services/records/history.py ``settle``): BEGIN, the match row locked, the unsettled
#: seats, the moves the computer played, each seat's result (2), the log's events, each seat's
#: statistics (2), COMMIT. Each is a round trip of its own.
STATEMENTS_LAST_MOVE = 11
ROUND_TRIPS_LAST_MOVE = 11
COMMITS_LAST_MOVE = 2
#: WAL bytes of a move: the median of the transactions (full-page images left out), as
#: measured, and the margin over it. A move writes the log row (heap insert and 3 index entries:
#: key, version, client action id), the match row (a HOT update: no index entry), 2 row locks
#: (the foreign key's check of the log row) and the commit record; the Fischer clock's JSON
#: makes its rows longer. Measured 1006-1010 (untimed) and 1081 (Fischer) over a dozen runs,
#: alone and beside other workers. Before match-row updates were HOT: 1289-1290 and 1365
#: (4 more index entries a move).
WAL_BYTES_PER_MOVE = {"untimed": 1010, "fischer": 1081}
WAL_MARGIN = 1.15
#: At least this share of the match-row updates that fit on their page are HOT (no index
#: entry written): a move leaves the indexed columns as they are (``next_bot_at`` as a bound:
#: app/services/match/play/row.py). Only a match's last move, which clears ``next_bot_at``, is not:
#: 282 of 284 (99.3 %). Updates that found no room on the page are left out: whether the
#: page's dead versions could be pruned depends on every transaction of the shared cluster.
HOT_SHARE_AT_LEAST = 0.95
#: What a move leaves in the process with the garbage collector off, as measured on CPython
#: 3.11 (the image's; other versions count otherwise and are not checked): container objects
#: (``gc.get_count()``) and small memory blocks (``sys.getallocatedblocks()``), mostly the
#: match's position growing by a move. Measured 10.45-10.46 objects and 12.06-12.27 blocks,
#: both time controls, over a dozen runs alone and beside other workers (9.5 and 11.2 before
#: the next look became a bound); the margins are tight because the counts are: one object
#: more kept per move is +10 %.
OBJECTS_PER_MOVE = {"untimed": 10.5, "fischer": 10.5}
OBJECTS_MARGIN = 1.05
BLOCKS_PER_MOVE = {"untimed": 12.2, "fischer": 12.2}
BLOCKS_MARGIN = 1.1
ALLOCATIONS_MEASURED_ON = (3, 11)

# ----------------------------------------------------------------------------- the scenario

#: Matches measured per time control (a base-game match of two people is ~140 moves).
MEASURED_MATCHES = {"untimed": 2, "fischer": 2}
TIME_CONTROLS: dict[str, dict[str, Any] | None] = {
    "untimed": None,
    "fischer": {"kind": "fischer", "bank": 300, "increment": 10},
}
DECK_SEED = 7


@dataclass
class Move:
    """One measured move: what it sent, and the objects and memory blocks it left (gc off)."""

    last: bool
    wire: Tally
    objects: int
    blocks: int


@dataclass
class Figures:
    """What one time control's measured matches cost."""

    scenario: str
    matches: int
    moves: list[Move] = field(default_factory=list)
    commits: int = 0  # pg_stat_database, the meters' own subtracted
    rollbacks: int = 0
    updates: int = 0
    hot_updates: int = 0
    wal: Wal | None = None

    def of(self, last: bool) -> list[Move]:
        return [m for m in self.moves if m.last == last]

    @property
    def wire(self) -> Tally:
        total = Tally()
        for m in self.moves:
            total.statements += m.wire.statements
            total.round_trips += m.wire.round_trips
            total.commits += m.wire.commits
            total.rollbacks += m.wire.rollbacks
        return total

    @property
    def wal_per_move(self) -> float:
        assert self.wal is not None
        return self.wal.bytes / len(self.moves)

    @property
    def hot_share(self) -> float:
        return self.hot_updates / self.updates if self.updates else 0.0

    @property
    def objects_per_move(self) -> float:
        return sum(m.objects for m in self.moves) / len(self.moves)

    @property
    def blocks_per_move(self) -> float:
        return sum(m.blocks for m in self.moves) / len(self.moves)

    def report(self) -> str:
        assert self.wal is not None
        n = len(self.moves)

        def spread(moves: list[Move], what: str) -> str:
            values = Counter(
                len(m.wire.statements) if what == "s" else m.wire.round_trips for m in moves
            )
            return ", ".join(f"{v}×{k}" for k, v in sorted(values.items()))

        last = self.of(True)
        lines = [
            f"{self.scenario}: {n} moves in {self.matches} matches",
            f"  statements per move: {spread(self.of(False), 's')}; last moves: "
            f"{spread(last, 's')}",
            f"  round trips per move: {spread(self.of(False), 'r')}; last moves: "
            f"{spread(last, 'r')}",
            f"  commits: {self.commits} (pg_stat_database; wire {self.wire.commits}), "
            f"{self.commits / n:.3f} per move; rollbacks {self.rollbacks}",
            f"  WAL: {self.wal.typical} bytes a move (the median transaction); "
            f"{self.wal.bytes} bytes in all, {self.wal_per_move:.0f} per move "
            f"(+ {self.wal.fpi} bytes of full-page images)",
            f"  WAL records: {dict(self.wal.kinds.most_common())}",
            f"  HOT: {self.wal.hot_share_fitting:.1%} of the match-row updates that fitted on "
            f"their page ({self.wal.hot} HOT, {self.wal.same_page} not; "
            f"{self.wal.new_page} to a new page); pg_stat_user_tables: {self.hot_updates} of "
            f"{self.updates} ({self.hot_share:.1%})",
            f"  left per move (gc off): {self.objects_per_move:.2f} objects, "
            f"{self.blocks_per_move:.2f} memory blocks",
        ]
        if last:
            lines.append(
                "  a last move's statements: "
                + " | ".join(s.split("\n")[0].strip()[:60] for s in last[0].wire.statements)
            )
        return "\n".join(lines)


def _choose(state: GameState, rng: random.Random) -> dict[str, Any]:
    """A legal action of the seat to act (place a tile; then a follower now and then)."""
    if state.phase == PLACE_TILE:
        x, y, rotation = rng.choice(legal_placements(state))
        return {"type": "place_tile", "at": [x, y], "rotation": rotation}
    assert state.phase == DEPLOY, state.phase
    spots = legal_follower_spots(state)
    if spots and rng.random() < 0.4:
        return {"type": "place_follower", "spot": rng.choice(spots)}
    return {"type": "pass"}


async def _new_match(rt: Runtime, time_control: dict[str, Any] | None) -> str:
    """A started two-person match, cached here, with a hub on this instance (its people's
    sockets are here: :func:`app.services.match.play.play._alone`).
    """
    people = [
        (await identity.create_player(rt.storage.db, rt.tokens, name))[0]["id"]
        for name in ("Ann", "Ben")
    ]
    code = (
        await lobby.create_lobby(
            rt,
            people[0],
            name=None,
            preset=None,
            rules=None,
            seats=2,
            private=False,
            time_control=time_control,
        )
    )["code"]
    await seats.join(rt, code, people[1])
    match_id = await dealing.start(rt, code, people[0])
    live = await reads.current(rt, match_id)
    assert (live.clock is not None and live.clock.control.timed) or time_control is None
    hub = await rt.fanout.hubs.acquire(
        rt.fanout.channel("match", match_id), lambda: match_hub_factory(rt, match_id, live.seats)
    )
    hub.note_version(live.version)
    return match_id


async def _play(rt: Runtime, match_id: str, seed: int, wire: Wire, into: list[Move] | None) -> None:
    """Play the match to its end; each move measured into ``into`` (None: not measured)."""
    rng = random.Random(seed)
    hub = rt.fanout.hubs.get(rt.fanout.channel("match", match_id))
    assert hub is not None
    while True:
        live = rt.storage.cache.get(match_id)
        assert live is not None, "the match fell out of the cache: the fast path was left"
        if live.state.is_over:
            return
        data = _choose(live.state, rng)
        player = live.seats[live.state.seat].player
        version = live.version
        before = wire.mark()
        objects, blocks = gc.get_count()[0], sys.getallocatedblocks()
        applied = await play.submit_action(rt, match_id, player, version, f"m{version}", data)
        await rt.settle(10)
        await hub.forwarded()
        if into is not None:
            left = gc.get_count()[0] - objects, sys.getallocatedblocks() - blocks
            into.append(Move(live.state.is_over, wire.tally.since(before), *left))
        assert applied.version == version + 1


async def _measure(url: str, wire: Wire, scenario: str) -> Figures:
    """Warm up with one match, then measure :data:`MEASURED_MATCHES` matches of ``scenario``."""
    settings = make_settings(
        url,
        None,
        "budget",
        ROOT / "frontend",
        deck_seed=DECK_SEED,
        db_pool_size=1,  # one connection per pool: each is flushed by name (meters.flush_app)
        db_max_overflow=0,
    )
    meter = await PgMeter.open(url)
    rt = Runtime(settings)
    subscribers.subscribe(rt)
    try:
        control, count = TIME_CONTROLS[scenario], MEASURED_MATCHES[scenario]
        warm, *measured = [await _new_match(rt, control) for _ in range(1 + count)]
        await _play(rt, warm, 1, wire, None)
        figures = Figures(scenario, count)
        await flush_app(rt.storage.db)
        before = await meter.counters()
        gc.collect()
        gc.disable()
        wire.counting = True
        try:
            for seed, match_id in enumerate(measured, start=10):
                await _play(rt, match_id, seed, wire, figures.moves)
        finally:
            wire.counting = False
            gc.enable()
        await flush_app(rt.storage.db)
        after = await meter.counters()
        own = PgMeter.OWN_COMMITS + FLUSH_APP_COMMITS
        figures.commits = after.commits - before.commits - own
        figures.rollbacks = after.rollbacks - before.rollbacks - FLUSH_APP_ROLLBACKS
        figures.updates = after.updates - before.updates
        figures.hot_updates = after.hot_updates - before.hot_updates
        figures.wal = await meter.wal(before.lsn, after.lsn)
        return figures
    finally:
        await rt.close()
        await meter.close()


@pytest.fixture(scope="module", params=list(TIME_CONTROLS))
def figures(request: pytest.FixtureRequest) -> Iterator[Figures]:
    """One time control measured once per worker, on a database of its own."""
    url = create_pg_database(migrated=True)
    wire = Wire()
    try:
        with pytest.MonkeyPatch.context() as mp:
            wire.install(mp)
            measured = run_async(lambda: _measure(url, wire, request.param))
        print("\n" + measured.report())
        yield measured
    finally:
        drop_pg_database(url)


def _worst(moves: list[Move], what: str) -> int:
    return max(
        (len(m.wire.statements) if what == "statements" else m.wire.round_trips for m in moves),
        default=0,
    )


def test_a_move_stays_within_its_budget(figures: Figures) -> None:
    """Statements, round trips, commits, WAL, HOT updates and objects: every overrun named at
    once, with the figures.
    """
    f, over = figures, []
    assert f.wal is not None
    moves, last = len(f.moves), len(f.of(True))
    for what, moves_of, budget in [
        ("statements", f.of(False), STATEMENTS_PER_MOVE),
        ("round trips", f.of(False), ROUND_TRIPS_PER_MOVE),
        ("statements", f.of(True), STATEMENTS_LAST_MOVE),
        ("round trips", f.of(True), ROUND_TRIPS_LAST_MOVE),
    ]:
        kind = "a last move" if moves_of and moves_of[0].last else "a move"
        if _worst(moves_of, what) > budget:
            over.append(f"{what} of {kind}: {_worst(moves_of, what)} > {budget}")
    commits = COMMITS_PER_MOVE * (moves - last) + COMMITS_LAST_MOVE * last
    if f.commits > commits:
        over.append(f"commits: {f.commits} > {commits} for {moves} moves ({last} last)")
    wal = WAL_BYTES_PER_MOVE[f.scenario] * WAL_MARGIN
    if f.wal.typical > wal:
        over.append(f"WAL of a move: {f.wal.typical} > {wal:.0f} bytes")
    if f.wal.hot_share_fitting < HOT_SHARE_AT_LEAST:
        over.append(f"HOT share: {f.wal.hot_share_fitting:.1%} < {HOT_SHARE_AT_LEAST:.0%}")
    objects = OBJECTS_PER_MOVE[f.scenario] * OBJECTS_MARGIN
    blocks = BLOCKS_PER_MOVE[f.scenario] * BLOCKS_MARGIN
    if sys.version_info[:2] != ALLOCATIONS_MEASURED_ON:
        print(f"objects and blocks not checked on Python {sys.version_info[:2]}")
    else:
        if f.objects_per_move > objects:
            over.append(f"objects left per move: {f.objects_per_move:.2f} > {objects:.2f}")
        if f.blocks_per_move > blocks:
            over.append(f"memory blocks left per move: {f.blocks_per_move:.2f} > {blocks:.2f}")
    assert not over, "over budget: " + "; ".join(over) + "\n" + f.report()
    # The measurement itself: every match ended (its last move measured), every move updated
    # its match row, and Postgres's counts are the ones seen on the wire and in the WAL.
    assert last == f.matches and f.updates >= moves, f.report()
    assert (f.commits, f.rollbacks) == (f.wire.commits, f.wire.rollbacks), f.report()
    updates = f.wal.hot + f.wal.same_page + f.wal.new_page
    assert (updates, f.wal.hot) == (f.updates, f.hot_updates), f.report()
