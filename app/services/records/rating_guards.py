"""Ratings that can't be farmed (docs/RATINGS.md, "No farming").

Two guards on every rated match, applied when it is settled
(:mod:`app.services.records.history`):

- **Established accounts only**: a rated match changes ratings only when every seat's account
  is at least ``RATED_MIN_ACCOUNT_AGE`` seconds old and has finished ``RATED_MIN_GAMES``
  matches (casual ones count) against ``RATED_MIN_OPPONENTS`` distinct opponents; else it ends
  unrated with reason :data:`NEW_ACCOUNT`. Fresh "socks" made to lose on purpose give nothing.
- **Bounded gain per opponent**: over :data:`GAIN_PERIOD`, the rating points (the displayed
  number) an account gains in matches where one given opponent sat are at most
  ``RATED_GAIN_PER_OPPONENT``; a larger gain is cut to what is left (losses are never cut).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.db.session import as_utc
from app.services.records import queries, rating_queries
from app.settings import Settings

#: Why a rated match ended unrated: a seat's account was too new (age, games, opponents).
NEW_ACCOUNT = "new_account"
#: The window of the per-opponent gain bound.
GAIN_PERIOD = timedelta(days=7)
#: ``display = ALPHA · (mu − 3σ) + TARGET`` (app/services/records/ratings.py ``display``).
ALPHA, TARGET = 40.0, 1000.0


async def too_new(
    conn: AsyncConnection, settings: Settings, match_id: str, player_ids: Sequence[str]
) -> str | None:
    """:data:`NEW_ACCOUNT` when one of ``player_ids`` is not an established account (see the
    module docstring; the match ``match_id`` itself is not counted), else None.
    """
    ids = [p for p in player_ids if p]
    if await queries.bot_accounts(conn, ids):
        return None  # counted in the bots' own pool (app/services/records/ratings.py)
    ages = await rating_queries.account_ages(conn, ids)
    oldest_new = utcnow() - timedelta(seconds=settings.rated_min_account_age)
    for pid in ids:
        made = ages.get(pid)
        if made is None or as_utc(made) > oldest_new:
            return NEW_ACCOUNT
        if settings.rated_min_games or settings.rated_min_opponents:
            games, opponents = await rating_queries.experience(conn, pid, match_id)
            if games < settings.rated_min_games or opponents < settings.rated_min_opponents:
                return NEW_ACCOUNT
    return None


def _shown(mu: float, sigma: float) -> float:
    return ALPHA * (mu - 3 * sigma) + TARGET


async def bounded(
    conn: AsyncConnection,
    settings: Settings,
    preset: str,
    people: Sequence[str],
    before: Sequence[tuple[float, float]],
    after: Sequence[tuple[float, float]],
) -> list[tuple[float, float]]:
    """``after`` (new ``(mu, sigma)`` by seat of ``people``) with each gain cut so that no
    account has gained more than ``RATED_GAIN_PER_OPPONENT`` displayed points over
    :data:`GAIN_PERIOD` in matches with any one of the others (this match's gain included).
    A cut gain keeps the new sigma and lowers mu to what is left.
    """
    cap = settings.rated_gain_per_opponent
    since = utcnow() - GAIN_PERIOD
    out = list(after)
    for i, pid in enumerate(people):
        (mu0, s0), (mu1, s1) = before[i], after[i]
        gain = _shown(mu1, s1) - _shown(mu0, s0)
        if gain <= 0:
            continue
        left = float(cap)
        for other in people:
            if other == pid:
                continue
            rows = await rating_queries.changes_against(conn, pid, other, preset, since)
            past = sum(
                _shown(r.mu_after, r.sigma_after) - _shown(r.mu_before, r.sigma_before)
                for r in rows
            )
            left = min(left, cap - past)
        if gain > left:
            allowed = max(0.0, left)
            out[i] = ((_shown(mu0, s0) + allowed - TARGET) / ALPHA + 3 * s1, s1)
    return out
