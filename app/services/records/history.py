"""Match history: who played which match, how it ended, and the per-player views of it
(profile, paginated matches, every record at once as a zip).

``match_players`` gets one row per seat when a match starts (:func:`on_match_started`, called
in the transaction that creates the match) and its result when the match finishes
(:func:`settle`, called after the finishing commit; it also runs the rating update of a rated
match in the same transaction). :func:`settle` is idempotent and any reader of history first
settles finished matches that were missed (an instance that died right after the last move).
"""

from __future__ import annotations

import io
import json
import logging
import zipfile
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.errors import log_failure
from app.db.models import utcnow
from app.engine import export_record, load_state
from app.json_types import JsonObject
from app.services.errors import NotFound
from app.services.records import (
    queries,
    rating_guards,
    rating_queries,
    ratings,
    shuffle,
    statistics,
    verdict,
)
from app.services.records.model import HistorySeat, PlayedMatch, PlayerHeader, SettledSeat
from app.services.records.titles import match_host_name
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

MAX_ZIP_MATCHES = 500


async def on_match_started(
    conn: AsyncConnection,
    match_id: str,
    seats: list[JsonObject],
    preset: str | None,
    rated: bool,
    dealt: shuffle.Deal,
) -> None:
    """Record the seats of a new match and its shuffle commitment (same transaction as the
    match row).
    """
    now = utcnow()
    await queries.insert_seats(
        conn,
        [
            HistorySeat(
                match_id=match_id,
                seat=_seat_number(s),
                player_id=_player_of(s),
                bot=bool(s.get("bot")),
                preset=preset,
                rated=rated,
                unrated=None,
                left=False,
                left_at=None,
                score=None,
                place=None,
                started_at=now,
                finished_at=None,
            )
            for s in seats
        ],
    )
    await shuffle.store(conn, match_id, dealt)


def _seat_number(seat: JsonObject) -> int:
    """The seat number of a seat's JSON; raises ``TypeError`` when it is not an integer."""
    number = seat["seat"]
    if not isinstance(number, int):
        raise TypeError(f"a seat number is an integer, not {number!r}")
    return number


def _player_of(seat: JsonObject) -> str | None:
    """The player id on a seat's JSON (None: an open or computer seat)."""
    player = seat.get("player")
    return player if isinstance(player, str) else None


async def seat_taken_over(rt: Runtime, match_id: str, seat: int) -> None:
    """Note that the server played a human seat's turn (abandoned or timed out): for ratings
    that seat left the match.
    """
    try:
        async with rt.storage.db.transaction() as conn:
            await queries.mark_left(conn, match_id, seat)
    except Exception:  # history must never break play
        log_failure(log, f"could not mark seat {seat} of {match_id} as taken over")


async def match_finished(rt: Runtime, match_id: str) -> None:
    """The match-end hook (called after the finishing commit): settle history and ratings.
    Errors are logged, never raised (readers settle missed matches later).
    """
    try:
        await settle(rt, match_id)
    except Exception:
        log_failure(log, f"could not settle match {match_id}")


async def settle(rt: Runtime, match_id: str) -> bool:
    """Write the result of a finished match into its history rows (score, placement) and update
    ratings when it was rated, then announce ``rt.match_settled``. Returns False when there
    was nothing to do (not finished, or settled already: nothing is announced). Settlers of
    one match (the match-end hook of one instance, the missed sweep of another) take turns on
    the match's row lock, so a match is rated, and announced, once.
    """
    if not await _settle(rt, match_id):
        return False
    rt.match_settled.announce(rt, match_id)
    return True


async def _settle(rt: Runtime, match_id: str) -> bool:
    """:func:`settle`'s transaction; True when it settled the match."""
    async with rt.storage.db.transaction() as conn:
        m = await queries.match_result(conn, match_id, lock=True)
        if m is None or m.status != "finished":
            return False
        rows = await queries.unsettled_seats(conn, match_id)
        if not rows:
            return False
        seats_now = {s["seat"]: s for s in m.seats}
        flagged = [
            r.seat
            for r in rows
            if bool(r.left) or (not r.bot and bool(seats_now.get(r.seat, {}).get("bot")))
        ]
        left_at = await _left_moves(conn, match_id, m.snapshot, flagged)
        left = [r.seat in left_at for r in rows]
        scores = [int(m.scores[r.seat]) for r in rows]
        places = ratings.placements(scores, left)
        done = m.finished_at or utcnow()
        for r, score, place, gone in zip(rows, scores, places, left, strict=True):
            result = SettledSeat(score, place, gone, left_at.get(r.seat), done)
            await queries.settle_seat(conn, match_id, r.seat, result)
        await statistics.record_match(conn, match_id, [r.seat for r in rows])
        unrated = None
        if rows[0].rated and rows[0].preset:
            unrated = await ratings.unrated_reason(conn, match_id, [r.seat for r in rows])
            if unrated is None:
                ids = [r.player_id for r in rows if r.player_id]
                unrated = await rating_guards.too_new(conn, rt.settings, match_id, ids)
        if unrated is not None:
            await queries.mark_unrated(conn, match_id, unrated)
        elif rows[0].rated and rows[0].preset:
            await ratings.rate_match(
                conn,
                match_id,
                rows[0].preset,
                [(r.seat, r.player_id, p) for r, p in zip(rows, places, strict=True)],
                rt.settings,
            )
    return True


async def _left_moves(
    conn: AsyncConnection, match_id: str, snapshot: JsonObject, flagged: list[int]
) -> dict[int, int]:
    """``{seat: move}`` of the seats that left: those the computer played a move for (from
    the action log) and ``flagged`` ones (marked while the match ran, e.g. away at an early
    end). See :func:`app.services.records.verdict.left_moves`.
    """
    computer = await queries.computer_seqs(conn, match_id)
    if not computer and not flagged:
        return {}
    state = load_state(snapshot)
    record = export_record(state)
    return verdict.left_moves(record, list(state.actions), computer, flagged)


async def verdict_of(rt: Runtime, match_id: str) -> verdict.VerdictJson | None:
    """The verdict of a finished, settled match (:func:`app.services.records.verdict.verdict_json`:
    places, winners, scores, the seats that left and at which move), or None while it is
    live or not yet settled.
    """
    async with rt.storage.db.reading() as conn:
        rows = await queries.seat_results(conn, match_id)
    places = [r.place for r in rows if r.finished_at is not None and r.place is not None]
    if not rows or len(places) < len(rows):
        return None
    return verdict.verdict_json(
        [int(r.score or 0) for r in rows],
        places,
        {int(r.seat): r.left_at for r in rows if r.left},
    )


async def settle_missed(rt: Runtime, limit: int = 20) -> int:
    """Settle finished matches whose history was never completed; returns how many."""
    async with rt.storage.db.reading() as conn:
        ids = await queries.unsettled_matches(conn, limit)
    for match_id in ids:
        await settle(rt, match_id)
    return len(ids)


async def _player(conn: AsyncConnection, player_id: str) -> PlayerHeader:
    row = await queries.player(conn, player_id)
    if row is None:
        raise NotFound("no such player")
    return row


def _match_entry(m: PlayedMatch, changes: dict[tuple[str, int], dict[str, int]]) -> dict[str, Any]:
    seats = m.seats
    mine = m.mine
    return {
        "id": m.id,
        "name": m.name,
        "host_name": match_host_name(seats, m.clock),
        "status": m.status,
        "preset": mine.preset,
        "rated": bool(mine.rated),
        "unrated": mine.unrated,
        "private": bool(m.private),
        "started_at": mine.started_at.isoformat(),
        "finished_at": mine.finished_at.isoformat() if mine.finished_at else None,
        "seat": mine.seat,
        "score": mine.score,
        "place": mine.place,
        "won": mine.place == 1,
        "left": bool(mine.left),
        "left_at": mine.left_at if mine.left else None,
        "seats": [_seat_entry(s, m.scores) for s in seats],
        "rating_change": changes.get((m.id, mine.seat)),
    }


def _seat_entry(s: JsonObject, scores: list[int]) -> JsonObject:
    """A seat of a history entry: the match's seat JSON with its final ``score``."""
    seat = s["seat"]
    if not isinstance(seat, int):
        raise TypeError(f"a seat number is an integer, not {seat!r}")
    return {
        "seat": seat,
        "name": s["name"],
        "colour": s["colour"],
        "bot": s["bot"],
        "bot_account": bool(s.get("bot_account")),
        "player": s.get("player"),
        "score": scores[seat] if seat < len(scores) else None,
    }


async def player_matches(
    rt: Runtime, player_id: str, page: int = 1, per_page: int = 20, viewer: str | None = None
) -> dict[str, Any]:
    """``{"player", "page", "per_page", "total", "matches": [...]}``, newest first.

    Private matches are listed only to the player themself (``viewer``). Raises
    :class:`NotFound`.
    """
    await settle_missed(rt)
    async with rt.storage.replica.reading() as conn:
        who = await _player(conn, player_id)
        total, rows = await queries.player_match_page(
            conn, player_id, viewer == player_id, per_page, (page - 1) * per_page
        )
        ids = [r.id for r in rows]
        changes: dict[tuple[str, int], dict[str, int]] = {}
        if ids:
            for c in await rating_queries.rating_changes_of(conn, ids):
                b = ratings.display(c.mu_before, c.sigma_before)
                a = ratings.display(c.mu_after, c.sigma_after)
                changes[(c.match_id, c.seat)] = {"before": b, "after": a, "delta": a - b}
    return {
        "player": {
            "id": who.id,
            "name": who.name,
            "username": who.username,
            "bot_account": bool(who.bot_account),
        },
        "page": page,
        "per_page": per_page,
        "total": total,
        "matches": [_match_entry(r, changes) for r in rows],
    }


async def profile(rt: Runtime, player_id: str, viewer: str | None = None) -> dict[str, Any]:
    """``{"player", "played", "won", "ratings": {preset: rating}, "recent": [...]}``:
    finished matches played and won (placement 1, shared or not). Raises :class:`NotFound`.
    """
    recent = await player_matches(rt, player_id, 1, 10, viewer)
    async with rt.storage.replica.reading() as conn:
        played, won = await queries.played_and_won(conn, player_id)
        rated = await ratings.of_player(conn, player_id)
    return {
        "player": recent["player"],
        "played": played,
        "won": won,
        "ratings": rated,
        "recent": recent["matches"],
        "total": recent["total"],
    }


async def records_zip(rt: Runtime, player_id: str) -> bytes:
    """A zip of the ``carcassonne-record/1`` of every finished match of the player (with the
    revealed shuffle), newest first, at most :data:`MAX_ZIP_MATCHES`; one file per match
    named ``<finished date>-<match id>.json``.
    """
    await settle_missed(rt)
    async with rt.storage.replica.reading() as conn:
        rows = await queries.finished_snapshots(conn, player_id, MAX_ZIP_MATCHES)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for r in rows:
            record = export_record(load_state(r.snapshot))
            record = await shuffle.reveal_into(rt, r.id, record)
            judged = await verdict_of(rt, r.id)
            if judged is not None:
                record["verdict"] = judged
            day = r.finished_at.strftime("%Y-%m-%d") if r.finished_at else "unknown"
            archive.writestr(f"{day}-{r.id}.json", json.dumps(record, indent=1))
    return buffer.getvalue()
