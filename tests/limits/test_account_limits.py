"""Nothing for free (docs/API.md § Limits): every attempt is counted before it is checked, so a
burst at once gets exactly the limit's count through; password checks on every route are
limited like logins; one address guessing locks nobody else out; registrations and record
checks are limited per address; limited answers say when to retry.

Bursts are sent at once from the app's own event loop (``httpx`` over ASGI), from any client
address the test chooses.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.services.limits import accounts as account_limits
from tests.support.app import make_settings

pytestmark = pytest.mark.timeout(180)
PASSWORD = "correct horse battery"


@pytest.fixture
def limited(
    backend: tuple[str, str | None], frontend: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    """The app with the production limits (its own prefix: counts start at zero)."""
    monkeypatch.setattr(account_limits, "SLOW_DELAY", 0.5)
    settings = make_settings(
        backend[0],
        backend[1],
        f"limits-{secrets.token_hex(4)}",
        frontend,
        registrations_per_address="5/hour",
        password_attempts="10/minute",
        password_attempts_per_address="30/minute",
        record_checks_per_address="20/minute",
    )
    with TestClient(create_app(settings)) as client:
        yield client


def burst(
    client: TestClient, requests: list[tuple[str, str, str, dict[str, Any] | None, str | None]]
) -> list[httpx.Response]:
    """Send ``(address, method, path, json, token)`` requests all at once; their answers."""

    async def run() -> list[httpx.Response]:
        clients: dict[str, httpx.AsyncClient] = {}
        try:
            for address, *_ in requests:
                if address not in clients:
                    transport = httpx.ASGITransport(app=client.app, client=(address, 4000))
                    clients[address] = httpx.AsyncClient(
                        transport=transport, base_url="http://testserver"
                    )
            return list(
                await asyncio.gather(
                    *(
                        clients[address].request(
                            method,
                            path,
                            json=body,
                            headers={"Authorization": f"Bearer {token}"} if token else {},
                        )
                        for address, method, path, body, token in requests
                    )
                )
            )
        finally:
            for c in clients.values():
                await c.aclose()

    return client.portal.call(run)  # type: ignore[union-attr]


def _account(client: TestClient, address: str = "10.0.0.1") -> tuple[str, str]:
    """A new account registered from ``address``: ``(username, token)``."""
    user = f"u{secrets.token_hex(4)}"
    body = {"username": user, "password": PASSWORD}
    (r,) = burst(client, [(address, "POST", "/api/accounts", body, None)])
    assert r.status_code == 201, r.text
    return user, r.json()["token"]


def _login(address: str, user: str, password: str) -> tuple[str, str, str, dict[str, Any], None]:
    return (address, "POST", "/api/accounts/login", {"username": user, "password": password}, None)


def test_a_burst_of_wrong_passwords_gets_exactly_the_limits_count_of_tries(
    limited: TestClient,
) -> None:
    """40 wrong passwords at once for one username from one address: 10 are checked (401),
    30 refused (429) with a time to retry; before, the limit was checked before it counted
    and 33 of 40 (39 on SQLite) were tried.
    """
    user, _ = _account(limited)
    answers = burst(limited, [_login("10.0.0.2", user, "wrong-guess") for _ in range(40)])
    codes = Counter(r.status_code for r in answers)
    assert codes == {401: 10, 429: 30}
    refused = next(r for r in answers if r.status_code == 429)
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused.json()["error"]["retry_after"] == int(refused.headers["Retry-After"])


def test_one_address_guessing_locks_the_owner_out_of_nothing(limited: TestClient) -> None:
    """The guesser's address is stopped after 10 tries; the owner, elsewhere, logs in at once."""
    user, _ = _account(limited)
    answers = burst(limited, [_login("10.0.0.66", user, "wrong-guess") for _ in range(12)])
    assert Counter(r.status_code for r in answers) == {401: 10, 429: 2}
    (mine,) = burst(limited, [_login("10.0.0.7", user, PASSWORD)])
    assert mine.status_code == 200, mine.text


def test_guesses_from_many_addresses_slow_the_username_down_but_never_lock_it(
    limited: TestClient,
) -> None:
    """Past 20 failures for one username from everywhere, attempts on it wait before their
    answer (SLOW_DELAY, shortened here); the right password still gets in.
    """
    user, _ = _account(limited)
    guesses = [_login(f"10.1.0.{i}", user, "wrong-guess") for i in range(21) for _ in range(1)]
    assert {r.status_code for r in burst(limited, guesses)} == {401}
    started = time.monotonic()
    (mine,) = burst(limited, [_login("10.0.0.8", user, PASSWORD)])
    assert mine.status_code == 200
    assert time.monotonic() - started >= account_limits.SLOW_DELAY


def test_one_address_trying_many_usernames_is_stopped(limited: TestClient) -> None:
    tries = [_login("10.0.0.9", f"nobody{i}", "wrong-guess") for i in range(31)]
    assert Counter(r.status_code for r in burst(limited, tries)) == {401: 30, 429: 1}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/accounts/delete", {"password": "wrong-guess"}),
        ("/api/accounts/password", {"password": "wrong-guess", "new_password": "a new passphrase"}),
    ],
)
def test_password_checks_on_every_route_are_limited_like_logins(
    limited: TestClient, path: str, body: dict[str, Any]
) -> None:
    """Before, a token holder could guess through delete / change password without limit
    (50 × 401, no 429). Now they count with the logins of the same username and address.
    """
    user, token = _account(limited)
    answers = burst(limited, [("10.0.0.10", "POST", path, body, token) for _ in range(15)])
    assert Counter(r.status_code for r in answers) == {401: 10, 429: 5}
    (login,) = burst(limited, [_login("10.0.0.10", user, PASSWORD)])
    assert login.status_code == 429  # the same (username, address) budget
    (elsewhere,) = burst(limited, [_login("10.0.0.11", user, PASSWORD)])
    assert elsewhere.status_code == 200


def test_registrations_are_limited_per_address(limited: TestClient) -> None:
    """Before, 40 of 40 registrations at once were accepted (and froze the instance)."""
    bodies = [{"username": f"r{secrets.token_hex(4)}", "password": PASSWORD} for _ in range(8)]
    answers = burst(limited, [("10.0.0.12", "POST", "/api/accounts", b, None) for b in bodies])
    assert Counter(r.status_code for r in answers) == {201: 5, 429: 3}
    refused = next(r for r in answers if r.status_code == 429)
    assert int(refused.headers["Retry-After"]) > 60  # a window of an hour
    (other,) = burst(
        limited,
        [
            (
                "10.0.0.13",
                "POST",
                "/api/accounts",
                {"username": f"r{secrets.token_hex(4)}", "password": PASSWORD},
                None,
            )
        ],
    )
    assert other.status_code == 201


def test_record_checks_are_limited_per_address(limited: TestClient) -> None:
    """``/api/replay`` and ``/api/verify`` share one budget per address (20 a minute)."""
    record = {"format": "carcassonne-record/1"}  # invalid: replayed (in a worker), refused
    calls = [("10.0.0.14", "POST", path, record, None) for path in ["/api/replay"] * 11]
    calls += [("10.0.0.14", "POST", path, record, None) for path in ["/api/verify"] * 11]
    answers = burst(limited, calls)
    codes = Counter(r.status_code for r in answers)
    assert codes[429] == 2 and codes[422] + codes[200] == 20
    for r in answers:
        if r.status_code == 422:  # the replay names what is wrong
            assert r.json()["error"]["code"] == "invalid_record"
        elif r.status_code == 200:  # the shuffle check's verdict
            assert r.json()["ok"] is False


@pytest.mark.redis
def test_400_guesses_at_once_on_two_instances_get_the_limits_count(
    redis_url: str, channel_prefix: str
) -> None:
    """Before, a burst ran the counts' Redis pool out ("Too many connections") and each
    instance counted in its own memory: 30 tries of 10 (one address, one username).
    """

    async def run() -> int:
        prefix = f"{channel_prefix}-burst-{secrets.token_hex(3)}"
        both = [account_limits.AccountLimits(redis_url, prefix) for _ in range(2)]

        async def guess(i: int) -> int:
            try:
                await both[i % 2].password_attempt("victim", "10.0.0.66")
            except account_limits.RateLimited:
                return 0
            return 1

        try:
            return sum(await asyncio.gather(*(guess(i) for i in range(400))))
        finally:
            for limits in both:
                await limits.aclose()

    assert asyncio.run(run()) == 10


def test_password_attempts_are_refused_while_the_shared_counts_do_not_answer() -> None:
    """Counting in memory would give every instance its own window of guesses."""

    async def run() -> tuple[account_limits.RateLimited, None]:
        limits = account_limits.AccountLimits("redis://127.0.0.1:9/0", "down")
        try:
            with pytest.raises(account_limits.RateLimited) as refused:
                await limits.password_attempt("victim", "10.0.0.67")
            return refused.value, await limits.registration("10.0.0.67")  # memory counts
        finally:
            await limits.aclose()

    refused, _ = asyncio.run(run())
    assert refused.reason == "limits_unavailable" and refused.retry_after == 1
