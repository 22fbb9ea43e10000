"""Settings: embedded defaults, environment variables, and the placeholder secret refused."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.settings import DEFAULT_SECRET_KEY, Settings


def test_embedded_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("DATABASE_URL", "REDIS_URL", "ENVIRONMENT", "SECRET_KEY"):
        monkeypatch.delenv(key, raising=False)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database_url == "sqlite+aiosqlite:///var/carcassonne.db"
    assert settings.redis_url is None and settings.is_sqlite
    assert settings.environment == "development" and settings.secret_key == DEFAULT_SECRET_KEY


def test_environment_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@h/db")
    monkeypatch.setenv("REDIS_URL", "redis://h:6379/0")
    monkeypatch.setenv("BOT_DELAY", "0.1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert not settings.is_sqlite and settings.redis_url == "redis://h:6379/0"
    assert settings.bot_delay == 0.1


def test_a_renamed_setting_is_still_read_under_its_old_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An instance of this release reads the environment the release before was given."""
    monkeypatch.setenv("PLAGUE_TIMEOUT", "5")
    assert Settings(_env_file=None).decision_timeout == 5.0  # type: ignore[call-arg]
    monkeypatch.setenv("DECISION_TIMEOUT", "7")
    assert Settings(_env_file=None).decision_timeout == 7.0  # type: ignore[call-arg]


@pytest.mark.parametrize("environment", ["production", "test"])
def test_placeholder_secret_is_refused_outside_development(
    monkeypatch: pytest.MonkeyPatch, environment: str
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("ENVIRONMENT", environment)
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("SECRET_KEY", "a-real-secret-of-some-length")
    assert Settings(_env_file=None).environment == environment  # type: ignore[call-arg]


def test_dotenv_is_read(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / ".env").write_text("REDIS_URL=redis://from-dotenv:6379/0\n")
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.chdir(folder)
    assert Settings().redis_url == "redis://from-dotenv:6379/0"


def test_deck_seed_is_for_development_and_tests_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "a-real-secret-of-some-length")
    monkeypatch.setenv("DECK_SEED", "535")
    for environment in ("development", "test"):
        monkeypatch.setenv("ENVIRONMENT", environment)
        assert Settings(_env_file=None).deck_seed == 535  # type: ignore[call-arg]
    monkeypatch.setenv("ENVIRONMENT", "production")
    with pytest.raises(ValidationError, match="DECK_SEED"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.delenv("DECK_SEED")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.deck_seed is None and settings.decision_timeout == 30.0


def test_metrics_stay_off_the_public_port_in_production() -> None:
    def settings(**values: object) -> Settings:
        base: dict[str, object] = {"environment": "production", "secret_key": "s" * 32}
        return Settings(_env_file=None, **(base | values))  # type: ignore[call-arg,arg-type]

    assert not settings().metrics_on_public_port
    assert not settings(metrics_port=9100).metrics_on_public_port
    assert settings(metrics_public=True).metrics_on_public_port
    assert settings(environment="development").metrics_on_public_port
    assert not settings(environment="development", metrics_port=9100).metrics_on_public_port
    assert settings().logs_as_json and not settings(log_json=False).logs_as_json
    assert not settings(environment="development").logs_as_json
