"""The example bot (examples/greedy_bot.py) in a real process against a real service: register
a bot account and its API token, start the bot, challenge it; the challenger's seat times out
once and the built-in Normal computer holds it from then on (time-out policy ``handover`` after
1), so the bot plays a whole match against the computer. The bot's own moves are its own (no
``"by": "computer"`` in the record), the record replays to the final scores, and the bot process
reports the match's end and exits.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine import replay
from app.engine.events import TilePlaced
from tests.support.browser.fixtures import running_server

# A whole match against the computer, the example as a process.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]
ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery"


def _account(http: httpx.Client, stem: str) -> dict[str, Any]:
    r = http.post(
        "/api/accounts", json={"username": f"{stem}{secrets.token_hex(3)}", "password": PASSWORD}
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_the_example_bot_plays_a_whole_match_against_the_normal_computer(tmp_path: Path) -> None:
    with running_server(tmp_path) as server, httpx.Client(base_url=server, timeout=30) as http:
        bot = _account(http, "greedy")
        session = {"Authorization": f"Bearer {bot['token']}"}
        assert http.post("/api/me/bot", headers=session).status_code == 200
        r = http.post(
            "/api/me/tokens", json={"name": "greedy", "scopes": ["play"]}, headers=session
        )
        token = r.json()["token"]
        log = (tmp_path / "bot.log").open("w")
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "greedy_bot.py"), "--matches", "1"],
            env={**os.environ, "CARCASSONNE_URL": server, "CARCASSONNE_TOKEN": token},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            ann = _account(http, "ann")
            auth = {"Authorization": f"Bearer {ann['token']}"}
            challenge = http.post(
                f"/api/bots/{bot['account']['id']}/challenge",
                json={
                    "preset": "standard",
                    "time_control": {"kind": "per_turn", "seconds": 10},
                    "timeout_policy": {"kind": "handover", "after": 1},
                },
                headers=auth,
            ).json()
            deadline = time.monotonic() + 60
            while (c := http.get(f"/api/challenges/{challenge['id']}", headers=auth).json())[
                "status"
            ] == "open":
                assert time.monotonic() < deadline, "the bot never accepted"
                time.sleep(0.2)
            assert c["status"] == "accepted", c
            match_id = c["match_id"]
            assert proc.wait(timeout=300) == 0, (tmp_path / "bot.log").read_text()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            log.close()
        match = http.get(f"/api/matches/{match_id}").json()
        record = http.get(f"/api/matches/{match_id}/record").json()
    output = (tmp_path / "bot.log").read_text()
    assert f"match_start {match_id} seat 1" in output and f"match_end {match_id}" in output
    assert match["status"] == "finished" and match["seats"][1]["bot_account"] is True
    state, events = replay(record)
    assert state.scores == match["state"]["scores"] == record["result"]["scores"]
    moves = [m for m in record["moves"] if "tile" in m]
    seats = [e.seat for e in events if isinstance(e, TilePlaced)]
    assert len(moves) == len(seats) > 60  # the whole deck, not an early end
    by_seat: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    for seat, move in zip(seats, moves, strict=True):
        by_seat[seat].append(move)
    assert not any(m.get("by") == "computer" for m in by_seat[1])  # the bot's own moves
    assert all(m.get("by") == "computer" for m in by_seat[0])  # Normal held Ann's seat
