"""Token revocation across instances: a password change or "sign out everywhere" on one
instance is in force there at once and on another instance once its cached generation is
older than the TTL (Revocations, issue 15's leftover).
"""

from __future__ import annotations

import secrets

import pytest

from app.services import identity
from app.services.community import accounts
from app.services.errors import Unauthorized
from app.services.runtime import Runtime
from app.settings import ROOT
from tests.support.app import make_settings
from tests.support.services import run_async

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(f"{request.param}_url"))


def test_a_revocation_reaches_another_instance_within_the_ttl(db_url: str) -> None:
    async def go() -> None:
        one = Runtime(make_settings(db_url, None, "test-revoke", ROOT / "frontend"))
        two = Runtime(make_settings(db_url, None, "test-revoke", ROOT / "frontend"))
        now = [0.0]
        two.revocations = identity.Revocations(
            two.storage.db, two.tokens, ttl=5.0, clock=lambda: now[0]
        )
        try:
            user = f"Rev{id(now) % 100000}"
            account, token = await accounts.register(one, user, "a fine password", None)
            assert await two.revocations.verify(token) == account["id"]  # cached at t=0
            fresh = await accounts.sign_out_everywhere(one, account["id"])
            with pytest.raises(Unauthorized, match="revoked"):
                await one.revocations.verify(token)  # at once where it was made
            now[0] = 4.9
            assert await two.revocations.verify(token) == account["id"]  # still cached
            now[0] = 5.1
            with pytest.raises(Unauthorized, match="revoked"):
                await two.revocations.verify(token)
            assert await two.revocations.verify(fresh) == account["id"]
            # A renewal keeps the generation: the renewed token is as good as the fresh one.
            renewed = two.tokens.issue(*two.tokens.read(fresh))
            assert await two.revocations.verify(renewed) == account["id"]
        finally:
            await one.close()
            await two.close()

    run_async(go)


def test_a_logout_reaches_another_instance_within_the_ttl(db_url: str) -> None:
    """A session ended on one instance: refused there at once, on another once its cache of
    that session is older than the TTL; ended sessions are never trusted again.
    """

    async def go() -> None:
        one = Runtime(make_settings(db_url, None, "test-logout", ROOT / "frontend"))
        two = Runtime(make_settings(db_url, None, "test-logout", ROOT / "frontend"))
        now = [0.0]
        two.revocations = identity.Revocations(
            two.storage.db, two.tokens, ttl=5.0, clock=lambda: now[0]
        )
        try:
            user = f"Out{id(now) % 100000}"
            account, token = await accounts.register(one, user, "a fine password", None)
            other = (await accounts.login(one, user, "a fine password", "127.0.0.1"))[1]
            assert await two.revocations.verify(token) == account["id"]  # cached at t=0
            await one.revocations.end_session(token)
            with pytest.raises(Unauthorized, match="logged out"):
                await one.revocations.verify(token)
            now[0] = 4.9
            assert await two.revocations.verify(token) == account["id"]  # still cached
            now[0] = 5.1
            with pytest.raises(Unauthorized, match="logged out"):
                await two.revocations.verify(token)
            now[0] = 500.0
            with pytest.raises(Unauthorized, match="logged out"):
                await two.revocations.verify(token)
            assert await two.revocations.verify(other) == account["id"]
        finally:
            await one.close()
            await two.close()

    run_async(go)


def test_a_logout_racing_another_ends_the_session_without_an_error(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second of two simultaneous logouts finds the row the first wrote (its own check
    came too early): no error, the session stays ended.
    """

    async def go() -> None:
        rt = Runtime(make_settings(db_url, None, "test-logout-race", ROOT / "frontend"))
        try:
            user = f"Race{secrets.token_hex(3)}"
            _, token = await accounts.register(rt, user, "a fine password", None)
            await rt.revocations.end_session(token)
            other = identity.Revocations(
                rt.storage.db, rt.tokens
            )  # another instance, nothing cached

            async def too_early(conn: object, session: str) -> bool:
                return False

            monkeypatch.setattr(identity.queries, "is_session_ended", too_early)
            await other.end_session(token)  # its insert meets the first one's row: no error
            monkeypatch.undo()
            with pytest.raises(Unauthorized, match="logged out"):
                await identity.Revocations(rt.storage.db, rt.tokens).verify(token)
        finally:
            await rt.close()

    run_async(go)
