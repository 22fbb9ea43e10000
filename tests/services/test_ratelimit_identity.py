"""Token buckets and signed tokens."""

from __future__ import annotations

import pytest

from app.services.errors import RateLimited, Unauthorized, ValidationFailed
from app.services.identity import Tokens, clean_name
from app.services.ratelimit import RateLimiter


def test_token_bucket_refills() -> None:
    limiter = RateLimiter(rate=2.0, burst=3)
    for _ in range(3):
        limiter.hit("k", now=0.0)
    with pytest.raises(RateLimited):
        limiter.hit("k", now=0.0)
    limiter.hit("other", now=0.0)  # per key
    limiter.hit("k", now=0.5)  # one token back after half a second
    with pytest.raises(RateLimited):
        limiter.hit("k", now=0.5)


def test_tokens_round_trip_and_refuse_forgeries() -> None:
    tokens = Tokens("a-secret-key-for-tests")
    token = tokens.issue("p1")
    assert tokens.verify(token) == "p1"
    for bad in ("", "x", token[:-2] + "zz", Tokens("another-secret-key!!").issue("p1"),
                "a" * 600):
        with pytest.raises(Unauthorized):
            tokens.verify(bad)


def test_names() -> None:
    assert clean_name("  Ann   Lee ") == "Ann Lee"
    for bad in ("", "   ", "a" * 25, "semi;colon", "new\nline"):
        with pytest.raises(ValidationFailed):
            clean_name(bad)
