"""Tables of what makes players come back: accounts, match history, ratings, the commitment to
each match's shuffle, and turn alerts (push subscriptions and the shared secrets signing them).

Kept apart from :mod:`app.db.models` (the play path's tables); both share its ``Base`` so
Alembic sees one metadata. ``match_fairness.seed``/``salt`` are secret while the match is live:
only ``commitment`` may leave the server before the end.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class Account(Base):
    """A player identity that can log in: ``username_key`` is the lower-cased, unique name."""

    __tablename__ = "accounts"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    username: Mapped[str] = mapped_column(String(24))
    username_key: Mapped[str] = mapped_column(String(24), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchPlayer(Base):
    """One seat of one match, for history: written when the match starts, completed (score,
    place, ``finished_at``) when it ends. ``player_id`` is null for computer seats; ``left``:
    the server played this (human) seat's turn for it at least once.
    """

    __tablename__ = "match_players"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    preset: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Why a match of a rated table ended unrated (``"not_played"``: a seat's own player made
    #: fewer than a third of its moves); null otherwise. ``rated`` is then false.
    unrated: Mapped[str | None] = mapped_column(String(32), nullable=True)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The record move (1-based) a seat that left first did not play itself; null otherwise.
    left_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: What the seat did (:mod:`app.services.records.statistics`): ``{"points": {feature: points},
    #: "longest_road", "biggest_city"}``, written when the match is settled; null before.
    statistics: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (Index("ix_match_players_player", "player_id", "started_at"),)


class MatchFairness(Base):
    """The shuffle commitment of a match: ``commitment`` = SHA-256 over seed and salt
    (:mod:`app.engine.record.fairness`). ``seed`` (decimal text) and ``salt`` stay on the
    server until the match is finished.
    """

    __tablename__ = "match_fairness"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    scheme: Mapped[str] = mapped_column(String(40))
    commitment: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(40))
    salt: Mapped[str] = mapped_column(String(64))


class Rating(Base):
    """A player's OpenSkill (Plackett–Luce) rating for one rule preset."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_ratings_preset", "preset"),)


class RatingChange(Base):
    """What one rated match did to one seat's rating (shown on the end screen and history)."""

    __tablename__ = "rating_changes"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str] = mapped_column(String(32))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)


accounts = cast(Table, Account.__table__)
match_players = cast(Table, MatchPlayer.__table__)
match_fairness = cast(Table, MatchFairness.__table__)
ratings = cast(Table, Rating.__table__)
rating_changes = cast(Table, RatingChange.__table__)


class PushSubscription(Base):
    """A browser's push subscription for one player (``id``: SHA-256 of the endpoint)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    session: Mapped[str | None] = mapped_column(String(32), nullable=True)
    endpoint: Mapped[str] = mapped_column(Text)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    lang: Mapped[str] = mapped_column(String(8), default="en")
    failures: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ServerSecret(Base):
    """A secret shared by every instance, written once (``name`` → ``value``)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


push_subscriptions = cast(Table, PushSubscription.__table__)
server_secrets = cast(Table, ServerSecret.__table__)
