"""Token buckets and signed tokens."""

from __future__ import annotations

import secrets

import pytest

from app.services.errors import RateLimited, Unauthorized, ValidationFailed
from app.services.identity import Tokens, clean_name
from app.services.ratelimit import FrameBudget, RateLimiter
from tests.support.services import redis_url  # noqa: F401 - a fixture


async def test_limits_count_per_key_in_a_window() -> None:
    limiter = RateLimiter(rate=0.01, burst=3)  # 3 per 300 s
    for _ in range(3):
        await limiter.hit("k")
    with pytest.raises(RateLimited):
        await limiter.hit("k")
    await limiter.hit("other")  # per key


def test_frame_budget_refills_and_tells_a_flood() -> None:
    budget = FrameBudget(rate=2.0, burst=3, now=0.0)
    assert [budget.take(now=0.0) for _ in range(4)] == [True, True, True, False]
    assert budget.take(now=0.5)  # one frame back after half a second
    assert not budget.take(now=0.5)
    assert [budget.forgive() for _ in range(4)] == [True, True, True, False]


def test_tokens_round_trip_and_refuse_forgeries() -> None:
    tokens = Tokens("a-secret-key-for-tests")
    token = tokens.issue("p1")
    assert tokens.verify(token) == "p1"
    for bad in ("", "x", token[:-2] + "zz", Tokens("another-secret-key!!").issue("p1"), "a" * 600):
        with pytest.raises(Unauthorized):
            tokens.verify(bad)


def test_names() -> None:
    assert clean_name("  Ann   Lee ") == "Ann Lee"
    for bad in ("", "   ", "a" * 25, "semi;colon", "new\nline"):
        with pytest.raises(ValidationFailed):
            clean_name(bad)


def test_tokens_expire_and_old_ones_are_renewed() -> None:
    now = [1_000_000.0]
    tokens = Tokens("a-secret-key-for-tests", lifetime=100, renew_after=40, clock=lambda: now[0])
    token = tokens.issue("p1")
    assert tokens.renewal(token) is None  # young: nothing to renew
    now[0] += 50
    fresh = tokens.renewal(token)
    assert fresh is not None and fresh != token and tokens.verify(fresh) == "p1"
    now[0] += 60  # 110 s after the first token was issued
    with pytest.raises(Unauthorized, match="expired"):
        tokens.verify(token)
    assert tokens.verify(fresh) == "p1"  # the renewed one lives on
    # A token of a later generation (after a revocation) is renewed in that generation.
    later = tokens.issue("p1", 3)
    assert tokens.read(later) == ("p1", 3)
    now[0] += 50
    renewed = tokens.renewal(later)
    assert renewed is not None and tokens.read(renewed) == ("p1", 3)


@pytest.mark.redis
async def test_a_batched_shared_limit_is_exact_here_and_close_across_instances(
    redis_url: str,  # noqa: F811 - the fixture imported above
) -> None:
    """``share_every``: the action limit tells Redis five hits at a time — exact on one
    instance, and two instances together get at most 4 hits each over the shared limit.
    """
    prefix = f"t-{secrets.token_hex(4)}"
    one = RateLimiter(0.01, 10, redis_url=redis_url, prefix=prefix, share_every=5)
    allowed = 0
    for _ in range(12):
        try:
            await one.hit("ann")
            allowed += 1
        except RateLimited:
            pass
    assert allowed == 10  # the memory count here is exact
    a = RateLimiter(0.01, 10, redis_url=redis_url, prefix=prefix, share_every=5)
    b = RateLimiter(0.01, 10, redis_url=redis_url, prefix=prefix, share_every=5)
    allowed = 0
    for i in range(40):
        try:
            await (a if i % 2 else b).hit("ben")
            allowed += 1
        except RateLimited:
            pass
    assert 10 <= allowed <= 10 + 2 * 4
    for limiter in (one, a, b):
        await limiter.aclose()


@pytest.mark.redis
async def test_closing_a_shared_limit_closes_its_redis_connections(
    redis_url: str,  # noqa: F811 - the fixture imported above
) -> None:
    """``aclose`` hands back the connections ``limits`` opened (none left open at shutdown),
    and the limit still answers from this instance's count afterwards.
    """
    limiter = RateLimiter(0.01, 3, redis_url=redis_url, prefix=f"t-{secrets.token_hex(4)}")
    await limiter.hit("ann")
    client = limiter._shared.storage.bridge.storage  # type: ignore[union-attr]
    opened = [*client.connection_pool._available_connections]
    assert opened and all(c.is_connected for c in opened)
    await limiter.aclose()
    assert not any(c.is_connected for c in opened)
    for _ in range(3):  # counted in this instance's memory from now on
        await limiter.hit("ann")
    with pytest.raises(RateLimited):
        await limiter.hit("ann")
