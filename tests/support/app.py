"""The app on both backends: SQLite + memory broker, and Postgres + Redis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.settings import Settings
from tests.support.client import Api

SECRET = "test-secret-key-0123456789"


def make_settings(
    database_url: str, redis: str | None, prefix: str, frontend: Path, **overrides: object
) -> Settings:
    """Test settings: fast bots, generous rate limits, no .env."""
    values: dict[str, object] = {
        "environment": "test",
        "secret_key": SECRET,
        "database_url": database_url,
        "redis_url": redis,
        "channel_prefix": prefix,
        "bot_delay": 0.0,
        "bot_poll_interval": 0.05,
        "action_rate": 1000.0,
        "action_burst": 1000,
        "lobby_rate_per_minute": 6000.0,
        "lobby_burst": 1000,
        "lobbies_per_host": 1000,
        "seek_rated_same_address": True,  # every test client is one address
        "player_burst": 10000,
        "player_rate_per_minute": 60000.0,
        "registrations_per_address": "100000/minute",
        "password_attempts_per_address": "100000/minute",
        "record_checks_per_address": "100000/minute",
        # Guests of every test share 127.0.0.1 (tests/platform/test_export.py sets its own).
        "export_requests_per_address": "100000/minute",
        "bot_matches_per_address": 100000,
        # Rated tests play fresh accounts (tests/records/test_rating_guards.py keeps these).
        "rated_min_account_age": 0.0,
        "rated_min_games": 0,
        "rated_min_opponents": 0,
        "rated_gain_per_opponent": 1_000_000,
        "frontend_dir": frontend,
        "analyse_rated": False,  # tests that want it ask (tests/match/test_analysis.py)
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.redis]),
    ]
)
def backend(request: pytest.FixtureRequest) -> tuple[str, str | None]:
    """``(database_url, redis_url)`` of one backend."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url"), None
    return request.getfixturevalue("postgres_url"), request.getfixturevalue("redis_url")


@pytest.fixture
def frontend(tmp_path: Path) -> Path:
    """A stand-in static frontend folder."""
    folder = tmp_path / "frontend"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>Carcassonne</title>")
    (folder / "app.js").write_text("export const hello = 1;\n")
    return folder


@pytest.fixture
def settings(backend: tuple[str, str | None], channel_prefix: str, frontend: Path) -> Settings:
    """Settings for the backend under test."""
    return make_settings(backend[0], backend[1], channel_prefix, frontend)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The app, started (lifespan) and stopped around the test."""
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.fixture
def api(client: TestClient) -> Api:
    """REST helpers."""
    return Api(client)
