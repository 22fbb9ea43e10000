"""The record of one committed move, from the engine's apply to the log statement to the
frame every socket gets, and the answer a client gets back.

:class:`Committed` is built once, right after the engine applied the action. It *is* the log
row (a :class:`app.db.action_log.LogRow`: the write path takes it whole), the match row is
written from it, and after the commit it is announced on the runtime's
``move_committed`` hook (:mod:`app.services.match.play.subscribers` lists who listens). It holds
no secret: the action and its events are public once committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import orjson

from app.db.action_log import LogRow
from app.engine.actions import Action
from app.engine.events import Event
from app.json_types import JsonObject

#: Who drove the move: a person through the write path, or the bot sweep (a bot seat, or the
#: computer for a person's seat).
Actor = Literal["player", "bot"]


@dataclass(frozen=True)
class Applied:
    """The answer to one action: the new ``version``, the acting ``seat``, the client
    ``action_id`` and the events as JSON text (``events`` decodes it). A repeated client
    action id gets the first answer again (built from the log or the cache, not a move).
    """

    version: int
    seat: int
    action_id: str | None
    events_json: str

    @property
    def events(self) -> list[JsonObject]:
        """The engine events of the batch (JSON form)."""
        value: list[JsonObject] = orjson.loads(self.events_json)
        return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Committed(LogRow):
    """One move as committed, and the log row it writes (a :class:`~app.db.action_log.LogRow`,
    which the write path takes whole): match ``version`` (the log's ``seq``), ``seat``, the
    client's ``client_id`` (None for the sweep's moves), the engine ``action`` and ``events``
    (and both as JSON text, encoded once: ``action_json``, ``events_json``), ``at`` (UTC, the
    log row's time), ``by`` (``"computer"`` when the computer chose for a person's seat;
    ``timed_out``: because its clock ran out), ``actor`` (who drove it) and ``published``
    (written as published: no other instance listens to the match, nothing to broadcast).
    """

    action: Action
    events: tuple[Event, ...] = field(repr=False)
    actor: Actor = "player"
    timed_out: bool = False

    def applied(self) -> Applied:
        """The answer to the client that sent the action."""
        return Applied(self.version, self.seat, self.client_id, self.events_json)
