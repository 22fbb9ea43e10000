"""The per-instance cache of live engine states, guarded by the match version.

An entry is only trusted when its ``version`` equals the version in the locked match row;
otherwise the state is rebuilt from the database (latest snapshot plus the action log).
Entries are only written while holding the match's lock (:meth:`StateCache.lock`).
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

from app.engine import GameState
from app.json_types import JsonObject
from app.services.clock_values.match_clock import MatchClock
from app.services.seat_values import MatchSeat, seat_of


@dataclass
class Live:
    """One match as this instance knows it: the engine state at ``version`` (-1: being
    changed), its seats and the results of recent client action ids.
    """

    match_id: str
    version: int
    state: GameState
    #: The match's seats in turn order (``matches.seats`` typed): parsed once when the row
    #: enters the cache (:func:`app.services.match.reads.load_live`) and kept while the entry
    #: is at the row's version; frozen, replaced whole. Their JSON form
    #: (:meth:`MatchSeat.to_json`) is made where JSON is needed.
    seats: tuple[MatchSeat, ...]
    #: The host's name for the table; None: the client words "{host}'s table".
    name: str | None
    private: bool
    lobby_code: str
    #: (seat, client action id) → (version, events JSON) of recent actions.
    recent: OrderedDict[tuple[int, str], tuple[int, str]] = field(default_factory=OrderedDict)
    #: The view JSON-ready dict at ``version`` (computed once per version).
    view: JsonObject | None = None
    #: The match's clock (``matches.clock``, :mod:`app.services.clock.rules`) typed: parsed
    #: once when read from the row (:func:`app.services.match.reads.live_for`), or the clock a
    #: move wrote; frozen, replaced whole. None for a match without a clock. Its JSON form
    #: (:meth:`MatchClock.to_json`) is made where JSON is needed: frames, database writes.
    clock: MatchClock | None = None
    #: (version, for spectators, with their extra aids) → the computed aids at that version
    #: (app/services/match/insight/aids.py).
    aids: dict[tuple[int, bool, bool], JsonObject] = field(default_factory=dict, repr=False)

    RECENT = 64

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds (None: not seated)."""
        return seat_of(self.seats, player_id)

    def remember(self, seat: int, client_id: str, version: int, events_json: str) -> None:
        """Keep the result of a client action id for retries."""
        self.recent[(seat, client_id)] = (version, events_json)
        while len(self.recent) > self.RECENT:
            self.recent.popitem(last=False)


class StateCache:
    """LRU map match id → :class:`Live`, and one asyncio lock per match."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[str, Live] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, match_id: str) -> asyncio.Lock:
        """The lock serialising this instance's work on ``match_id`` (hold it while using it)."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    def get(self, match_id: str) -> Live | None:
        """The cached entry (any version), refreshing its LRU position."""
        live = self._entries.get(match_id)
        if live is not None:
            self._entries.move_to_end(match_id)
        return live

    def put(self, live: Live) -> None:
        """Insert or replace an entry, evicting the least recently used."""
        self._entries[live.match_id] = live
        self._entries.move_to_end(live.match_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def drop(self, match_id: str) -> None:
        """Forget an entry (after a failed write, its state may be ahead of the database)."""
        self._entries.pop(match_id, None)

    def __len__(self) -> int:
        """Number of cached matches."""
        return len(self._entries)
