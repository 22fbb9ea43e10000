"""The tables (SQLAlchemy 2 typed models). The schema itself is made by Alembic (migrations/).

``matches.setup`` and ``matches.snapshot`` hold ``GameState.to_json()``: the seed, the deck
order and the position. They are server-side only and never leave through the API.
``match_actions`` is the action log, the source of truth: a match is rebuilt from the latest
``snapshot`` (its position loads without replaying) plus the actions after ``snapshot_version``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table; ``Base.metadata`` is Alembic's target."""


class Player(Base):
    """A guest identity: the token signs ``id``. ``token_generation``: how many times the
    player revoked its tokens (a token of an older generation is refused). ``bot_account``: an
    account its owner turned into a bot account (one-way; docs/BOT_API.md).
    """

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    token_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    bot_account: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Lobby(Base):
    """A table being set up. ``seats`` is a list of ``max_seats`` seat dicts
    (``{"seat", "player", "name", "colour", "bot"}``; an empty seat has ``player`` and ``name``
    null and ``bot`` false). ``version`` grows by one on every change.
    """

    __tablename__ = "lobbies"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The host's name for the table; null: none given (clients word "{host}'s table").
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    host_id: Mapped[str] = mapped_column(String(32))
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    preset: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    max_seats: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="open")
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: The host's time control (``app.services.clock.rules.TimeControl`` JSON; null: untimed).
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: A rated lobby (issue 15): accounts only, a standard preset, no computer seats.
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The language the host plays in (``en``, ``de``, ``fr``), null: any.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: A best-of-N series at this table (1, 3 or 5 games); null: one game.
    best_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The series so far once started (``app.services.lobby.series``): its seats, its games
    #: with their points, the score; null before the first deal or for a single game.
    series: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: How far behind spectators see the match: ``{"moves": N}`` or ``{"seconds": M}``; null:
    #: live (app/services/match/spectating/delay.py).
    spectator_delay: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: How the table plays, in one value (``app.services.lobby.model.TableSettings.to_json``:
    #: rules, time control, time-out and aid policies, spectator delay, language, rated,
    #: best-of, with the row ``version`` it was written at); null: a row from an older release.
    #: The columns above that it repeats stay written alike while older releases may run
    #: (expand/contract: migrations/README.md).
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (Index("ix_lobbies_status_private", "status", "private"),)


class Match(Base):
    """One played game. ``version`` is the number of actions applied (0 after the deal).

    ``seats``: ``[{"seat", "player", "name", "colour", "bot", "level", "bot_account"}]`` in turn
    order (matches dealt by older releases lack ``level`` and ``bot_account``; typed as
    ``app.services.seat_values.MatchSeat`` where a match is cached). ``next_bot_at``:
    when the bot sweep should look at this match (a bot's turn, or a human turn that may have
    been abandoned); null once finished.
    """

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    lobby_code: Mapped[str] = mapped_column(String(32))
    #: The lobby's name, null when the host gave none (``clock["host"]`` is the host's seat).
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="live")
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    snapshot_version: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    seat_to_act: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn: Mapped[int] = mapped_column(Integer, default=0)
    scores: Mapped[list[int]] = mapped_column(JSON)
    next_bot_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rematch_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: The match's clock, leave countdowns and votes (``app.services.clock.rules``; null for matches
    #: started before clocks existed). Changed only under the match row's lock.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: How many committed changes were not actions (the clock changed without a move, or the
    #: match ended early): the version watch compares it
    #: (``app/services/match/delivery/delivery.py``).
    notes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The client address that started the match, and its computer seats: live matches with
    #: computer players are capped per address (``app/services/lobby/dealing.py``, ``start``).
    started_from: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bots: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The lobby's spectator delay, fixed when the match starts (null: spectators see it live).
    spectator_delay: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (
        Index("ix_matches_status_private", "status", "private"),
        Index("ix_matches_next_bot_at", "next_bot_at"),
        Index("ix_matches_started_from", "started_from", "status"),
    )


class MatchAction(Base):
    """One applied action: ``seq`` is the match version it produced (1, 2, …).

    ``action`` and ``events`` are JSON text (engine JSON forms), stored as sent on the wire.
    ``client_id`` is the client's action id, unique per match and seat (retries are answered
    from here instead of applying twice). ``published``: the batch was handed to the broker (the
    log is the outbox: an outbox sweep publishes rows left unpublished, see
    ``app/services/match/queries.py``).
    """

    __tablename__ = "match_actions"

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    action: Mapped[str] = mapped_column(Text)
    events: Mapped[str] = mapped_column(Text)
    #: Who chose the action when not the seat's own holder: ``"computer"`` (time-out, a seat
    #: handed to the computer, an abandoned turn); null otherwise (bot seats included).
    by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    published: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (
        UniqueConstraint("match_id", "seq", name="uq_match_actions_match_seq"),
        UniqueConstraint("match_id", "seat", "client_id", name="uq_match_actions_client_id"),
        Index(
            "ix_match_actions_unpublished",
            "created_at",
            postgresql_where=text("NOT published"),
            sqlite_where=text("NOT published"),
        ),
    )


class SeatPresence(Base):
    """When a seated player was last seen connected (refreshed while a socket is open).

    Read by the bot sweep to decide whether a seat whose turn is overdue was abandoned.
    """

    __tablename__ = "seat_presence"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """One chat message of a lobby's waiting room (``scope`` "lobby", ``key`` its code) or of
    a match (``scope`` "match", ``key`` its id). ``room``: "lobby", "players" or "spectators"
    (spectators' messages reach players only once the match is over). ``text`` is plain text
    as typed (escaped by whoever displays it), or empty with ``quick`` naming a quick message.
    """

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    scope: Mapped[str] = mapped_column(String(8))
    key: Mapped[str] = mapped_column(String(32))
    room: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(24))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    colour: Mapped[str | None] = mapped_column(String(16), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    quick: Mapped[str | None] = mapped_column(String(24), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_chat_messages_scope_key_id", "scope", "key", "id"),)


class ChatMute(Base):
    """A person the host of a lobby muted: no chat in its waiting room nor in its matches."""

    __tablename__ = "chat_mutes"

    lobby_code: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class InstanceHeartbeat(Base):
    """An app instance's last sign of life; the first instance up after a gap when none was
    beating credits running clocks with the gap (``app.services.clock.clocks``).
    """

    __tablename__ = "instance_heartbeats"

    instance_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    beat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EndedSession(Base):
    """A logged-out session (one login of an account on one device): its tokens are refused.
    Kept until its last token would have expired (``expires_at``), then pruned.
    """

    __tablename__ = "ended_sessions"

    session: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class Seek(Base):
    """A "Play now" seek: one player waiting in a pool for a match (app/services/lobby/seeks.py).

    ``pool`` names what the seeker accepts (players, preset, rated, time control); seeks of one
    pool pair with each other. ``status``: ``open`` (waiting), ``matched`` (``match_id`` set),
    ``cancelled`` or ``expired`` (its holder stopped polling: ``seen_at`` too old). At most one
    open seek per player (a partial unique index). ``rating``: the seeker's displayed rating
    for the preset when rated, else null.
    """

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    pool: Mapped[str] = mapped_column(String(200))
    players: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON)
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="open")
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: The client address it was posted from (None: posted by a release before addresses).
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)

    __table_args__ = (
        Index("ix_seeks_pool_status", "pool", "status"),
        Index(
            "ux_seeks_open_player",
            "player_id",
            unique=True,
            postgresql_where=text("status = 'open'"),
            sqlite_where=text("status = 'open'"),
        ),
    )


players = cast(Table, Player.__table__)
lobbies = cast(Table, Lobby.__table__)
matches = cast(Table, Match.__table__)
match_actions = cast(Table, MatchAction.__table__)
seat_presence = cast(Table, SeatPresence.__table__)
chat_messages = cast(Table, ChatMessage.__table__)
chat_mutes = cast(Table, ChatMute.__table__)
instance_heartbeats = cast(Table, InstanceHeartbeat.__table__)
ended_sessions = cast(Table, EndedSession.__table__)
seeks = cast(Table, Seek.__table__)
