"""Playing a tournament's rounds (starting it: :mod:`app.services.tournaments.starting`):
count results, pair the next round (or seat the arena's free entrants), the organiser's
adjudication. What calls :func:`advance` by itself (a
match's end, the sweep) is in :mod:`app.services.tournaments.sweep`.

**Exactly once.** Every change that pairs or counts runs in one transaction holding the
tournament's row (``SELECT … FOR UPDATE`` on Postgres; SQLite has one writer, and the
instance's write lock). A round is paired only by the transaction that finds every game of
the current round decided and moves ``round`` on, so two instances (or the sweep and a match's
end) racing for it pair it once; the unique ``(tournament_id, round, table_number)`` of
``tournament_games`` backs this up. A result is written only where the game has none
(``points IS NULL``), so it is counted once.

**Results** come from the match history (:mod:`app.services.records.history`): the places it
settles (a seat that left is last) become tournament points
(:func:`app.services.tournaments.formats.standings.points_for_places`). A person whose seat left a
game is dropped from the next rounds; registered players who did not check in are dropped at
the start (no-shows).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.hot import MatchRow
from app.db.models import utcnow
from app.db.session import as_utc
from app.engine.aids import AidPolicy
from app.json_types import JsonObject
from app.services.clock import rules as c
from app.services.clock import table_options
from app.services.clock.requests import change_clock
from app.services.errors import Conflict, Forbidden, NotFound, ServiceError, ValidationFailed
from app.services.lobby import dealing
from app.services.lobby.core import COLOURS
from app.services.lobby.model import TableSettings
from app.services.records import queries as records_sql
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.formats import knockout
from app.services.tournaments.formats.pairing import (
    PairingImpossible,
    Table,
    arena_tables,
    round_robin_round,
    swiss_round,
)
from app.services.tournaments.formats.standings import (
    BYE_POINTS,
    places_of_scores,
    points_for_places,
    swiss_entrants,
)
from app.services.tournaments.model import (
    ACTIVE,
    Decision,
    Entrant,
    Game,
    NewGame,
    Tournament,
    TournamentJson,
)
from app.services.tournaments.reads import results_of, view
from app.services.tournaments.tournaments import announce

log = logging.getLogger(__name__)


async def advance(rt: Runtime, tid: str) -> bool:
    """Count the results of the tournament's finished matches and, once its round is decided,
    pair the next one (or finish). Safe to call from any instance at any time; returns whether
    anything changed.
    """
    async with rt.storage.db.transaction() as conn:
        t = await sql.tournament(conn, tid, lock=True)
        if t is None or t.status != "running":
            return False
        changed = await _count_results(conn, t)
        changed = await pair_until_pending(rt, conn, tid) or changed
        if changed:
            await sql.update_tournament(conn, tid, {"updated_at": utcnow()})
    if changed:
        await announce(rt, tid)
    return changed


async def adjudicate(
    rt: Runtime,
    tid: str,
    host_id: str,
    game_id: int,
    places: list[int],
    reason: str,
    *,
    source: str = "adjudicated",
    drop: tuple[int, ...] = (),
) -> TournamentJson:
    """Host only: set the result of a game (``places`` by seat, 1 = first; ties share) with a
    ``reason`` (kept and shown with the result). Replaces a played result too; the match, if
    still running, is ended early (its final scoring does not replace the set result).
    ``source``: ``adjudicated``, or ``forfeit`` for a no-show; ``drop``: starting numbers
    dropped from the next rounds in the same transaction (the no-show). Raises
    :class:`Forbidden`, :class:`NotFound`, :class:`ValidationFailed` (places, reason),
    :class:`Conflict` (a bye).
    """
    reason = " ".join(reason.split())[:500]
    if not reason:
        raise ValidationFailed("reason: say why the result is set", reason="adjudication_reason")
    async with rt.storage.db.transaction() as conn:
        t = await sql.tournament(conn, tid, lock=True)
        if t is None:
            raise NotFound("no such tournament")
        if t.host_id != host_id:
            raise Forbidden("only the organiser can do that")
        g = await sql.game(conn, tid, game_id)
        if g is None:
            raise NotFound("no such game in this tournament")
        if len(g.entrants) < 2:
            raise Conflict("a bye has no result to set", reason="tournament_bye")
        n = len(g.entrants)
        if len(places) != n or any(not 1 <= p <= n for p in places):
            raise ValidationFailed(f"places: one place (1-{n}) per seat")
        values: Decision = {
            "points": list(points_for_places(places)),
            "source": source,
            "reason": reason,
            "decided_at": utcnow(),
        }
        await sql.decide(conn, game_id, values, only_undecided=False)
        await _drop(conn, tid, list(drop))
        log.info("tournament %s game %s adjudicated %s: %s", tid, game_id, places, reason)
        if t.status == "running":
            await pair_until_pending(rt, conn, tid)
        await sql.update_tournament(conn, tid, {"updated_at": utcnow()})
    if g.match_id:
        await _end_early(rt, g.match_id)
    await announce(rt, tid)
    return await view(rt, tid, host_id)


async def _end_early(rt: Runtime, match_id: str) -> None:
    """End a still-running match whose result the organiser set: the clock's early end (as a
    vote to end would), which the sweep turns into the final scoring. Its result does not
    replace the organiser's (a result is written only where none is).
    """

    def end(clock: JsonObject, _row: MatchRow) -> JsonObject:
        return c.typed(clock).having(ended_early=True).to_json()

    try:
        await change_clock(rt, match_id, end)
    except ServiceError:  # over already, or no clock: nothing to end
        return


async def _count_results(conn: AsyncConnection, t: Tournament) -> bool:
    """Write the result of every finished, settled match of the tournament (once each); drop
    the people whose seat left. Returns whether any result was written.
    """
    games = [
        (g, g.match_id) for g in await sql.games(conn, t.id) if g.points is None and g.match_id
    ]
    states = await sql.match_states(conn, [match_id for _, match_id in games])
    counted = False
    for g, match_id in games:
        m = states.get(match_id)
        if m is None or m.status != "finished":
            continue
        seats = await records_sql.seat_results(conn, match_id)
        places = [int(s.place) for s in seats if s.place is not None]
        scores = [int(s.score) for s in seats if s.score is not None]
        if not seats or len(places) < len(seats) or len(scores) < len(seats):
            continue  # the history settles first (the records subscriber or the sweep)
        values: Decision = {
            "points": list(points_for_places(places)),
            "scores": scores,
            "source": "played",
            "decided_at": utcnow(),
        }
        if await sql.decide(conn, g.id, values, only_undecided=True):
            counted = True
            left = [n for n, s in zip(g.entrants, seats, strict=True) if s.left]
            await _drop(conn, t.id, left)
    return counted


async def _drop(conn: AsyncConnection, tid: str, numbers: list[int]) -> None:
    people = {e.number: e for e in await sql.entrants(conn, tid)}
    gone = [n for n in numbers if n in people and not people[n].bot and people[n].status in ACTIVE]
    await sql.set_entrant_status(conn, tid, gone, "dropped")


async def pair_until_pending(rt: Runtime, conn: AsyncConnection, tid: str) -> bool:
    """While the current round is decided: pair the next (byes and forfeits decide at once) or
    finish the tournament. Returns whether a round was paired or the tournament finished.
    """
    changed = False
    while True:
        t = await sql.tournament(conn, tid)
        if t is None:  # the caller holds its row: it is there
            raise NotFound("no such tournament")
        if t.format == "arena":
            return await _arena_step(rt, conn, t) or changed
        games = await sql.games(conn, tid)
        if t.status != "running" or any(g.points is None for g in games if g.round == t.round):
            return changed
        changed = True
        if t.round >= t.rounds or not await _pair(rt, conn, t, games):
            await sql.update_tournament(conn, tid, {"status": "finished"})
            return changed


async def _arena_step(rt: Runtime, conn: AsyncConnection, t: Tournament) -> bool:
    """An arena: until its end, seat every free entrant at a table of close scores (not with
    their last opponents when others are free); once the time is up and every game is decided,
    finish. No new tables while paused. Returns whether anything changed.
    """
    games = await sql.games(conn, t.id)
    pending = [g for g in games if g.points is None]
    if t.status != "running":
        return False
    if t.ends_at is None or utcnow() >= as_utc(t.ends_at):  # a running arena has its end
        if pending:
            return False
        await sql.update_tournament(conn, t.id, {"status": "finished"})
        return True
    if t.paused_at is not None:
        return False
    people = await sql.entrants(conn, t.id)
    busy = {n for g in pending for n in g.entrants}
    points: dict[int, float] = {}
    last: dict[int, frozenset[int]] = {}
    for r in results_of(games):  # in round order: the last game wins
        for n, p in zip(r.entrants, r.points, strict=True):
            points[n] = points.get(n, 0.0) + p
            last[n] = frozenset(r.entrants) - {n}
    free = [
        (e.number, points.get(e.number, 0.0))
        for e in people
        if e.status in ACTIVE and e.number not in busy
    ]
    tables = arena_tables(free, t.seats, last) if len(free) >= t.seats else []
    if not tables:
        return False
    number = t.round + 1
    by_number = {e.number: e for e in people}
    active = {n for n, _ in free}
    for table in tables:
        await _seat_table(rt, conn, t, number, table, by_number=by_number, active=active)
    await sql.update_tournament(conn, t.id, {"round": number})
    return True


async def _pair(rt: Runtime, conn: AsyncConnection, t: Tournament, games: list[Game]) -> bool:
    """Pair round ``t.round + 1``: insert its games, deal its matches, move ``round`` on.
    Returns False when no pairing is possible (the tournament then ends).
    """
    people = await sql.entrants(conn, t.id)
    active = [e.number for e in people if e.status in ACTIVE]
    number = t.round + 1
    if t.format == "round_robin":
        field = sorted({n for g in games if g.round == 1 for n in g.entrants}) or active
        tables = round_robin_round(field, number, t.cycles)
    elif t.format == "knockout":
        tables = _knockout_round(games, active, number, t.seeds)
        if not tables:
            return False
    else:
        if len(active) < 2:
            return False
        try:
            tables = swiss_round(swiss_entrants(active, results_of(games)), number, t.rounds)
        except PairingImpossible as exc:
            log.info("tournament %s ends before round %d: %s", t.id, number, exc)
            return False
    by_number = {e.number: e for e in people}
    for table in tables:
        await _seat_table(rt, conn, t, number, table, by_number=by_number, active=set(active))
    await sql.update_tournament(conn, t.id, {"round": number})
    return True


def _knockout_round(
    games: list[Game], active: list[int], number: int, seeds: Sequence[int] | None
) -> list[Table]:
    """Round ``number`` of a knock-out: the seeded bracket (the organiser's ``seeds``, else
    starting numbers), then the winners of the round before, two tables to one
    (:mod:`.knockout`).
    """
    if number == 1:
        return knockout.first_round(knockout.seeding(seeds, active))
    field = {n for g in games if g.round == 1 for n in g.entrants}
    rank = knockout.ranks(knockout.seeding(seeds, field))
    previous = [  # every game of the round before is decided (pair_until_pending)
        (g.table_number, list(g.entrants), [float(p) for p in g.points])
        for g in games
        if g.round == number - 1 and g.points is not None
    ]
    return knockout.next_round(previous, rank) if len(previous) >= 2 else []


async def _seat_table(
    rt: Runtime,
    conn: AsyncConnection,
    t: Tournament,
    number: int,
    table: Table,
    *,
    by_number: dict[int, Entrant],
    active: set[int],
) -> None:
    """One table of a round: a bye, a forfeit (a round-robin opponent who left), or a match."""
    row: NewGame = {
        "tournament_id": t.id,
        "round": number,
        "table_number": table.number,
        "entrants": list(table.entrants),
        "match_id": None,
        "points": None,
        "scores": None,
        "source": None,
        "reason": None,
        "decided_at": None,
    }
    here = [n in active for n in table.entrants]
    if table.is_bye:
        row.update({"points": [BYE_POINTS], "source": "bye", "decided_at": utcnow()})
    elif not all(here):
        places = places_of_scores([1 if h else 0 for h in here])
        points = list(points_for_places(places))
        row.update({"points": points, "source": "forfeit", "decided_at": utcnow()})
    else:
        row["match_id"] = await _deal(rt, conn, t, number, table, by_number)
    await sql.insert_game(conn, row)


async def _deal(
    rt: Runtime,
    conn: AsyncConnection,
    t: Tournament,
    number: int,
    table: Table,
    by_number: dict[int, Entrant],
) -> str:
    """A lobby with the table's entrants seated in order, dealt at once into a match with the
    tournament's rules and time control. Returns the match id.
    """
    seats: list[JsonObject] = [
        {
            "seat": i,
            "player": by_number[n].player_id,
            "name": by_number[n].name,
            "colour": COLOURS[i],
            "bot": bool(by_number[n].bot),
            "level": by_number[n].level,
        }
        for i, n in enumerate(table.entrants)
    ]
    control, policy, _ = table_options.unpack(t.time_control)
    settings = TableSettings(
        rules=t.rules,
        preset=t.preset,
        name=f"{t.name} · {number}.{table.number}"[:64],
        private=bool(t.private),
        rated=bool(t.rated),
        # Tournament tables play without aids (app/engine/aids.py).
        time_control=control or {"kind": "untimed"},
        timeout_policy=policy,
        aids=AidPolicy.off().to_json(),
        spectator_delay=None
        if t.spectator_delay is None
        else {k: v for k, v in t.spectator_delay.items() if isinstance(v, int)},
    )
    # Each table is its own origin: the per-address cap on computer matches is for people
    # starting tables by hand; the per-instance cap still holds.
    origin = f"tournament:{t.id}:{number}.{table.number}"
    opened = await dealing.open_table(rt, conn, settings, seats, host_id=t.host_id, origin=origin)
    return opened.match_id
