"""The bot event stream outlives no credential, on both backends (docs/BOT_API.md § The event
stream): it starts with a keep-alive line (the response's headers leave at once) and keeps
alive every 2 s; it ends — delivering nothing more — when its API token is revoked here (at
once), revoked on another instance (before its next event: the invitation made right after the
revocation never reaches it), or its account is deleted (within the sockets sweep). Before, a
revoked token's stream stayed open and delivered the next invitation, private lobby code and
all.

On real processes (headers, keep-alive, two instances): test_bot_stream_processes.py.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from app.db.community import accounts
from app.db.models import utcnow
from app.services import queries
from app.services.community.socket_revocation import sweep_once
from app.services.platform import bot_stream
from app.services.runtime import Runtime
from tests.platform.test_bot_accounts import credential, make_bot
from tests.platform.test_export import account
from tests.support.client import Api

pytestmark = pytest.mark.timeout(120)


async def _read(
    lines: Any, out: list[tuple[float, bytes]], opened: asyncio.Event, seconds: float
) -> str:
    """Read ``lines`` into ``out`` until they end (``"ended"``) or ``seconds`` pass
    (``"open"``); ``opened`` is set after the first line.
    """
    deadline = time.monotonic() + seconds
    try:
        while True:
            line = await asyncio.wait_for(lines.__anext__(), deadline - time.monotonic())
            out.append((time.monotonic(), line))
            opened.set()
    except StopAsyncIteration:
        return "ended"
    except TimeoutError:
        return "open"
    finally:
        await lines.aclose()


class Reader:
    """A bot's stream read on the test client's event loop."""

    def __init__(self, client: TestClient, bot_h: dict[str, str], seconds: float = 10) -> None:
        runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
        self.client = client
        self.lines: list[tuple[float, bytes]] = []
        held = credential(client, bot_h)
        self.opened = asyncio.Event()

        async def read() -> str:
            return await _read(
                bot_stream.events(runtime, held, 0.05), self.lines, self.opened, seconds
            )

        self.future = client.portal.start_task_soon(read)  # type: ignore[union-attr]

        async def first_line() -> None:
            try:
                await asyncio.wait_for(self.opened.wait(), 3)
            except TimeoutError:
                raise AssertionError("no line within 3 s: the headers would wait") from None

        self.client.portal.call(first_line)  # type: ignore[union-attr]

    def result(self) -> str:
        """``"ended"`` or ``"open"`` (still open when its time ran out)."""
        outcome: str = self.future.result(60)
        return outcome

    def events(self) -> list[bytes]:
        """The event lines read (keep-alives left out)."""
        return [line for _, line in self.lines if line.strip()]


def invite(api: Api, client: TestClient, bot: str) -> str:
    """A private lobby whose host invites ``bot``; returns its code."""
    _, host = account(client, "Hos")
    code: str = api.lobby(host, seats=2, private=True)["code"]
    api.post(f"/api/lobbies/{code}/invite", host, status=201, bot=bot)
    return code


def test_the_stream_starts_with_a_keep_alive_and_keeps_alive(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The interval a fifth of the real 2 s (the process test checks that one, under httpx's
    # 5 s): the same loop, a fifth of the wait.
    monkeypatch.setattr(bot_stream, "KEEP_ALIVE", 0.4)
    _, _, bot_h = make_bot(client)
    reader = Reader(client, bot_h, seconds=2.0)
    assert reader.result() == "open"
    assert reader.lines[0][1] == b"\n" and reader.events() == []
    times = [t for t, _ in reader.lines]
    assert len(times) >= 3  # at once, then every 0.4 s (half a second late at most)
    assert max(b - a for a, b in zip(times, times[1:], strict=False)) < 0.9


def test_revoking_the_token_here_ends_the_stream_at_once(api: Api, client: TestClient) -> None:
    bot, session, bot_h = make_bot(client)
    reader = Reader(client, bot_h)
    [listed] = api.get("/api/me/tokens", session)["tokens"]
    assert client.delete(f"/api/me/tokens/{listed['id']}", headers=session).status_code == 204
    revoked = time.monotonic()
    invite(api, client, bot)
    assert reader.result() == "ended"
    assert reader.events() == []
    assert reader.lines[-1][0] - revoked < 1.5


def test_revoked_elsewhere_the_stream_delivers_nothing_more(api: Api, client: TestClient) -> None:
    """Revoked on another instance (the rows only, nothing closed here): the invitation made
    right after never reaches the stream, which ends.
    """
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    bot, session, bot_h = make_bot(client)
    reader = Reader(client, bot_h)
    [listed] = api.get("/api/me/tokens", session)["tokens"]

    async def revoke_elsewhere() -> None:
        async with runtime.storage.db.transaction() as conn:
            await queries.revoke_api_tokens(conn, bot, utcnow(), listed["id"])

    client.portal.call(revoke_elsewhere)  # type: ignore[union-attr]
    invite(api, client, bot)
    assert reader.result() == "ended"
    assert reader.events() == []


def test_deleting_the_account_elsewhere_ends_the_stream(api: Api, client: TestClient) -> None:
    """The account row gone on another instance, the token row left live: the sweep ends it."""
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    bot, _, bot_h = make_bot(client)
    code = invite(api, client, bot)
    reader = Reader(client, bot_h)

    async def delete_elsewhere() -> int:
        while not reader.events():  # the open invitation arrives first
            await asyncio.sleep(0.02)
        async with runtime.storage.db.transaction() as conn:
            await conn.execute(delete(accounts).where(accounts.c.player_id == bot))
        return await sweep_once(runtime)

    client.portal.call(delete_elsewhere)  # type: ignore[union-attr]
    assert reader.result() == "ended"
    [only] = reader.events()
    assert code.encode() in only
