"""Finished matches written straight into the database, as the service leaves them at the end
(the match row with its final snapshot, each seat's history row, the revealed shuffle): real
engine games with a chosen seed, for the export's tests and its benchmark.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import match_fairness, match_players
from app.db.models import matches
from app.engine import PRESETS, apply_in_place, legal_actions, new_game
from app.engine.record import fairness

COLOURS = ("red", "blue", "green", "yellow", "black")


def finished_game(seed: int, names: list[str], preset: str = "standard") -> Any:
    """A whole engine game of ``preset`` dealt with ``seed``, random legal moves."""
    state = new_game(PRESETS[preset], names, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        apply_in_place(state, rng.choice(legal_actions(state)))
    return state


async def insert_finished(
    conn: AsyncConnection,
    seats: list[tuple[str | None, str]],
    *,
    finished_at: datetime,
    seed: int = 1,
    preset: str = "standard",
    rated: bool = False,
    private: bool = False,
    state: Any = None,
) -> str:
    """Insert one finished match: ``seats`` are ``(player id or None for a computer, name)``;
    returns its id. ``state``: a finished engine game to store (default: one played here).
    """
    names = [name for _, name in seats]
    state = state or finished_game(seed, names, preset)
    match_id = secrets.token_hex(8)
    salt = secrets.token_hex(16)
    seat_rows = [
        {
            "seat": i,
            "player": player,
            "name": name,
            "colour": COLOURS[i],
            "bot": player is None,
            "level": "normal",
        }
        for i, (player, name) in enumerate(seats)
    ]
    best = max(state.scores)
    await conn.execute(
        insert(matches).values(
            id=match_id,
            lobby_code=secrets.token_hex(6),
            name=None,
            private=private,
            status="finished",
            seats=seat_rows,
            rules=PRESETS[preset].to_json(),
            setup={},
            snapshot=state.to_json(),
            snapshot_version=len(state.actions),
            version=len(state.actions),
            seat_to_act=None,
            turn=state.turn,
            scores=list(state.scores),
            clock=None,
            created_at=finished_at,
            updated_at=finished_at,
            finished_at=finished_at,
            bots=sum(1 for p, _ in seats if p is None),
        )
    )
    await conn.execute(
        insert(match_players),
        [
            {
                "match_id": match_id,
                "seat": i,
                "player_id": player,
                "bot": player is None,
                "preset": preset,
                "rated": rated,
                "unrated": None,
                "left": False,
                "score": state.scores[i],
                "place": 1 if state.scores[i] == best else 2,
                "started_at": finished_at,
                "finished_at": finished_at,
            }
            for i, (player, _) in enumerate(seats)
        ],
    )
    await conn.execute(
        insert(match_fairness).values(
            match_id=match_id,
            scheme=fairness.SCHEME,
            commitment=fairness.commitment(state.seed, salt),
            seed=str(state.seed),
            salt=salt,
        )
    )
    return match_id
