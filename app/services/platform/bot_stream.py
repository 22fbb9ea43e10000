"""A bot account's event stream (docs/BOT_API.md § The event stream): one long-lived NDJSON
response that tells the bot of challenges, match starts and match ends.

Lines, one JSON object each::

    {"type": "challenge",   "challenge": Challenge}
    {"type": "match_start", "match": {"id", "seat", "seats", "rules", "preset", "rated",
                                      "time_control", "socket": "/ws/matches/<id>"}}
    {"type": "match_end",   "match": {"id", "seat", "scores", "winners"}}

and an empty line at once (so the response's headers leave at once) and then every
:data:`KEEP_ALIVE` seconds when nothing else was sent. On connecting the bot first gets every
open challenge and a ``match_start`` for each of its live matches, so a bot that restarts picks
up where it was. The stream reads the database every ``poll`` seconds (any instance's
challenges and matches; no state of its own beyond what it has sent).

The stream outlives no credential: it is held in ``rt.fanout.open_sockets`` like a socket of its
token, so a revocation, logout or account deletion ends it at once on the instance that made it
and within the sockets sweep's 2 s on the others; and it checks its credential again, from the
database, before delivering any event, so nothing committed after the revocation reaches it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Literal

import orjson

from app.db.models import utcnow
from app.json_types import JsonObject
from app.services.clock import rules as clock_rules
from app.services.errors import Unauthorized
from app.services.platform import bot_queries as q
from app.services.platform import credentials
from app.services.platform.bots import CHALLENGE_TTL, challenge_json
from app.services.platform.credentials import Credential
from app.services.platform.model import (
    BotMatch,
    ChallengeJson,
    MatchEndJson,
    MatchStartJson,
    StreamSeatJson,
)
from app.services.runtime import Runtime

#: Seconds without a line after which an empty line is sent: under every proxy's idle limit and
#: well under a client's read timeout (httpx's default is 5 s).
KEEP_ALIVE = 2.0
#: The keep-alive line.
EMPTY = b"\n"


def _line(
    kind: str,
    key: Literal["challenge", "match"],
    value: ChallengeJson | MatchStartJson | MatchEndJson,
) -> bytes:
    return orjson.dumps({"type": kind, key: value}) + b"\n"


def _seat_json(s: JsonObject) -> StreamSeatJson:
    return {
        "seat": s["seat"],
        "name": s["name"],
        "player": s.get("player"),
        "bot": bool(s.get("bot")),
        "bot_account": bool(s.get("bot_account")),
    }


def _start(row: BotMatch) -> MatchStartJson:
    untimed: JsonObject = {"kind": "untimed"}
    control = clock_rules.control_of(row.clock).to_json() if row.clock else untimed
    return {
        "id": row.id,
        "seat": row.seat,
        "seats": [_seat_json(s) for s in row.seats],
        "rules": row.rules,
        "preset": row.preset,
        "rated": row.rated,
        "time_control": control,
        "socket": f"/ws/matches/{row.id}",
    }


def _end(row: BotMatch) -> MatchEndJson:
    scores = list(row.scores)
    best = max(scores) if scores else 0
    return {
        "id": row.id,
        "seat": row.seat,
        "scores": scores,
        "winners": [i for i, s in enumerate(scores) if s == best],
    }


async def events(rt: Runtime, credential: Credential, poll: float) -> AsyncIterator[bytes]:
    """The stream's lines for the bot of ``credential`` (a verified bearer token:
    :func:`app.services.platform.credentials.verify`) until the client goes away (the caller
    stops iterating) or the credential no longer holds (revoked, logged out, expired, account
    deleted: the stream just ends; the bot's next request gets its 401). ``poll``: seconds
    between database reads.
    """
    bot_id = credential.player_id
    ended = asyncio.Event()

    async def end(_frame: str, _code: int, _reason: str) -> None:
        ended.set()

    challenges_sent: set[str] = set()
    live: set[str] = set()
    with rt.fanout.open_sockets.hold(
        bot_id, credential.generation, credential.session, end, credential.expires
    ):
        yield EMPTY
        quiet_since = time.monotonic()
        while not ended.is_set():
            lines: list[bytes] = []
            async with rt.storage.db.reading() as conn:
                waiting = await q.open_challenges(conn, bot_id, utcnow() - CHALLENGE_TTL)
                rows = await q.bot_matches(conn, bot_id, live)
            for waiting_one in waiting:
                if waiting_one.id not in challenges_sent:
                    challenges_sent.add(waiting_one.id)
                    sent = await challenge_json(rt, waiting_one)
                    lines.append(_line("challenge", "challenge", sent))
            for row in rows:
                if row.status == "live" and row.id not in live:
                    live.add(row.id)
                    lines.append(_line("match_start", "match", _start(row)))
                elif row.status != "live" and row.id in live:
                    live.discard(row.id)
                    lines.append(_line("match_end", "match", _end(row)))
            now = time.monotonic()
            if lines:
                # Read after the events: valid now, so they were committed before any revocation.
                try:
                    await credentials.recheck(rt, credential)
                except Unauthorized:
                    return
                if ended.is_set():
                    return
                quiet_since = now
                for line in lines:
                    yield line
            elif now - quiet_since >= KEEP_ALIVE:
                quiet_since = now
                yield EMPTY
            pause = min(poll, max(0.0, quiet_since + KEEP_ALIVE - time.monotonic()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended.wait(), pause)
