"""The organiser's tools beyond pairing (which :mod:`app.services.tournaments.rounds` has:
start, pause, adjudicate): replace a no-show — by a forfeit, or by a computer player in the
live match —, a message to every player (the tournament page and each live match's chat), and
the referee view (every live table's clocks, turn and scores, with a link to watch).
"""

from __future__ import annotations

import logging
from typing import cast

from typing_extensions import TypedDict

from app.db.hot import MatchRow
from app.json_types import JsonObject
from app.services.clock import clocks
from app.services.clock import rules as c
from app.services.clock.requests import change_clock
from app.services.community import chat
from app.services.community.model import NoticeJson
from app.services.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.services.match.spectating import delay
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.model import Tournament, TournamentJson
from app.services.tournaments.reads import view
from app.services.tournaments.rounds import adjudicate
from app.services.tournaments.tournaments import announce

log = logging.getLogger(__name__)

#: What a no-show is replaced by.
REPLACEMENTS = ("forfeit", "computer")


class RefereeTableJson(TypedDict):
    """One live table as the referee sees it: its ``pairing`` id, ``entrants`` (starting
    numbers by seat) and their ``names``, the match's ``turn``, ``seat_to_act`` (null: nobody),
    ``scores`` by seat, ``version`` and ``clock`` (Clock JSON, docs/API.md § Clocks; null
    without one, or while a spectator delay holds the table back).
    """

    pairing: int
    round: int
    table: int
    entrants: list[int]
    names: list[str]
    match_id: str
    turn: int
    seat_to_act: int | None
    scores: list[int]
    version: int
    clock: JsonObject | None


class RefereeJson(TypedDict):
    """The referee view: every live table."""

    tables: list[RefereeTableJson]


async def _hosted(rt: Runtime, tid: str, host_id: str) -> Tournament:
    async with rt.storage.db.reading() as conn:
        t = await sql.tournament(conn, tid)
    if t is None:
        raise NotFound("no such tournament")
    if t.host_id != host_id:
        raise Forbidden("only the organiser can do that")
    return t


async def replace_no_show(
    rt: Runtime, tid: str, host_id: str, game_id: int, entrant: int, by: str
) -> TournamentJson:
    """Host only: entrant ``entrant`` (a starting number) did not come to game ``game_id``.
    ``by`` ``forfeit``: the game is decided at once — the no-show last, the others sharing
    first (source ``forfeit``, logged) — and the match ended; ``computer``: the computer
    takes the seat in the live match (the game plays on; the seat counts as having left, so
    it is ranked last, docs/RATINGS.md). Either way the no-show is dropped from the next rounds.
    Returns Tournament JSON.

    Raises :class:`Forbidden`, :class:`NotFound` (game), :class:`ValidationFailed` (``by``,
    an entrant not at that table), :class:`Conflict` (``tournament_game_decided``: decided
    already or a bye; ``match_over``).
    """
    if by not in REPLACEMENTS:
        raise ValidationFailed(f"by: one of {', '.join(REPLACEMENTS)}")
    await _hosted(rt, tid, host_id)
    async with rt.storage.db.reading() as conn:
        g = await sql.game(conn, tid, game_id)
        people = {e.number: e for e in await sql.entrants(conn, tid)}
    if g is None:
        raise NotFound("no such game in this tournament")
    seats = list(g.entrants)
    if entrant not in seats:
        raise ValidationFailed("entrant: not at this table", reason="tournament_not_at_table")
    if g.points is not None or len(seats) < 2:
        raise Conflict("this game is decided already", reason="tournament_game_decided")
    name = people[entrant].name if entrant in people else f"#{entrant}"
    reason = f"no-show: {name}"
    if by == "forfeit":
        places = [len(seats) if n == entrant else 1 for n in seats]
        return await adjudicate(
            rt, tid, host_id, game_id, places, reason, source="forfeit", drop=(entrant,)
        )
    seat = seats.index(entrant)

    def hand_over(clock: JsonObject, _row: MatchRow) -> JsonObject:
        typed = c.typed(clock)
        auto = list(typed.auto)
        auto[seat] = True
        away = {k: v for k, v in typed.away.items() if k != str(seat)}
        return typed.having(auto=tuple(auto), away=away).to_json()

    if g.match_id is None:
        raise Conflict("this game has no match", reason="tournament_game_decided")
    await change_clock(rt, g.match_id, hand_over)
    async with rt.storage.db.transaction() as conn:
        await sql.tournament(conn, tid, lock=True)
        await sql.set_entrant_status(conn, tid, [entrant], "dropped")
        await sql.update_tournament(conn, tid, {})
    log.info("tournament %s game %s: %s replaced by the computer", tid, game_id, reason)
    await announce(rt, tid)
    return await view(rt, tid, host_id)


async def message_all(rt: Runtime, tid: str, host_id: str, text: str) -> NoticeJson:
    """Host only: a message to every player — on the tournament page and in the chat of each
    of its live matches (room ``organiser``). Returns the page's Message. Raises
    :class:`Forbidden`, :class:`NotFound`, :class:`app.services.community.chat.ChatError`.
    """
    await _hosted(rt, tid, host_id)
    async with rt.storage.db.reading() as conn:
        games = [g for g in await sql.games(conn, tid) if g.match_id and g.points is None]
        states = await sql.match_states(conn, [g.match_id for g in games if g.match_id])
    live = [m for m, row in states.items() if row.status == "live"]
    message = await chat.post_notice(rt, tid, live, host_id, text)
    await announce(rt, tid)
    return message


async def referee(rt: Runtime, tid: str, host_id: str) -> RefereeJson:
    """Host only: every live table of the tournament — ``{"tables": [{"pairing", "round",
    "table", "entrants", "names", "match_id", "turn", "seat_to_act", "scores", "version",
    "clock"}]}`` (``clock``: the Clock JSON every player sees, docs/API.md § Clocks; the
    match's log is its page, ``#/match/{id}``, watched as a spectator).
    Raises :class:`Forbidden`, :class:`NotFound`.
    """
    await _hosted(rt, tid, host_id)
    async with rt.storage.db.reading() as conn:
        games = [
            (g, g.match_id) for g in await sql.games(conn, tid) if g.match_id and g.points is None
        ]
        people = {e.number: e.name for e in await sql.entrants(conn, tid)}
        rows = await sql.live_tables(conn, [match_id for _, match_id in games])
    tables: list[RefereeTableJson] = []
    for g, match_id in games:
        m = rows.get(match_id)
        if m is None or m.status != "live":
            continue
        tables.append(
            {
                "pairing": g.id,
                "round": g.round,
                "table": g.table_number,
                "entrants": [n for n in g.entrants],
                "names": [people.get(n, f"#{n}") for n in g.entrants],
                "match_id": match_id,
                "turn": m.turn,
                "seat_to_act": m.seat_to_act,
                "scores": [s for s in m.scores],
                "version": m.version,
                "clock": clocks.public(m.clock),
            }
        )
    # The organiser holds no seat: a delayed table shows its visible position, clock hidden
    # (docs/API.md § Spectator delay); a table they play at shows live.
    # It rewrites a held-back table's turn, seat_to_act, scores, version and clock in place,
    # each to a value of the same type (the clock to None): the tables keep their shape.
    await delay.withhold_in_list(rt, cast(list[JsonObject], tables), host_id, id_key="match_id")
    return {"tables": tables}
