"""Token buckets and signed tokens."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from app.services.errors import RateLimited, Unauthorized, ValidationFailed
from app.services.identity import Tokens, clean_name
from app.services.limits.rates import RETRY_MARGIN, FrameBudget, RateLimiter, sliding_retry_after
from tests.support.services import redis_url  # noqa: F401 - a fixture


async def test_limits_count_per_key_in_a_window() -> None:
    limiter = RateLimiter(rate=0.01, burst=3)  # 3 per 300 s
    for _ in range(3):
        await limiter.hit("k")
    with pytest.raises(RateLimited):
        await limiter.hit("k")
    await limiter.hit("other")  # per key


async def test_a_refusal_says_when_one_more_hit_is_allowed() -> None:
    limiter = RateLimiter(rate=2.0, burst=2)  # 2 per 1 s window
    refused = None
    for _ in range(5):  # two hits, or three when they fall in two windows
        try:
            await limiter.hit("k")
        except RateLimited as exc:
            refused = exc
            break
    assert refused is not None and refused.retry_after is not None
    assert 0 < refused.retry_after <= 1 + RETRY_MARGIN
    assert await limiter.retry_after("other") == 0.0  # per key
    await asyncio.sleep(refused.retry_after)
    await limiter.hit("k")  # the wait it named was enough


def test_sliding_window_wait() -> None:
    """The ``limits`` sliding window allows a hit while ``floor(previous * left / expiry +
    current) + 1 <= limit`` (``left``: seconds until this window ends).
    """
    m = RETRY_MARGIN
    assert sliding_retry_after(3, 300, previous=0, current=2, window_left=100) == 0.0
    # 3 in the last window weigh 3 * 100 / 300 = 1, with the current 2 that is 3: allowed as
    # soon as that weight falls below 1, just after now.
    assert sliding_retry_after(3, 300, previous=3, current=2, window_left=100) == pytest.approx(m)
    # 6 in the last window: 6 * left / 300 + 1 < 3 once left < 100, 50 s from now.
    assert sliding_retry_after(3, 300, previous=6, current=1, window_left=150) == pytest.approx(
        50 + m
    )
    # The limit reached in this window alone: past its end, then until 3 * (300 - t) / 300 < 3.
    assert sliding_retry_after(3, 300, previous=0, current=3, window_left=40) == pytest.approx(
        40 + m
    )
    assert sliding_retry_after(3, 300, previous=0, current=6, window_left=40) == pytest.approx(
        40 + 150 + m
    )


def test_frame_budget_says_when_the_next_frame_is_taken() -> None:
    budget = FrameBudget(rate=2.0, burst=3, now=0.0)
    assert budget.retry_after(now=0.0) == 0.0
    for _ in range(3):
        budget.take(now=0.0)
    assert budget.retry_after(now=0.0) == pytest.approx(0.5 + RETRY_MARGIN)
    assert budget.retry_after(now=0.25) == pytest.approx(0.25 + RETRY_MARGIN)
    assert budget.retry_after(now=0.5) == 0.0
    assert budget.take(now=0.5)


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
    with pytest.raises(RateLimited) as refused:
        await one.hit("ann")
    # 10 per 1000 s: this instance's bucket gives one back every 100 s.
    assert refused.value.retry_after is not None and 0 < refused.value.retry_after <= 100.1
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


async def test_hits_taken_while_redis_was_out_are_not_charged_to_it_afterwards() -> None:
    """While Redis does not answer, this instance's bucket alone decides; once it answers
    again, the hits of the outage are not sent to Redis in one go (the soak saw a player at
    6 actions/s refused right after a Redis restart: the outage's count charged at once).
    """
    limiter = RateLimiter(20.0, 40, "actions", share_every=5)

    class Shared:
        """A shared count that is down first, then records what it is charged."""

        down = True
        costs: list[int] = []

        async def hit(self, item: object, what: str, key: str, cost: int = 1) -> bool:
            if self.down:
                raise ConnectionError("redis down")
            self.costs.append(cost)
            return cost <= 40

    shared = Shared()
    limiter._shared = shared  # type: ignore[assignment]
    for _ in range(5):  # the fifth goes to Redis, which fails: local memory for a while
        await limiter.hit("ann")
    for _ in range(25):  # during the outage (the bucket allows them)
        await limiter.hit("ann")
    shared.down = False
    limiter._redis_down_until = 0.0  # the outage is over
    for _ in range(5):
        await limiter.hit("ann")
    assert shared.costs and max(shared.costs) <= 5
