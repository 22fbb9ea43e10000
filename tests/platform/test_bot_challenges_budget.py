"""Challenges to a bot are an ownership budget (docs/BOT_API.md § Limits): one challenger has
at most ``MAX_OPEN_PER_CHALLENGER`` waiting for one bot, and a challenge the bot has not
answered within ``CHALLENGE_TTL`` expires (``expired``; accepting it is refused). Before, one
guest could hold all 20 of a bot's open challenges, and they never expired.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import utcnow
from app.db.platform import bot_challenges
from app.services.platform.bots import CHALLENGE_TTL, MAX_OPEN_PER_CHALLENGER
from tests.platform.test_bot_accounts import stream_lines
from tests.platform.test_export import account, api_token
from tests.support.client import Api

pytestmark = pytest.mark.timeout(120)


def _age(client: TestClient, ids: list[str], by: timedelta) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(bot_challenges)
                .where(bot_challenges.c.id.in_(ids))
                .values(created_at=utcnow() - by)
            )

    client.portal.call(run)  # type: ignore[union-attr]


def test_one_challenger_holds_a_few_challenges_and_they_expire(
    client: TestClient, api: Api
) -> None:
    bot, bot_h = account(client, "Cbot")
    assert client.post("/api/me/bot", headers=bot_h).status_code == 200
    _, guest = account(client, "Guest")
    made = [
        api.post(f"/api/bots/{bot}/challenge", guest, 201)["id"]
        for _ in range(MAX_OPEN_PER_CHALLENGER)
    ]
    refused = api.post(f"/api/bots/{bot}/challenge", guest, 409)
    assert refused["error"]["reason"] == "challenges_waiting"
    _, other = account(client, "Other")
    fresh = api.post(f"/api/bots/{bot}/challenge", other, 201)["id"]
    _age(client, made, CHALLENGE_TTL + timedelta(seconds=1))
    # The bot's event stream offers the fresh challenge only.
    (offered,) = stream_lines(client, api_token(client, bot_h, "play", "read"), 1)
    assert offered["challenge"]["id"] == fresh
    assert api.get(f"/api/challenges/{made[0]}", guest)["status"] == "expired"
    late = api.post(f"/api/challenges/{made[0]}/accept", bot_h, 409)
    assert late["error"]["reason"] == "challenge_expired"
    api.post(f"/api/bots/{bot}/challenge", guest, 201)  # the expired ones no longer count
