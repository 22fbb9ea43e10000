"""The provably fair bag on the server side: deal a seed with a secret salt when a match starts,
keep the commitment, reveal seed and salt only once the match is finished.

The hashing itself is the engine's (:mod:`app.engine.record.fairness`). Before the end nothing
but the commitment leaves here: no frame, view or record carries the seed, the salt or the deck.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.engine.record import fairness
from app.services.errors import NotFound
from app.services.records import queries
from app.services.records.model import FairnessJson
from app.services.runtime import Runtime


@dataclass(frozen=True)
class Deal:
    """A match's shuffle input (``seed``), its secret ``salt`` and the public ``commitment``."""

    seed: int
    salt: str
    commitment: str


def deal(fixed_seed: int | None = None) -> Deal:
    """A fresh seed (or ``fixed_seed``: the test-only ``DECK_SEED``) with a 128-bit salt."""
    seed = fixed_seed if fixed_seed is not None else secrets.randbits(63)
    salt = secrets.token_hex(16)
    return Deal(seed, salt, fairness.commitment(seed, salt))


async def store(conn: AsyncConnection, match_id: str, dealt: Deal) -> None:
    """Keep the deal of a new match (inside the transaction that creates it)."""
    await queries.insert_fairness(
        conn,
        match_id,
        scheme=fairness.SCHEME,
        commitment=dealt.commitment,
        seed=str(dealt.seed),
        salt=dealt.salt,
    )


async def public(rt: Runtime, match_id: str) -> FairnessJson:
    """``{"scheme", "commitment", "revealed"}``, plus ``"seed"`` and ``"salt"`` once the match
    is finished (absent before). Raises :class:`NotFound` (no match, or one from before
    commitments).

    Callers check that the reader may watch the match.
    """
    async with rt.storage.db.reading() as conn:
        row = await queries.fairness(conn, match_id)
    if row is None:
        raise NotFound("this match has no shuffle commitment")
    out: FairnessJson = {
        "scheme": row.scheme,
        "commitment": row.commitment,
        "revealed": row.status == "finished",
    }
    if out["revealed"]:
        # Decimal text: a 63-bit seed does not survive JSON numbers in browsers (2**53).
        out["seed"], out["salt"] = row.seed, row.salt
    return out


async def commitment_of(rt: Runtime, match_id: str) -> str | None:
    """The published commitment of a match (None for a match from before commitments)."""
    async with rt.storage.db.reading() as conn:
        return await queries.commitment(conn, match_id)


async def reveal_into(rt: Runtime, match_id: str, record: dict[str, Any]) -> dict[str, Any]:
    """The record with ``"fairness"`` added when the match is finished (unchanged otherwise)."""
    if not record.get("finished"):
        return record
    try:
        fair = await public(rt, match_id)
    except NotFound:
        return record
    if not fair["revealed"]:
        return record
    return {
        **record,
        "fairness": {
            "scheme": fair["scheme"],
            "commitment": fair["commitment"],
            "seed": fair["seed"],
            "salt": fair["salt"],
        },
    }
