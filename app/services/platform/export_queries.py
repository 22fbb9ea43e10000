"""The SQL of the export: one page of a player's finished matches at a time (keyset paging on
``(finished_at, id)``, newest first), with each match's shuffle commitment and the actions the
computer chose. Statements run on the caller's connection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, RowMapping, and_, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts, match_fairness, match_players
from app.db.models import match_actions, matches, players
from app.db.tournaments import tournament_games, tournaments
from app.services.platform.model import ExportMatch


@dataclass(frozen=True)
class ExportFilter:
    """Which finished matches of ``player_id`` to export: finished at or after ``since`` and
    before ``until`` (UTC, either may be None), of ``preset`` (None: any; ``custom``: explicit
    rules), ``rated`` (None: both; True: rated and counted; False: the others), private ones
    only when ``with_private``.
    """

    player_id: str
    since: datetime | None = None
    until: datetime | None = None
    preset: str | None = None
    rated: bool | None = None
    with_private: bool = False


#: The columns one exported match needs.
_COLUMNS = (
    matches.c.id,
    matches.c.name,
    matches.c.private,
    matches.c.seats,
    matches.c.snapshot,
    matches.c.clock,
    matches.c.created_at,
    matches.c.finished_at,
    match_players.c.preset,
    match_players.c.rated,
    match_players.c.unrated,
    match_fairness.c.scheme,
    match_fairness.c.commitment,
    match_fairness.c.seed,
    match_fairness.c.salt,
)


def _export_match(m: RowMapping, tournament: bool = False) -> ExportMatch:
    return ExportMatch(
        id=m["id"],
        name=m["name"],
        private=bool(m["private"]),
        seats=tuple(m["seats"]),
        snapshot=m["snapshot"],
        clock=m["clock"],
        created_at=m["created_at"],
        finished_at=m["finished_at"],
        preset=m["preset"],
        rated=bool(m["rated"]),
        unrated=m["unrated"],
        scheme=m["scheme"],
        commitment=m["commitment"],
        seed=m["seed"],
        salt=m["salt"],
        round=m["round"] if tournament else None,
        table_number=m["table_number"] if tournament else None,
    )


def _conditions(f: ExportFilter) -> list[ColumnElement[bool]]:
    cond: list[ColumnElement[bool]] = [
        match_players.c.player_id == f.player_id,
        matches.c.status == "finished",
        matches.c.finished_at.is_not(None),
    ]
    if not f.with_private:
        cond.append(matches.c.private.is_(False))
    if f.since is not None:
        cond.append(matches.c.finished_at >= f.since)
    if f.until is not None:
        cond.append(matches.c.finished_at < f.until)
    if f.preset == "custom":
        cond.append(match_players.c.preset.is_(None))
    elif f.preset is not None:
        cond.append(match_players.c.preset == f.preset)
    if f.rated is True:
        cond.append(and_(match_players.c.rated.is_(True), match_players.c.unrated.is_(None)))
    elif f.rated is False:
        cond.append(or_(match_players.c.rated.is_(False), match_players.c.unrated.is_not(None)))
    return cond


async def page(
    conn: AsyncConnection, f: ExportFilter, after: tuple[datetime, str] | None, limit: int
) -> list[ExportMatch]:
    """At most ``limit`` matches (the columns of :data:`_COLUMNS`) ``f`` selects,
    newest first, strictly after the keyset ``after`` = ``(finished_at, id)`` of the previous
    page's last row (None: from the newest).
    """
    cond = _conditions(f)
    if after is not None:
        at, match_id = after
        cond.append(
            or_(
                matches.c.finished_at < at,
                and_(matches.c.finished_at == at, matches.c.id < match_id),
            )
        )
    query = (
        select(*_COLUMNS)
        .join(match_players, match_players.c.match_id == matches.c.id)
        .outerjoin(match_fairness, match_fairness.c.match_id == matches.c.id)
        .where(and_(*cond))
        .order_by(matches.c.finished_at.desc(), matches.c.id.desc())
        .limit(limit)
    )
    return [_export_match(m) for m in (await conn.execute(query)).mappings()]


async def one(conn: AsyncConnection, match_id: str) -> ExportMatch | None:
    """One match (the columns of :data:`_COLUMNS`, history columns of its first seat), or
    None.
    """
    query = (
        select(*_COLUMNS)
        .outerjoin(
            match_players,
            and_(match_players.c.match_id == matches.c.id, match_players.c.seat == 0),
        )
        .outerjoin(match_fairness, match_fairness.c.match_id == matches.c.id)
        .where(matches.c.id == match_id)
    )
    m = (await conn.execute(query)).mappings().first()
    return None if m is None else _export_match(m)


async def tournament_host(conn: AsyncConnection, tournament_id: str) -> str | None:
    """The host of tournament ``tournament_id``; None when there is no such tournament."""
    query = select(tournaments.c.host_id).where(tournaments.c.id == tournament_id)
    return (await conn.execute(query)).scalar_one_or_none()


async def tournament_page(
    conn: AsyncConnection, tournament_id: str, after: tuple[int, int] | None, limit: int
) -> list[ExportMatch]:
    """At most ``limit`` matches (the columns of :data:`_COLUMNS` plus ``round`` and
    ``table_number``) of the tournament's finished matches, in playing order (round, then
    table), strictly after the keyset ``after`` = ``(round, table_number)`` (None: from the
    first). History columns are the first seat's.
    """
    cond: list[ColumnElement[bool]] = [
        tournament_games.c.tournament_id == tournament_id,
        matches.c.status == "finished",
        matches.c.finished_at.is_not(None),
    ]
    if after is not None:
        rnd, table = after
        cond.append(
            or_(
                tournament_games.c.round > rnd,
                and_(tournament_games.c.round == rnd, tournament_games.c.table_number > table),
            )
        )
    query = (
        select(*_COLUMNS, tournament_games.c.round, tournament_games.c.table_number)
        .select_from(tournament_games)
        .join(matches, matches.c.id == tournament_games.c.match_id)
        .outerjoin(
            match_players,
            and_(match_players.c.match_id == matches.c.id, match_players.c.seat == 0),
        )
        .outerjoin(match_fairness, match_fairness.c.match_id == matches.c.id)
        .where(and_(*cond))
        .order_by(tournament_games.c.round, tournament_games.c.table_number)
        .limit(limit)
    )
    return [_export_match(m, tournament=True) for m in (await conn.execute(query)).mappings()]


async def computer_seqs(conn: AsyncConnection, match_ids: Sequence[str]) -> dict[str, set[int]]:
    """``{match id: seqs of the actions the computer chose}`` for ``match_ids``."""
    out: dict[str, set[int]] = {m: set() for m in match_ids}
    if not match_ids:
        return out
    rows = await conn.execute(
        select(match_actions.c.match_id, match_actions.c.seq).where(
            match_actions.c.match_id.in_(match_ids), match_actions.c.by.is_not(None)
        )
    )
    for match_id, seq in rows:
        out[str(match_id)].add(int(seq))
    return out


async def bot_accounts(conn: AsyncConnection, player_ids: Sequence[str]) -> set[str]:
    """The ids among ``player_ids`` that are bot accounts."""
    if not player_ids:
        return set()
    rows = await conn.execute(
        select(players.c.id).where(players.c.id.in_(player_ids), players.c.bot_account.is_(True))
    )
    return {str(r[0]) for r in rows}


async def has_account(conn: AsyncConnection, player_id: str) -> bool:
    """Whether ``player_id`` is an account's player (False: a guest, or no such player)."""
    found = await conn.execute(
        select(accounts.c.player_id).where(accounts.c.player_id == player_id)
    )
    return found.first() is not None
