"""A bot account's event stream (docs/BOT_API.md § The event stream): one long-lived NDJSON
response that tells the bot of challenges, match starts and match ends.

Lines, one JSON object each::

    {"type": "challenge",   "challenge": Challenge}
    {"type": "match_start", "match": {"id", "seat", "seats", "rules", "preset", "rated",
                                      "time_control", "socket": "/ws/matches/<id>"}}
    {"type": "match_end",   "match": {"id", "seat", "scores", "winners"}}

and an empty line every :data:`KEEP_ALIVE` seconds when nothing else was sent. On connecting
the bot first gets every open challenge and a ``match_start`` for each of its live matches, so a
bot that restarts picks up where it was. The stream reads the database every ``poll`` seconds
(any instance's challenges and matches; no state of its own beyond what it has sent).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import orjson

from app.services.clock import rules as clock_rules
from app.services.platform import bot_queries as q
from app.services.platform.bots import challenge_json
from app.services.runtime import Runtime

#: Seconds without a line after which an empty line is sent (proxies close silent streams).
KEEP_ALIVE = 10.0


def _line(kind: str, key: str, value: dict[str, Any]) -> bytes:
    return orjson.dumps({"type": kind, key: value}) + b"\n"


def _seat_json(s: dict[str, Any]) -> dict[str, Any]:
    return {
        "seat": s["seat"],
        "name": s["name"],
        "player": s.get("player"),
        "bot": bool(s.get("bot")),
        "bot_account": bool(s.get("bot_account")),
    }


def _start(row: Any) -> dict[str, Any]:
    control = clock_rules.control_of(row.clock).to_json() if row.clock else {"kind": "untimed"}
    return {
        "id": row.id,
        "seat": row.seat,
        "seats": [_seat_json(s) for s in row.seats],
        "rules": row.rules,
        "preset": row.preset,
        "rated": bool(row.rated),
        "time_control": control,
        "socket": f"/ws/matches/{row.id}",
    }


def _end(row: Any) -> dict[str, Any]:
    scores = list(row.scores)
    best = max(scores) if scores else 0
    return {
        "id": row.id,
        "seat": row.seat,
        "scores": scores,
        "winners": [i for i, s in enumerate(scores) if s == best],
    }


async def events(rt: Runtime, bot_id: str, poll: float) -> AsyncIterator[bytes]:
    """The stream's lines for bot ``bot_id`` until the client goes away (the caller stops
    iterating). ``poll``: seconds between database reads.
    """
    challenges_sent: set[str] = set()
    live: set[str] = set()
    quiet_since = time.monotonic()
    while True:
        lines: list[bytes] = []
        async with rt.db.reading() as conn:
            waiting = await q.open_challenges(conn, bot_id)
            rows = await q.bot_matches(conn, bot_id, live)
        for row in waiting:
            if row.id not in challenges_sent:
                challenges_sent.add(row.id)
                lines.append(_line("challenge", "challenge", await challenge_json(rt, row)))
        for row in rows:
            if row.status == "live" and row.id not in live:
                live.add(row.id)
                lines.append(_line("match_start", "match", _start(row)))
            elif row.status != "live" and row.id in live:
                live.discard(row.id)
                lines.append(_line("match_end", "match", _end(row)))
        now = time.monotonic()
        if lines:
            quiet_since = now
            for line in lines:
                yield line
        elif now - quiet_since >= KEEP_ALIVE:
            quiet_since = now
            yield b"\n"
        await asyncio.sleep(poll)
