"""Ratings that can't be farmed (docs/RATINGS.md, "No farming"): a rated match of an account
that is not established (too young, too few finished matches or opponents) ends unrated with
``new_account``, and one opponent gives an account at most ``RATED_GAIN_PER_OPPONENT`` points a
week. Before, three scripted rated wins against fresh socks took an account from 1000 to 1360.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from tests.records.test_history_ratings import _account, _finish_with
from tests.support.app import make_settings
from tests.support.client import Api
from tests.support.services import MIGRATIONS, upgrade

pytestmark = pytest.mark.timeout(120)


def _app(tmp_path: Path, frontend: Path, **guards: Any) -> TestClient:
    url = f"sqlite+aiosqlite:///{tmp_path / 'guards.db'}"
    upgrade(url, MIGRATIONS)
    settings = make_settings(url, None, f"guards-{secrets.token_hex(4)}", frontend, **guards)
    return TestClient(create_app(settings))


def _rated(api: Api, a: dict[str, str], b: dict[str, str]) -> str:
    lobby = api.lobby(a, seats=2, rated=True)
    api.post(f"/api/lobbies/{lobby['code']}/join", b)
    return str(api.post(f"/api/lobbies/{lobby['code']}/start", a)["match_id"])


def _casual(api: Api, a: dict[str, str], b: dict[str, str]) -> str:
    lobby = api.lobby(a, seats=2)
    api.post(f"/api/lobbies/{lobby['code']}/join", b)
    return str(api.post(f"/api/lobbies/{lobby['code']}/start", a)["match_id"])


def _rating(api: Api, pid: str) -> int | None:
    got = api.get(f"/api/players/{pid}/profile")["ratings"].get("standard")
    return None if got is None else int(got["rating"])


@pytest.fixture
def young(tmp_path: Path, frontend: Path) -> Iterator[TestClient]:
    """The production minimum age (a day): every account of the test is younger."""
    with _app(tmp_path, frontend, rated_min_account_age=24 * 3600.0) as client:
        yield client


def test_fresh_accounts_make_a_rated_match_unrated(young: TestClient) -> None:
    api = Api(young)
    (farmer, f), (_, sock) = _account(young, "Farm"), _account(young, "Sock")
    match_id = _rated(api, f, sock)
    _finish_with(young, match_id, [30, 2])
    assert _rating(api, farmer) is None
    entry = api.get(f"/api/players/{farmer}/profile")["recent"][0]
    assert entry["id"] == match_id and entry["unrated"] == "new_account"


@pytest.fixture
def inexperienced(tmp_path: Path, frontend: Path) -> Iterator[TestClient]:
    """Accounts need one finished match against one opponent first."""
    with _app(tmp_path, frontend, rated_min_games=1, rated_min_opponents=1) as client:
        yield client


def test_an_account_counts_once_it_has_played(inexperienced: TestClient) -> None:
    api = Api(inexperienced)
    (ann, a), (ben, b) = _account(inexperienced, "Ann"), _account(inexperienced, "Ben")
    first = _rated(api, a, b)
    _finish_with(inexperienced, first, [20, 10])
    assert _rating(api, ann) is None  # neither had finished a match before this one
    _finish_with(inexperienced, _casual(api, a, b), [5, 6])
    third = _rated(api, a, b)
    _finish_with(inexperienced, third, [20, 10])
    assert _rating(api, ann) is not None and _rating(api, ben) is not None


@pytest.fixture
def capped(tmp_path: Path, frontend: Path) -> Iterator[TestClient]:
    """One opponent gives at most 150 points a week."""
    with _app(tmp_path, frontend, rated_gain_per_opponent=150) as client:
        yield client


def test_one_opponent_gives_a_bounded_gain(capped: TestClient) -> None:
    api = Api(capped)
    (farmer, f), (sock, s) = _account(capped, "Farm"), _account(capped, "Sock")
    seen = []
    for _ in range(3):
        _finish_with(capped, _rated(api, f, s), [30, 2])
        seen.append(_rating(api, farmer))
    assert seen[0] is not None and seen[0] > 1000
    assert seen[-1] == 1000 + 150  # uncut, three wins would be about +300
    assert seen[1] == seen[2]  # the bound was reached: nothing more from this opponent
    loser = _rating(api, sock)
    assert loser is not None and loser < 1000  # losses are never cut
    # Another opponent still counts.
    _, other = _account(capped, "Other")
    _finish_with(capped, _rated(api, f, other), [30, 2])
    after = _rating(api, farmer)
    assert after is not None and after > seen[-1]
