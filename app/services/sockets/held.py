"""This instance's open sockets by player and the token each opened with, so the sockets of a
revoked token can be closed (:mod:`app.services.community.socket_revocation` decides when).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

from app.realtime.protocol import error_frame

log = logging.getLogger(__name__)

#: Close code of a socket whose token was revoked (as for a token refused on opening).
REVOKED = 4401
#: ``close(frame, code, reason)``: send ``frame`` then close the socket.
Closer = Callable[[str, int, str], Awaitable[None]]


@dataclass(eq=False)
class _Held:
    """One open socket: the generation, session and expiry (epoch seconds; None: never) of
    the token it opened with.
    """

    generation: int
    session: str | None
    close: Closer
    expires: float | None = None
    closing: bool = field(default=False)


class OpenSockets:
    """This instance's open sockets by player (guests and accounts; spectators without a
    token are not held: nothing of theirs can be revoked).
    """

    def __init__(self) -> None:
        self._by_player: dict[str, set[_Held]] = {}

    @contextlib.contextmanager
    def hold(
        self,
        player: str | None,
        generation: int,
        session: str | None,
        close: Closer,
        expires: float | None = None,
    ) -> Iterator[None]:
        """Hold a socket of ``player`` (None: nothing held) while the block runs; ``expires``:
        when its token expires (epoch seconds; None: never), after which
        :meth:`close_expired` closes it.
        """
        if player is None:
            yield
            return
        held = _Held(generation, session, close, expires)
        self._by_player.setdefault(player, set()).add(held)
        try:
            yield
        finally:
            mine = self._by_player.get(player)
            if mine is not None:
                mine.discard(held)
                if not mine:
                    del self._by_player[player]

    def players(self) -> list[str]:
        """Players with open sockets here."""
        return list(self._by_player)

    def sessions(self) -> set[str]:
        """Sessions of the tokens of open sockets here."""
        return {h.session for held in self._by_player.values() for h in held if h.session}

    async def close_expired(self, now: float) -> int:
        """Close every socket whose token expired before ``now`` (epoch seconds); returns how
        many were closed.
        """
        closed = 0
        for held in list(self._by_player.values()):
            doomed = [
                h for h in held if not h.closing and h.expires is not None and h.expires < now
            ]
            closed += await self._close(doomed, "token expired: log in again")
        return closed

    async def close_revoked(
        self,
        player: str,
        generation: int | None = None,
        sessions: frozenset[str] | set[str] = frozenset(),
    ) -> int:
        """Close ``player``'s sockets whose token is older than ``generation``, or whose
        session is one of ``sessions``; returns how many were closed.
        """
        doomed = [
            h
            for h in self._by_player.get(player, ())
            if not h.closing
            and (
                (generation is not None and h.generation < generation)
                or (h.session is not None and h.session in sessions)
            )
        ]
        return await self._close(doomed, "token revoked: log in again")

    @staticmethod
    async def _close(doomed: list[_Held], message: str) -> int:
        if not doomed:  # the sweep asks for every player every few seconds: usually none
            return 0
        for h in doomed:
            h.closing = True
        frame = error_frame("unauthorized", message)
        results = await asyncio.gather(
            *(asyncio.wait_for(h.close(frame, REVOKED, "token revoked"), 5.0) for h in doomed),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, Exception):
                log.debug("closing a revoked socket: %s", result)
        return len(doomed)
