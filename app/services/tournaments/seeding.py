"""Seeding a knock-out: the organiser's seeded list (:func:`set_seeds`), or a knock-out
seeded from a finished Swiss (or any finished 2-player tournament): its final standings, best
first, become the knock-out's entrants — numbered in that order, so starting number = seed
(:mod:`app.services.tournaments.formats.knockout`) — checked in at once.
"""

from __future__ import annotations

from typing import Unpack

from app.db.models import utcnow
from app.services.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.model import TournamentJson, TournamentSettings
from app.services.tournaments.reads import standings_of, view
from app.services.tournaments.tournaments import add_entrant, announce, create

#: Entrants of a finished tournament who no longer play are not seeded.
GONE = ("withdrawn", "dropped")


async def create_seeded_knockout(
    rt: Runtime,
    host_id: str,
    source_id: str,
    qualifiers: int | None,
    *,
    format: str,
    **settings: Unpack[TournamentSettings],
) -> TournamentJson:
    """A knock-out (``settings``: as :func:`app.services.tournaments.tournaments.create`)
    whose entrants are the top ``qualifiers`` (all when None) of tournament ``source_id``'s
    final standings, still in it, in rank order. The caller must organise the source too.
    Returns Tournament JSON.

    Raises :class:`NotFound` (no source), :class:`Forbidden` (not its organiser),
    :class:`Conflict` (``tournament_not_finished``: not finished, or not 2-player; fewer than
    two to seed), :class:`ValidationFailed` (``format`` not ``knockout``, computer players in
    a rated knock-out).
    """
    if format != "knockout":
        raise ValidationFailed("seed_from: only a knock-out is seeded from a tournament")
    async with rt.storage.db.reading() as conn:
        source = await sql.tournament(conn, source_id)
        if source is None:
            raise NotFound("no such tournament to seed from")
        if source.host_id != host_id:
            raise Forbidden("only the organiser of both tournaments can seed one from the other")
        if source.status != "finished" or source.seats != 2 or source.format == "arena":
            raise Conflict(
                "seed from a finished 2-player tournament", reason="tournament_not_finished"
            )
        people = {e.number: e for e in await sql.entrants(conn, source_id)}
        lines = standings_of(source, list(people.values()), await sql.games(conn, source_id))
    seeded = [people[line["number"]] for line in lines]
    seeded = [e for e in seeded if e.status not in GONE][: qualifiers or None]
    if len(seeded) < 2:
        raise Conflict("fewer than two players to seed", reason="tournament_too_few")
    if settings.get("rated") and any(e.bot for e in seeded):
        raise ValidationFailed("rated: computer players cannot enter a rated tournament")
    made = await create(rt, host_id, format="knockout", **settings)
    tid = made["id"]
    async with rt.storage.db.transaction() as conn:
        await sql.tournament(conn, tid, lock=True)
        for e in seeded:
            await add_entrant(
                conn,
                tid,
                player_id=e.player_id,
                name=e.name,
                bot=e.bot,
                level=e.level,
                status="checked_in",
            )
        await sql.update_tournament(conn, tid, {"updated_at": utcnow()})
    await announce(rt, tid)
    return await view(rt, tid, host_id)


async def set_seeds(rt: Runtime, tid: str, host_id: str, order: list[int]) -> TournamentJson:
    """Host only, before the start: seed the knock-out's bracket in ``order`` (starting
    numbers, top seed first; entrants left out follow by number). Returns Tournament JSON.

    Raises :class:`NotFound`, :class:`Forbidden`, :class:`Conflict` (``tournament_started``;
    ``tournament_not_knockout``), :class:`ValidationFailed` (a number twice, or not an
    entrant's).
    """
    async with rt.storage.db.transaction() as conn:
        t = await sql.tournament(conn, tid, lock=True)
        if t is None:
            raise NotFound("no such tournament")
        if t.host_id != host_id:
            raise Forbidden("only the organiser can do that")
        if t.format != "knockout":
            raise Conflict("only a knock-out is seeded", reason="tournament_not_knockout")
        if t.status != "registering":
            raise Conflict("the tournament has started", reason="tournament_started")
        numbers = {e.number for e in await sql.entrants(conn, tid)}
        if len(set(order)) != len(order) or not set(order) <= numbers:
            raise ValidationFailed("order: each entrant's starting number at most once")
        await sql.update_tournament(conn, tid, {"seeds": list(order), "updated_at": utcnow()})
    await announce(rt, tid)
    return await view(rt, tid, host_id)
