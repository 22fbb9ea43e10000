"""Reading tournaments: Tournament JSON (one tournament as a viewer sees it: settings,
entrants, standings, pairings, bracket), the public list and the tournaments one player
entered (their profile). Reads only; the use cases that change a tournament are in
:mod:`app.services.tournaments.tournaments` and :mod:`app.services.tournaments.rounds`.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection
from typing_extensions import TypedDict

from app.db.session import as_utc
from app.json_types import JsonObject
from app.services.clock import table_options
from app.services.community import chat
from app.services.errors import NotFound
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.formats import knockout
from app.services.tournaments.formats.standings import GameResult, pod_standings, swiss_standings
from app.services.tournaments.model import (
    ACTIVE,
    Entrant,
    EntrantJson,
    Game,
    MatchState,
    PairingJson,
    StandingLine,
    Tournament,
    TournamentJson,
)


class SummaryJson(TypedDict):
    """A tournament of the public list (``ends_at``: an arena's end, ISO 8601, or null)."""

    id: str
    name: str
    format: str
    rounds: int
    status: str
    round: int
    entrants: int
    preset: str
    rated: bool
    ends_at: str | None
    time_control: JsonObject
    time_label: str


class EnteredJson(TypedDict):
    """A tournament a player entered: ``rank``/``points`` their place in the standings now
    (``rank`` null before the start, both null without a line), ``entry`` their entrant status.
    """

    id: str
    name: str
    format: str
    status: str
    round: int
    rounds: int
    entrants: int
    rank: int | None
    points: float | None
    entry: str
    ends_at: str | None


async def listing(rt: Runtime, limit: int = 50) -> list[SummaryJson]:
    """Public tournaments (``{"id", "name", "format", "rounds", "status", "round",
    "entrants", "preset", "time_control", "time_label", "rated"}``), those not finished first.
    """
    async with rt.storage.db.reading() as conn:
        rows = await sql.listed(conn, limit)
    return [
        {
            "id": r.tournament.id,
            "name": r.tournament.name,
            "format": r.tournament.format,
            "rounds": r.tournament.rounds,
            "status": sql.public_status(r.tournament),
            "round": r.tournament.round,
            "entrants": r.entrants,
            "preset": r.tournament.preset,
            "rated": r.tournament.rated,
            "ends_at": None
            if r.tournament.ends_at is None
            else as_utc(r.tournament.ends_at).isoformat(),
            "time_control": table_options.lobby_fields(r.tournament.time_control)["time_control"],
            "time_label": table_options.lobby_fields(r.tournament.time_control)["time_label"],
        }
        for r in rows
    ]


async def player_history(
    rt: Runtime, player_id: str, viewer: str | None = None, limit: int = 20
) -> list[EnteredJson]:
    """The tournaments ``player_id`` entered, newest first (private ones only to the player):
    ``[{"id", "name", "format", "status", "round", "rounds", "entrants", "rank", "points",
    "entry"}]`` (``rank``/``points``: the player's place in the standings now; ``entry``: their
    entrant status).
    """
    out: list[EnteredJson] = []
    async with rt.storage.db.reading() as conn:
        entries = await sql.entries_of(conn, player_id, limit)
        for entry in entries:
            r = entry.tournament
            if r.private and viewer != player_id:
                continue
            people = await sql.entrants(conn, r.id)
            games = await sql.games(conn, r.id)
            mine = next(
                (s for s in standings_of(r, people, games) if s["number"] == entry.number),
                None,
            )
            out.append(
                {
                    "id": r.id,
                    "name": r.name,
                    "format": r.format,
                    "status": sql.public_status(r),
                    "round": r.round,
                    "rounds": r.rounds,
                    "entrants": sum(1 for e in people if e.status in ACTIVE),
                    "rank": None if mine is None or r.status == "registering" else mine["rank"],
                    "points": None if mine is None else mine["points"],
                    "entry": entry.status,
                    "ends_at": None if r.ends_at is None else as_utc(r.ends_at).isoformat(),
                }
            )
    return out


async def view(rt: Runtime, tid: str, viewer: str | None = None) -> TournamentJson:
    """Tournament JSON (docs/API.md "Tournaments"): settings, entrants, standings with the
    format's tie-breaks, every round's tables (with their match ids), and ``me`` (the viewer's
    entry, or null). Raises :class:`NotFound`.
    """
    return for_viewer(await read(rt, tid), viewer)


def viewer_key(data: TournamentJson, viewer: str | None) -> tuple[bool, int | None]:
    """What of Tournament JSON ``data`` depends on ``viewer``: ``(is_host, the starting number
    of their entry or None)``. Viewers with equal keys see the same JSON.
    """
    if viewer is None:
        return False, None
    number = next((e["number"] for e in data["entrants"] if e["player"] == viewer), None)
    return viewer == data["host"], number


def for_key(data: TournamentJson, key: tuple[bool, int | None]) -> TournamentJson:
    """Tournament JSON ``data`` (as :func:`read` gives it) for viewers with ``key``
    (:func:`viewer_key`): ``is_host`` and ``me`` set, the rest shared (not copied).
    """
    is_host, number = key
    mine = None if number is None else next(e for e in data["entrants"] if e["number"] == number)
    return {**data, "is_host": is_host, "me": mine}


def for_viewer(data: TournamentJson, viewer: str | None) -> TournamentJson:
    """Tournament JSON ``data`` (as :func:`read` gives it) as ``viewer`` sees it."""
    return for_key(data, viewer_key(data, viewer))


async def read(rt: Runtime, tid: str) -> TournamentJson:
    """Tournament JSON as nobody in particular sees it (``is_host`` false, ``me`` null): the
    part every viewer shares (:func:`for_viewer` adds theirs). Raises :class:`NotFound`.
    """
    async with rt.storage.db.reading() as conn:
        row = await tournament_of(conn, tid)
        people = await sql.entrants(conn, tid)
        games = await sql.games(conn, tid)
        states = await sql.match_states(conn, [g.match_id for g in games if g.match_id])
    by_number = {e.number: e for e in people}
    lines = standings_of(row, people, games)
    shown = table_options.lobby_fields(row.time_control)
    return {
        "id": row.id,
        "name": row.name,
        "host": row.host_id,
        "is_host": False,
        "private": bool(row.private),
        "format": row.format,
        "cycles": row.cycles,
        "rounds": row.rounds,
        "preset": row.preset,
        "rated": bool(row.rated),
        "time_control": shown["time_control"],
        "time_label": shown["time_label"],
        "timeout_policy": shown["timeout_policy"],
        "at_zero": shown["at_zero"],
        "spectator_delay": row.spectator_delay,
        "status": sql.public_status(row),
        "round": row.round,
        "paused": row.paused_at is not None,
        "seats": row.seats,
        "duration_minutes": row.duration_minutes,
        "ends_at": None if row.ends_at is None else as_utc(row.ends_at).isoformat(),
        "starts_at": None if row.starts_at is None else as_utc(row.starts_at).isoformat(),
        "version": row.version,
        "entrants": [_entrant_json(e) for e in people],
        "standings": [
            {
                **line,
                "name": by_number[line["number"]].name,
                "bot": bool(by_number[line["number"]].bot),
            }
            for line in lines
        ],
        "pairings": [_game_json(g, states) for g in games],
        "bracket": knockout.bracket_of(row, people, games),
        "seeds": None
        if row.format != "knockout"
        else knockout.seeding(row.seeds, [e.number for e in people if e.status in ACTIVE]),
        "messages": await chat.notices(rt, tid),
        "me": None,
    }


def results_of(games: list[Game]) -> list[GameResult]:
    """The decided games as :class:`GameResult` (entrants by starting number)."""
    return [
        GameResult(
            int(g.round),
            tuple(int(n) for n in g.entrants),
            tuple(float(p) for p in g.points),
            tuple(int(s) for s in g.scores or ()),
        )
        for g in games
        if g.points is not None
    ]


def standings_of(row: Tournament, people: list[Entrant], games: list[Game]) -> list[StandingLine]:
    """Standings lines (``number``, ``rank``, ``points``, ``games``, ``wins``, ``byes``,
    ``buchholz``, ``sonneborn_berger``, ``score_total``) with the format's tie-breaks.
    """
    seeds = [e.number for e in people]
    rank = pod_standings if row.format == "arena" or row.seats > 2 else swiss_standings
    return [
        {
            "number": s.entrant,
            "rank": s.rank,
            "points": s.points,
            "games": s.games,
            "wins": s.wins,
            "byes": s.byes,
            "buchholz": s.buchholz,
            "sonneborn_berger": s.sonneborn_berger,
            "score_total": s.score_total,
        }
        for s in rank(seeds, results_of(games))
    ]


def _entrant_json(e: Entrant) -> EntrantJson:
    return {
        "number": e.number,
        "name": e.name,
        "player": e.player_id,
        "bot": bool(e.bot),
        "level": e.level,
        "status": e.status,
    }


def _game_json(g: Game, live: dict[str, MatchState]) -> PairingJson:
    match = live.get(g.match_id) if g.match_id else None
    return {
        "id": g.id,
        "round": g.round,
        "table": g.table_number,
        "entrants": list(g.entrants),
        "match_id": g.match_id,
        "match_status": None if match is None else match.status,
        "points": None if g.points is None else list(g.points),
        "scores": None if g.scores is None else list(g.scores),
        "source": g.source,
        "reason": g.reason,
    }


async def tournament_of(conn: AsyncConnection, tid: str, *, lock: bool = False) -> Tournament:
    """Tournament ``tid`` (``lock``: its row locked for the caller's transaction). Raises
    :class:`NotFound`.
    """
    row = await sql.tournament(conn, tid, lock=lock)
    if row is None:
        raise NotFound("no such tournament")
    return row
