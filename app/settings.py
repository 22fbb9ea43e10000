"""Service settings, read once from the environment and ``.env`` (pydantic-settings).

Every knob of the online service lives here; nothing else reads ``os.environ``. The embedded
defaults need no external service: a SQLite file under ``var/`` and an in-process broker.
Outside ``ENVIRONMENT=development`` the placeholder ``SECRET_KEY`` is refused; ``DECK_SEED``
(a fixed deck for tests) is refused in production.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from limits import parse
from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: The repository root when the app runs from a checkout (editable install, Docker image).
ROOT = Path(__file__).resolve().parent.parent

#: The placeholder secret: fine on a developer's machine, refused anywhere else.
DEFAULT_SECRET_KEY = "dev-only-change-me"


#: Match JSON keys renamed in this release → the name the previous release's client reads; the
#: Match JSON carries both until the next release (expand/contract across a rolling upgrade).
RENAMED_MATCH_KEYS = {"decision_timeout": "plague_timeout"}


class Settings(BaseSettings):
    """The service's configuration; field names are the environment variables (any case).

    Raises ``pydantic.ValidationError`` on bad values, and when ``environment`` is not
    ``development`` while ``secret_key`` is still the placeholder.
    """

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    environment: Literal["development", "test", "production"] = "development"
    secret_key: str = DEFAULT_SECRET_KEY
    database_url: str = "sqlite+aiosqlite:///var/carcassonne.db"
    redis_url: str | None = None
    #: Prefix of every broker channel (lets several deployments or test runs share one Redis).
    channel_prefix: str = "carcassonne"
    db_pool_size: int = Field(default=30, ge=1)
    db_max_overflow: int = Field(default=10, ge=0)
    frontend_dir: Path = ROOT / "frontend"
    migrations_dir: Path = ROOT / "migrations"
    #: Actions per second per token (token bucket refill) and the bucket size.
    action_rate: float = Field(default=20.0, gt=0)
    action_burst: int = Field(default=40, ge=1)
    #: Lobbies created per minute per token, and the bucket size.
    lobby_rate_per_minute: float = Field(default=10.0, gt=0)
    lobby_burst: int = Field(default=5, ge=1)
    #: Open tables one player hosts at once (an ownership budget; a table unchanged for a day
    #: is neither listed nor counted: app/services/lobby/lobby.py ``IDLE``).
    lobbies_per_host: int = Field(default=3, ge=1)
    #: Guests created per minute per client address, and the bucket size.
    player_rate_per_minute: float = Field(default=60.0, gt=0)
    player_burst: int = Field(default=30, ge=1)
    #: "Play now" seeks made per minute per token, and the bucket size.
    seek_rate_per_minute: float = Field(default=20.0, gt=0)
    seek_burst: int = Field(default=10, ge=1)
    #: Polls of one's seek per second per token, and how many at once (a page polls once a second).
    seek_poll_rate: float = Field(default=5.0, gt=0)
    seek_poll_burst: int = Field(default=20, ge=1)
    #: Seconds a seek stays in its pool without its holder polling it (then it expires).
    seek_ttl: float = Field(default=15.0, gt=0)
    #: A rated seek's rating range: ± ``seek_range`` at first, widened by ``seek_range_widen``
    #: points per second of waiting, any rating after ``seek_range_any_after`` seconds.
    seek_range: int = Field(default=100, ge=0)
    seek_range_widen: float = Field(default=10.0, ge=0)
    seek_range_any_after: float = Field(default=60.0, gt=0)
    #: Rated seeks posted from one client address may pair with each other (a club's room
    #: behind one address; tests): off by default, one person with two accounts would rate
    #: themself.
    seek_rated_same_address: bool = False
    #: Frames per second one websocket may send (every type: action, sync, ping), and how many
    #: at once. Over it: a ``rate_limited`` error frame; far over it: the socket closes (1013).
    ws_frame_rate: float = Field(default=20.0, gt=0)
    ws_frame_burst: int = Field(default=40, ge=1)
    #: Open websockets per player (token) and per client address, on each instance.
    ws_sockets_per_token: int = Field(default=8, ge=1)
    ws_sockets_per_address: int = Field(default=64, ge=1)
    #: Largest request body the app reads, in bytes (larger ones get 413 before being read).
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    #: Seconds a client has to send a request's headers once its connection is open (slowloris).
    header_timeout: float = Field(default=10.0, gt=0)
    #: Seconds a SIGTERM'd instance has to drain (refuse new work, finish the actions in
    #: flight, publish what it committed, close its sockets with 1012) and exit; past it the
    #: process exits anyway (app/services/drain.py).
    drain_timeout: float = Field(default=10.0, gt=0)
    #: Addresses (comma-separated IPs or networks, ``*`` for any) whose ``X-Forwarded-For`` /
    #: ``X-Forwarded-Proto`` headers are believed: the reverse proxy's. From anyone else the
    #: headers are ignored and the connection's own address counts.
    forwarded_allow_ips: str = "127.0.0.1"
    #: Seconds a player token stays valid after it was issued. Active clients get a fresh one
    #: (the ``X-Renewed-Token`` header) once theirs is older than ``token_renew_after``.
    token_lifetime: int = Field(default=30 * 24 * 3600, ge=60)
    token_renew_after: int = Field(default=24 * 3600, ge=0)
    #: Snapshot the engine state into the match row every this many actions (and at the end).
    snapshot_every: int = Field(default=25, ge=1)
    #: Seconds a bot waits before it moves (so people can follow the game).
    bot_delay: float = Field(default=0.6, ge=0)
    #: Seconds a human seat may sit on its turn while disconnected before a bot plays for it.
    abandon_after: float = Field(default=90.0, gt=0)
    #: Seconds after a seated player's last socket closed before the others vote on what to do
    #: (the "Ben left — the computer takes over in 0:45" countdown).
    leave_grace: float = Field(default=45.0, gt=0)
    #: Seconds the remaining players have to vote once a leaver's grace ran out (then: the
    #: computer takes the seat).
    leave_vote: float = Field(default=30.0, gt=0)
    #: Seconds between two heartbeats of an instance into ``instance_heartbeats``; a gap longer
    #: than two of them with no instance beating is credited to running clocks.
    instance_heartbeat: float = Field(default=2.0, gt=0)
    #: Seconds a human seat has for an expansion's off-turn decision (the Wheel of Fortune's
    #: Plague), connected or not, before the computer chooses for it (the same database-driven
    #: sweep as bot turns). ``PLAGUE_TIMEOUT``, its name before, is still read.
    decision_timeout: float = Field(
        default=30.0, gt=0, validation_alias=AliasChoices("decision_timeout", "plague_timeout")
    )
    #: Analyse every rated match when it ends (the Strong computer player, in the worker pool).
    analyse_rated: bool = True
    #: Seconds between two sweeps of the database for due bot turns (any instance may take one).
    bot_poll_interval: float = Field(default=1.0, gt=0)
    #: Worker processes that run bot searches (None: cores − 1, at least 1); never the loop.
    bot_workers: int | None = Field(default=None, ge=1)
    #: Seconds a Strong bot searches per decision (Easy and Normal answer at once).
    bot_think: float = Field(default=1.0, ge=0, le=30)
    #: Limits in ``limits`` notation ("N/minute", "N/hour"), counted before the check
    #: (app/services/limits/accounts.py): accounts registered per client address; password
    #: attempts (login, change, delete) per username and address, and per address.
    registrations_per_address: str = "5/hour"
    password_attempts: str = "10/minute"
    password_attempts_per_address: str = "30/minute"
    #: Record replays and shuffle checks (POST /api/replay, /api/verify) per client address.
    record_checks_per_address: str = "20/minute"
    #: The data export (GET /api/export/…): requests in ``limits`` notation per player (an
    #: account or a guest, whatever token it sends: session or API tokens share one count), and
    #: per client address for guests (every guest of one address together); the most records
    #: one request streams (``max`` above it is cut to it). ``EXPORT_REQUESTS_PER_TOKEN``, the
    #: name before, is still read.
    export_requests_per_player: str = Field(
        default="30/minute",
        validation_alias=AliasChoices("export_requests_per_player", "export_requests_per_token"),
    )
    export_requests_per_address: str = "30/minute"
    export_max_records: int = Field(default=10_000, ge=1)
    #: A bot account's event stream (GET /api/bot/stream): seconds between its database reads,
    #: and open streams per bot account on one instance.
    bot_stream_poll: float = Field(default=0.5, gt=0)
    bot_streams_per_account: int = Field(default=2, ge=1)
    #: Threads that hash and check passwords (Argon2id), never the loop; calls waiting for
    #: them past ``HASH_QUEUE`` are refused (429, "server busy"), and past
    #: ``HASH_QUEUE_PER_ADDRESS`` from one address (429, ``busy_for_you``); the threads take
    #: the addresses in turn (app/services/offload.py).
    hash_threads: int = Field(default=1, ge=1)
    hash_queue: int = Field(default=64, ge=1)
    hash_queue_per_address: int = Field(default=32, ge=1)
    #: Rated play counts only between accounts this old (seconds), with this many finished
    #: matches against this many distinct opponents; one opponent gives an account at most
    #: ``RATED_GAIN_PER_OPPONENT`` rating points a week (docs/RATINGS.md, "No farming").
    rated_min_account_age: float = Field(default=24 * 3600.0, ge=0)
    rated_min_games: int = Field(default=3, ge=0)
    rated_min_opponents: int = Field(default=2, ge=0)
    rated_gain_per_opponent: int = Field(default=200, ge=1)
    #: Live matches with computer players started per client address / per instance.
    bot_matches_per_address: int = Field(default=5, ge=1)
    bot_matches_per_instance: int = Field(default=200, ge=1)
    #: Engine states kept in memory per instance (least recently used are dropped).
    state_cache_size: int = Field(default=5000, ge=1)
    #: A reconnecting client further behind than this gets a snapshot instead of the batches.
    max_catch_up: int = Field(default=200, ge=1)
    #: Web Push (turn alerts to a closed tab; app/services/push.py): the VAPID private key
    #: (PEM; empty: generated once and shared through the database), the contact the push
    #: services see, and the push-service hosts an endpoint may be on (a suffix match; https).
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:admin@localhost"
    push_endpoint_hosts: str = (
        "fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,notify.windows.com"
    )
    #: Tests only: accept ``http`` endpoints (a push service of the test's own on 127.0.0.1).
    push_allow_http: bool = False
    #: Devices (push subscriptions) per player: subscribing one more replaces the oldest.
    push_subscriptions_per_player: int = Field(default=10, ge=1)
    #: Test alerts (POST /api/push/test) per player, in ``limits`` notation.
    push_tests_per_player: str = "10/hour"
    log_level: str = "info"
    #: Log lines as JSON objects (time, level, logger, message, instance, request id, match
    #: id, player id), the access log too; None: JSON in production, text elsewhere.
    log_json: bool | None = None
    #: A port of its own for ``GET /metrics`` (on ``METRICS_HOST``); unset: ``/metrics`` on
    #: the public port, except in production where it is then not served at all.
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    metrics_host: str = "0.0.0.0"
    #: Serve ``/metrics`` on the public port anyway (None: outside production, without a
    #: ``METRICS_PORT``).
    metrics_public: bool | None = None
    #: A read replica of ``DATABASE_URL`` (same driver): history, replays, exports and
    #: statistics are read there (docs/OPERATIONS.md); unset: everything on the primary.
    database_replica_url: str | None = None
    #: The allocator ``carcassonne serve`` runs on (app/allocator.py): ``auto`` re-executes the
    #: server under jemalloc when ``libjemalloc.so.2`` is installed (the memory of closed
    #: sockets goes back to the system), ``jemalloc`` requires it, ``pymalloc`` never changes.
    memory_allocator: Literal["auto", "jemalloc", "pymalloc"] = "auto"
    #: Tests only: every new match shuffles its deck with this seed (``DECK_SEED``), so a test
    #: knows the tiles to come. Refused unless ``environment`` is development or test. The seed
    #: stays on the server like any other (never in a view, frame, or record).
    deck_seed: int | None = None

    @field_validator(
        "registrations_per_address",
        "password_attempts",
        "password_attempts_per_address",
        "record_checks_per_address",
        "export_requests_per_player",
        "export_requests_per_address",
        "push_tests_per_player",
    )
    @classmethod
    def _limits_notation(cls, value: str) -> str:
        try:
            parse(value)
        except ValueError:
            raise ValueError(f"{value!r}: a limit like '10/minute' or '5/hour'") from None
        return value

    @model_validator(mode="after")
    def _refuse_placeholder_secret(self) -> Settings:
        if self.environment != "development" and self.secret_key == DEFAULT_SECRET_KEY:
            raise ValueError(
                "SECRET_KEY is the development placeholder: set a real secret "
                "(or ENVIRONMENT=development on a developer machine)"
            )
        if len(self.secret_key) < 16:
            raise ValueError("SECRET_KEY must be at least 16 characters")
        if self.deck_seed is not None and self.environment not in ("development", "test"):
            raise ValueError(
                "DECK_SEED fixes every match's deck: it is for tests only and is refused when "
                f"ENVIRONMENT={self.environment}"
            )
        return self

    @property
    def metrics_on_public_port(self) -> bool:
        """True when the public app answers ``GET /metrics`` (see ``metrics_port``)."""
        if self.metrics_public is not None:
            return self.metrics_public
        return self.metrics_port is None and self.environment != "production"

    @property
    def logs_as_json(self) -> bool:
        """True when log lines are JSON objects (``LOG_JSON``, default: in production)."""
        return self.log_json if self.log_json is not None else self.environment == "production"

    @property
    def is_sqlite(self) -> bool:
        """True when the database is a SQLite file (the embedded default)."""
        return self.database_url.startswith("sqlite")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (read once; tests build their own :class:`Settings`)."""
    return Settings()
