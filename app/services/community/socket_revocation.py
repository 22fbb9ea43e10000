"""Sockets outlive no token: a revoked token's open sockets (and bot event streams) close on
every instance.

A token is revoked when its player's ``token_generation`` moves past the token's (a password
change, "sign out everywhere", account deletion, a guest registering as an account) or its
session is logged out (``ended_sessions``). An API token's sockets are held under the session
``api:<token id>``, which has ended once the token is revoked or its account deleted
(:func:`app.services.queries.ended_among` reads the token itself). Every instance keeps its
open sockets by player
(:class:`app.services.sockets.held.OpenSockets`); the instance that revokes closes its own at once
(:meth:`OpenSockets.close_player`, :meth:`OpenSockets.close_session`), and every instance
compares the tokens of all its sockets with the database every :data:`SWEEP_EVERY` seconds in
two queries (:func:`revocation_sweep`), so a revocation made anywhere closes them within that
bound whatever the broker does.

A closed socket gets an ``unauthorized`` error frame, then close code ``REVOKED`` (4401,
the code a refused token gets on opening); the seat then takes the ordinary disconnect path
(its leave countdown).
"""

from __future__ import annotations

import asyncio
import logging
import time

from app.db.errors import log_failure
from app.services import queries
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: Seconds between two comparisons of this instance's sockets with the database.
SWEEP_EVERY = 2.0
#: Ids per query of the sweep.
CHUNK = 500


async def close_revoked_player(rt: Runtime, player: str, generation: int) -> None:
    """After a committed revocation on this instance: forget the cached generation and close
    ``player``'s sockets opened with an older token here now (other instances: the sweep).
    """
    rt.revocations.forget(player)
    await rt.fanout.open_sockets.close_revoked(player, generation=generation)


async def close_ended_session(rt: Runtime, player: str, *sessions: str) -> None:
    """After a logout (or API tokens revoked) on this instance: close ``player``'s sockets of
    ``sessions`` here now.
    """
    await rt.fanout.open_sockets.close_revoked(player, sessions=set(sessions))


async def is_revoked(rt: Runtime, player: str, generation: int, session: str | None) -> bool:
    """Whether a token of ``player`` with ``generation`` and ``session`` is revoked now, read
    from the database as :func:`sweep_once` reads it (no cache): for one long-lived holder
    about to send something (a bot's event stream).
    """
    async with rt.storage.db.reading() as conn:
        current = (await queries.generations(conn, [player])).get(player)
        ended = session is not None and bool(await queries.ended_among(conn, [session]))
    return ended or (current is not None and generation < current)


async def sweep_once(rt: Runtime) -> int:
    """Compare the tokens of every socket here with the database (generations and ended
    sessions, two queries per :data:`CHUNK` ids) and close the revoked ones, and the ones
    whose token has expired since it opened; returns how many were closed.
    """
    closed = 0
    ids = rt.fanout.open_sockets.players()
    sessions = sorted(rt.fanout.open_sockets.sessions())
    ended: set[str] = set()
    async with rt.storage.db.reading() as conn:
        generations: dict[str, int] = {}
        for i in range(0, len(ids), CHUNK):
            generations.update(await queries.generations(conn, ids[i : i + CHUNK]))
        for i in range(0, len(sessions), CHUNK):
            ended.update(await queries.ended_among(conn, sessions[i : i + CHUNK]))
    for player in ids:
        # A deleted guest row has no generation: nothing of it can be revoked.
        closed += await rt.fanout.open_sockets.close_revoked(player, generations.get(player), ended)
    closed += await rt.fanout.open_sockets.close_expired(time.time())
    return closed


async def revocation_sweep(rt: Runtime) -> None:
    """Forever: :func:`sweep_once` every :data:`SWEEP_EVERY` seconds (when sockets are open)."""
    while True:
        await asyncio.sleep(SWEEP_EVERY)
        if not rt.fanout.open_sockets.players():
            continue
        try:
            closed = await sweep_once(rt)
            if closed:
                log.info("closed %d socket(s) of revoked tokens", closed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log_failure(log, "revocation sweep failed")
