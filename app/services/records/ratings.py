"""Ratings: OpenSkill (Plackett–Luce, the ``openskill`` library), one rating per rule preset.

A rated lobby takes accounts only, one of the standard presets (:data:`app.engine.PRESETS`,
unchanged) and no computer seats. When a rated match finishes (:func:`rate_match`, called by
the history settlement in the same transaction), every seat is ranked by final score — equal
scores share a placement — and all ratings of the preset move together; unless a seat's own
player made fewer than a third of its moves (:func:`unrated_reason`): then the match ends
unrated and says so. A rated match with a bot account counts in the bots' pool
(:func:`bot_pool`), never in people's ratings. The policy for seats
the server had to play (docs/RATINGS.md): such a seat *left*; leavers share the last placement
below everyone who stayed, who are ranked among themselves by score.

The number people see is :func:`display`: OpenSkill's ordinal ``mu − 3σ`` scaled to
``1000 + 40·ordinal`` (a new player shows 1000).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.engine import PRESETS
from app.services.errors import Conflict, NotFound, ValidationFailed
from app.services.records import queries, rating_guards, rating_queries
from app.services.records.model import (
    LeaderboardJson,
    Rating,
    RatingChange,
    RatingChangeJson,
    RatingJson,
)
from app.services.runtime import Runtime
from app.settings import Settings

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma


#: The prefix of the rating pool of matches with a bot account: ``bots:standard``.
BOT_POOL = "bots:"


def bot_pool(preset: str) -> str:
    """The pool a rated match with a bot account counts in: ``bots:<preset>``. People's own
    pools (``<preset>``) never see a bot's match, and a bot never has a rating there.
    """
    return BOT_POOL + preset


def display(mu: float, sigma: float) -> int:
    """The rating people see: ``round(1000 + 40·(mu − 3σ))`` (OpenSkill's ordinal, scaled)."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=40, target=1000))


def rating_json(mu: float, sigma: float, games: int) -> RatingJson:
    """``{"rating", "mu", "sigma", "games"}``."""
    return {"rating": display(mu, sigma), "mu": mu, "sigma": sigma, "games": games}


def new_ratings(
    before: Sequence[tuple[float, float]], places: Sequence[int]
) -> list[tuple[float, float]]:
    """OpenSkill Plackett–Luce update of one match: ``before[i]`` is seat i's ``(mu, sigma)``,
    ``places[i]`` its placement (1 = best; equal numbers tie). Returns the new ``(mu, sigma)``
    by seat. 2–5 seats.
    """
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def placements(scores: Sequence[int], left: Sequence[bool]) -> list[int]:
    """Placement by seat: 1 + the number of staying seats with a higher score; every leaver
    shares the placement after the last staying seat (docs/RATINGS.md).
    """
    stayed = [s for s, gone in zip(scores, left, strict=True) if not gone]
    out = []
    for score, gone in zip(scores, left, strict=True):
        out.append(len(stayed) + 1 if gone else 1 + sum(1 for s in stayed if s > score))
    return out


async def check_lobby(
    conn: AsyncConnection,
    rated: bool,
    preset: str | None,
    seats: Sequence[dict[str, Any]],
    rules: dict[str, Any] | None = None,
) -> None:
    """Refuse a rated lobby that breaks the rules of rated play: a custom rule set, a computer
    seat, or a seat without an account. Raises :class:`ValidationFailed` (``preset``) or
    :class:`Conflict` (seats).
    """
    if not rated:
        return
    if preset not in PRESETS or (rules is not None and rules != PRESETS[preset].to_json()):
        raise ValidationFailed("rated: a rated table plays one of the standard presets, unchanged")
    if any(s.get("bot") for s in seats):
        raise Conflict("rated: computer players cannot sit at a rated table")
    people = [s["player"] for s in seats if s.get("player")]
    if people:
        found = await queries.with_account(conn, people)
        if set(people) - found:
            raise Conflict("rated: only players with an account can sit at a rated table")


async def refuse_bot_account(conn: AsyncConnection, rated: bool, player_id: str) -> None:
    """Rated play with strangers (Play now, rated tournaments) is for people: a bot account
    there would move its opponents' games to the bots' pool (docs/BOT_API.md) without their
    asking. A rated table that invites a bot is the host's choice and is not refused here.
    Raises :class:`Conflict` (reason ``bot_not_rated``).
    """
    if rated and await queries.bot_accounts(conn, [player_id]):
        raise Conflict(
            "a bot account plays rated games only at tables that invite it",
            reason="bot_not_rated",
        )


#: Why a match of a rated table ended unrated: a seat's own player made fewer than a third of
#: the seat's moves (a sock account that never connected, a seat the computer played).
NOT_PLAYED = "not_played"


async def unrated_reason(conn: AsyncConnection, match_id: str, seats: Sequence[int]) -> str | None:
    """None when the finished match may change ratings: every seat in ``seats`` made at least
    a third of its moves itself (``match_actions.by`` null: not the computer for a time-out,
    a hand-over or an abandoned turn). Else :data:`NOT_PLAYED`. docs/RATINGS.md, "Real games".
    """
    moves = await queries.moves_by_seat(conn, match_id)
    for seat in seats:
        total, computer = moves.get(seat, (0, 0))
        own = total - computer
        if own == 0 or 3 * own < total:
            return NOT_PLAYED
    return None


async def rate_match(
    conn: AsyncConnection,
    match_id: str,
    preset: str,
    seats: Sequence[tuple[int, str | None, int]],
    settings: Settings | None = None,
) -> None:
    """Update the ratings of a finished rated match: ``seats`` are ``(seat, player_id,
    placement)``. Seats whose player has no account (deleted meanwhile) or no id are skipped,
    and a match with fewer than two rated seats changes nothing. Idempotent per match. With
    ``settings``, each gain is bounded per opponent
    (:func:`app.services.records.rating_guards.bounded`).
    """
    people = [(seat, pid, place) for seat, pid, place in seats if pid]
    if not people:
        return
    if await rating_queries.is_rated(conn, match_id):
        return
    ids = [pid for _, pid, _ in people]
    with_account = await queries.with_account(conn, ids)
    people = [p for p in people if p[1] in with_account]
    if len(people) < 2:
        return
    if await queries.bot_accounts(conn, ids):
        # A match with a bot account is rated in the bots' pool, apart from people's ratings.
        preset = bot_pool(preset)
    current = {r.player_id: r for r in await rating_queries.ratings_of(conn, preset, ids)}
    before = [
        (current[p].mu, current[p].sigma) if p in current else (MU, SIGMA) for _, p, _ in people
    ]
    after = new_ratings(before, [place for _, _, place in people])
    if settings is not None:
        ids = [pid for _, pid, _ in people if pid]
        after = await rating_guards.bounded(conn, settings, preset, ids, before, after)
    now = utcnow()
    for (seat, pid, _), (mu0, s0), (mu1, s1) in zip(people, before, after, strict=True):
        assert pid is not None
        games = current[pid].games + 1 if pid in current else 1
        rating = Rating(pid, preset, mu1, s1, games)
        await rating_queries.save_rating(conn, rating, exists=pid in current, now=now)
        change = RatingChange(match_id, seat, pid, preset, mu0, s0, mu1, s1)
        await rating_queries.insert_rating_change(conn, change)


async def of_players(
    rt: Runtime, player_ids: Sequence[str], preset: str | None
) -> dict[str, RatingJson]:
    """``{player_id: rating JSON}`` for one preset (players never rated there are absent)."""
    ids = [p for p in player_ids if p]
    if not ids or preset is None:
        return {}
    async with rt.storage.db.reading() as conn:
        rows = await rating_queries.ratings_of(conn, preset, ids)
    return {r.player_id: rating_json(r.mu, r.sigma, r.games) for r in rows}


async def of_player(conn: AsyncConnection, player_id: str) -> dict[str, RatingJson]:
    """``{preset: rating JSON}`` of one player."""
    rows = await rating_queries.player_ratings(conn, player_id)
    return {r.preset: rating_json(r.mu, r.sigma, r.games) for r in rows}


async def changes(rt: Runtime, match_id: str) -> list[RatingChangeJson]:
    """``[{"seat", "player", "preset", "before", "after", "delta"}]`` of a rated match (empty
    when unrated or not yet settled); ``before``/``after`` are displayed ratings.
    """
    async with rt.storage.db.reading() as conn:
        rows = await rating_queries.rating_changes_of(conn, [match_id])
    out: list[RatingChangeJson] = []
    for r in rows:
        b, a = display(r.mu_before, r.sigma_before), display(r.mu_after, r.sigma_after)
        out.append(
            {
                "seat": r.seat,
                "player": r.player_id,
                "preset": r.preset,
                "before": b,
                "after": a,
                "delta": a - b,
            }
        )
    return out


async def unrated_of(rt: Runtime, match_id: str) -> str | None:
    """Why the match of a rated table ended unrated (:data:`NOT_PLAYED`), else None."""
    async with rt.storage.db.reading() as conn:
        return await rating_queries.unrated_reason_of(conn, match_id)


async def leaderboard(
    rt: Runtime, preset: str, limit: int = 50, offset: int = 0
) -> LeaderboardJson:
    """``{"preset", "total", "players": [{"rank", "id", "name", "username", "rating", "mu",
    "sigma", "games"}]}`` best first (by displayed rating). ``preset``: a preset, or a bots'
    pool (``bots:standard``). Raises :class:`NotFound` for an unknown preset.
    """
    if preset.removeprefix(BOT_POOL) not in PRESETS:
        raise NotFound(f"no preset {preset!r}")
    async with rt.storage.replica.reading() as conn:
        total, rows = await rating_queries.leaderboard_page(conn, preset, limit, offset)
    return {
        "preset": preset,
        "total": total,
        "players": [
            {
                "rank": offset + i + 1,
                "id": r.rating.player_id,
                "name": r.name,
                "username": r.username,
                **rating_json(r.rating.mu, r.rating.sigma, r.rating.games),
            }
            for i, r in enumerate(rows)
        ],
    }


def require_preset(preset: str | None) -> str:
    """A known preset name; raises :class:`NotFound`."""
    if preset not in PRESETS:
        raise NotFound(f"no preset {preset!r}")
    return preset
