"""A greedy Carcassonne bot for this service's bot API (docs/BOT_API.md): httpx and websockets.

    CARCASSONNE_URL=http://127.0.0.1:8000 CARCASSONNE_TOKEN=cat_... python greedy_bot.py

The token is a bot account's API token with the ``play`` scope. The bot reads its event stream,
accepts every challenge, and plays each match on the match websocket, as a browser does: it
keeps the view of the seat to act from the ``snapshot`` and each ``events`` frame's ``delta``
and, on its turn, sends one ``action`` frame. Its policy is greedy and simple: the legal
placement with the most neighbouring tiles; a follower on a cloister, else a city, else a road
while it has two or more in supply; the first Plague choice. ``--matches N`` stops after N.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

import httpx
import websockets

FOLLOWER_ORDER = ("cloister", "city", "road")
SIDES = ((0, -1), (1, 0), (0, 1), (-1, 0))


def choose(view: dict[str, Any], me: int) -> dict[str, Any]:
    """The greedy action for the view when it is seat ``me``'s decision."""
    if view["phase"] == "place_tile":
        board = {tuple(t["at"]) for t in view["board"]}

        def neighbours(p: list[int]) -> int:
            return sum((p[0] + dx, p[1] + dy) in board for dx, dy in SIDES)

        x, y, rotation = max(view["legal_placements"], key=neighbours)
        return {"type": "place_tile", "at": [x, y], "rotation": rotation}
    if view["phase"] == "deploy":
        if view["supply"][me] >= 2:
            for kind in FOLLOWER_ORDER:
                for spot in view["legal_spots"]:
                    if spot.split(":")[0] == kind:
                        return {"type": "place_follower", "spot": spot}
        return {"type": "pass"}
    if view["phase"] == "plague":
        x, y, spot = view["plague"]["choices"][0]
        return {"type": "plague", "at": [x, y], "spot": spot}
    return {"type": "pass"}


def apply_batch(view: dict[str, Any], batch: dict[str, Any]) -> None:
    """The view at ``v`` from the view at ``v - 1`` and batch ``v`` (docs/API.md)."""
    for event in batch["events"]:
        if event["type"] == "TilePlaced":
            view["board"].append({k: event[k] for k in ("at", "tile", "rotation")})
    delta = batch.get("delta") or {}
    for tile, count in (delta.get("remaining") or {}).items():
        if count:
            view["remaining"][tile] = count
        else:
            view["remaining"].pop(tile, None)
    if "wheel" in delta:
        view["wheel"].update(delta["wheel"])
    view.update({k: v for k, v in delta.items() if k not in ("remaining", "wheel")})


async def play(ws_base: str, token: str, match_id: str, me: int) -> None:
    """Play seat ``me`` of a match until it is over."""
    view: dict[str, Any] | None = None
    version, asked = 0, -1
    async with websockets.connect(f"{ws_base}/ws/matches/{match_id}?token={token}") as ws:
        async for raw in ws:
            frame = json.loads(raw)
            if frame["t"] == "snapshot":
                view, version = frame["d"]["state"], frame["v"]
            elif frame["t"] == "events":
                batch = frame["d"]
                if batch.get("state") is not None:
                    view = batch["state"]
                elif view is not None and frame["v"] == version + 1 and "delta" in batch:
                    apply_batch(view, batch)
                elif view is not None:  # a gap: ask for what we missed
                    await ws.send(json.dumps({"t": "sync", "since": version}))
                    continue
                version = frame["v"]
            elif frame["t"] == "error":
                error = frame["d"]
                print(f"{match_id}: {error['code']}: {error.get('message')}", file=sys.stderr)
                if error["code"] == "rate_limited":  # nothing applied: send it again
                    await asyncio.sleep(float(error.get("retry_after") or 1))
                    asked = -1
            else:
                continue
            if view is None:
                continue
            if view["phase"] == "game_over":
                return
            if view["seat"] == me and asked != version:
                asked = version
                action = choose(view, me)
                frame = {"t": "action", "v": version, "id": f"g{version}", "d": action}
                await ws.send(json.dumps(frame))


async def run(base: str, token: str, matches: int | None) -> None:
    """Follow the event stream: accept challenges, play matches, stop after ``matches``."""
    ws_base = base.replace("http", "ws", 1)
    auth = {"Authorization": f"Bearer {token}"}
    games: dict[str, asyncio.Task[None]] = {}
    ended = 0
    async with (
        httpx.AsyncClient(base_url=base, headers=auth, timeout=None) as http,
        http.stream("GET", "/api/bot/stream") as stream,
    ):
        if stream.status_code != 200:
            await stream.aread()
            raise SystemExit(f"event stream: {stream.status_code} {stream.text}")
        async for line in stream.aiter_lines():
            if not line.strip():
                continue  # keep-alive
            event = json.loads(line)
            if event["type"] == "challenge":
                challenge = event["challenge"]
                r = await http.post(f"/api/challenges/{challenge['id']}/accept")
                print(
                    f"challenge {challenge['id']} from {challenge['challenger']['name']}:"
                    f" {r.status_code}",
                    flush=True,
                )
            elif event["type"] == "match_start":
                match = event["match"]
                if match["id"] not in games:
                    print(f"match_start {match['id']} seat {match['seat']}", flush=True)
                    games[match["id"]] = asyncio.create_task(
                        play(ws_base, token, match["id"], match["seat"])
                    )
            elif event["type"] == "match_end":
                match = event["match"]
                task = games.pop(match["id"], None)
                if task is not None:
                    try:
                        await asyncio.wait_for(task, 30)
                    except Exception as exc:  # noqa: BLE001 - report and go on
                        print(f"{match['id']}: {exc!r}", file=sys.stderr)
                print(f"match_end {match['id']} scores {match['scores']}", flush=True)
                ended += 1
                if matches is not None and ended >= matches:
                    return


def main() -> None:
    """Run the bot (``CARCASSONNE_URL``, ``CARCASSONNE_TOKEN``; ``--matches N``)."""
    parser = argparse.ArgumentParser(description="a greedy bot for the Carcassonne bot API")
    parser.add_argument("--matches", type=int, help="stop after this many finished matches")
    args = parser.parse_args()
    base = os.environ.get("CARCASSONNE_URL", "http://127.0.0.1:8000").rstrip("/")
    token = os.environ.get("CARCASSONNE_TOKEN") or sys.exit("set CARCASSONNE_TOKEN (cat_…)")
    asyncio.run(run(base, token, args.matches))


if __name__ == "__main__":
    main()
