"""A thin test client for the service: REST helpers and a websocket reader that skips
presence frames.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.testclient import WebSocketTestSession

from app.db.models import matches


class Api:
    """REST helpers over a :class:`TestClient` (each method asserts the expected status)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def player(self, name: str = "Ann") -> tuple[str, str, dict[str, str]]:
        """A new guest: ``(id, token, auth headers)``."""
        r = self.client.post("/api/players", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        token = body["token"]
        return body["player"]["id"], token, {"Authorization": f"Bearer {token}"}

    def lobby(self, headers: dict[str, str], **body: Any) -> dict[str, Any]:
        """Create a lobby and return it."""
        r = self.client.post("/api/lobbies", json=body, headers=headers)
        assert r.status_code == 201, r.text
        result: dict[str, Any] = r.json()
        return result

    def post(
        self, path: str, headers: dict[str, str] | None = None, status: int = 200, **body: Any
    ) -> Any:
        """POST and check the status."""
        r = self.client.post(path, json=body or None, headers=headers or {})
        assert r.status_code == status, r.text
        return r.json()

    def get(self, path: str, headers: dict[str, str] | None = None, status: int = 200) -> Any:
        """GET and check the status."""
        r = self.client.get(path, headers=headers or {})
        assert r.status_code == status, r.text
        return r.json()

    def match(
        self, seats: int = 2, bots: int = 0, private: bool = False, **lobby: Any
    ) -> tuple[str, list[tuple[str, str, dict[str, str]]], str]:
        """Start a match with ``seats`` people plus ``bots`` bots: ``(match_id, players,
        lobby code)``; players in seat order, people first.
        """
        people = [self.player(name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve")[:seats]]
        created = self.lobby(people[0][2], seats=seats + bots, private=private, **lobby)
        code = created["code"]
        for _, _, headers in people[1:]:
            self.post(f"/api/lobbies/{code}/join", headers)
        for _ in range(bots):
            self.post(f"/api/lobbies/{code}/bots", people[0][2])
        started = self.post(f"/api/lobbies/{code}/start", people[0][2])
        return started["match_id"], people, code


def receive(ws: WebSocketTestSession, *, keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """The next frame that is not presence or clock (unless asked for)."""
    while True:
        frame: dict[str, Any] = json.loads(ws.receive_text())
        if frame["t"] not in ("presence", "clock") or frame["t"] in keep:
            return frame


def place_first(state: dict[str, Any]) -> dict[str, Any]:
    """An action for the seat to act: the first legal placement, or a pass."""
    if state["phase"] == "place_tile":
        x, y, rotation = state["legal_placements"][0]
        return {"type": "place_tile", "at": [x, y], "rotation": rotation}
    return {"type": "pass"}


def mark_finished(client: TestClient, match_id: str) -> None:
    """Set a match's status to ``finished`` in the app's database (no scoring, no events)."""
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(matches).where(matches.c.id == match_id).values(status="finished")
            )

    client.portal.call(run)  # type: ignore[union-attr]
