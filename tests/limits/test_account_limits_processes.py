"""The password-attempt limit holds on two instances under a burst: 400 wrong guesses at once
for one username from one address, sent to two instances sharing Redis, get exactly the
limit's 10 tries (docs/API.md § Limits). Before, the burst ran each instance's Redis pool out
and each counted in its own memory: 20–30 tries.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from pathlib import Path

import httpx
import pytest

from tests.support.processes import Server, rest

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(180)]


def test_400_guesses_on_two_instances_get_ten_tries(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    env = {**server_env, "PASSWORD_ATTEMPTS": "10/minute"}
    a, b = Server(env, tmp_path / "a.log"), Server(env, tmp_path / "b.log")
    servers += [a, b]  # stopped by the fixture even when a start fails
    a.start(), b.start()
    username = f"victim{secrets.token_hex(3)}"
    rest(a, "POST", "/api/accounts", username=username, password="correct horse battery")

    async def burst() -> Counter[int]:
        body = {"username": username, "password": "a wrong guess"}
        limits = httpx.Limits(max_connections=200)
        async with (
            httpx.AsyncClient(base_url=a.url, timeout=60, limits=limits) as to_a,
            httpx.AsyncClient(base_url=b.url, timeout=60, limits=limits) as to_b,
        ):
            answers = await asyncio.gather(
                *(
                    (to_a if i % 2 else to_b).post("/api/accounts/login", json=body)
                    for i in range(400)
                )
            )
        return Counter(r.status_code for r in answers)

    codes = asyncio.run(burst())
    assert codes == {401: 10, 429: 390}
