"""A best-of-N series at one table (1, 3 or 5 games; 2 to 5 players): the same seats play
game after game with the same rules and time control, the start player rotating one seat each
game, until one player has won more games than any other can still reach, or N were played.

How a game counts (docs/API.md § Series): the game's winners — place 1 of its verdict
(:mod:`app.services.records.verdict`: a seat that left is ranked last) — share one point
(a 2-player draw: ½ each). After N games a level score stays level: the series is drawn
between the leaders.

The series lives on the lobby row (``lobbies.series``; JSON)::

    {"best_of": 3, "status": "playing" | "decided",
     "seats": [match seats of game 1, in its turn order: the series seats],
     "games": [{"match": id, "first": series seat that started, "points": [by series seat]
                | null while it is played}],
     "score": [points by series seat], "winners": [series seats] | null}

Game ``k`` (0-based) seats the series seats in turn order from series seat ``k mod n``: its
match seat ``i`` is series seat ``(i + k) mod n``. Counting a game and dealing the next one
happen in one transaction under the lobby row's lock, so a game counts once and the next game
is dealt once, whichever instance hears of the end first (the ``move_committed`` subscriber,
or its sweep for a match that ended without a move or whose news was lost:
:mod:`app.services.lobby.series_games`). This module holds the rules and the reading.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import TypeGuard

from app.json_types import JsonObject
from app.services.errors import Forbidden, NotFound, ValidationFailed
from app.services.lobby import series_queries
from app.services.lobby.model import SeriesJson, SeriesState
from app.services.runtime import Runtime

#: The series lengths a table may choose.
BEST_OF = (1, 3, 5)


def check_best_of(best_of: int | None) -> int | None:
    """``best_of`` as stored (None for one game); raises :class:`ValidationFailed` unless it
    is None, 1, 3 or 5.
    """
    if best_of is None:
        return None
    if best_of not in BEST_OF:
        raise ValidationFailed("a series is best of 1, 3 or 5 games", reason="series_length")
    return None if best_of == 1 else best_of


def new_series(best_of: int, seats: list[JsonObject], match_id: str) -> SeriesState:
    """The series JSON at its first deal: ``seats`` are game 1's match seats."""
    return {
        "best_of": best_of,
        "status": "playing",
        "seats": seats,
        "games": [{"match": match_id, "first": 0, "points": None}],
        "score": [0.0] * len(seats),
        "winners": None,
    }


def is_running(series: SeriesState | None) -> TypeGuard[SeriesState]:
    """Whether a series is still being played (a rematch waits for its end)."""
    return series is not None and series.get("status") == "playing"


def game_points(places: Sequence[int]) -> list[float]:
    """One point shared by the seats in place 1 (``places`` by seat, 1 = first)."""
    best = min(places)
    winners = [i for i, p in enumerate(places) if p == best]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(places))]


def decided_winners(score: Sequence[float], played: int, best_of: int) -> list[int] | None:
    """The series seats that won the series, or None while it goes on: once a leader has more
    points than any other can still reach in the games left, or all ``best_of`` were played
    (then every seat level on the top score shares the win).
    """
    left = best_of - played
    top = max(score)
    leaders = [i for i, s in enumerate(score) if s == top]
    if left <= 0:
        return leaders
    if len(leaders) == 1 and all(top > s + left for i, s in enumerate(score) if i != leaders[0]):
        return leaders
    return None


def rotated(seats: list[JsonObject], first: int) -> list[JsonObject]:
    """The series seats in turn order from series seat ``first``, renumbered as match seats."""
    n = len(seats)
    return [{**seats[(i + first) % n], "seat": i} for i in range(n)]


# ---------------------------------------------------------------------- reading


async def of_match(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None
) -> SeriesJson:
    """The series match ``match_id`` belongs to, as docs/API.md § Series shows it:
    ``{"best_of", "status", "game" (1-based number of this match), "games": [{"match",
    "first", "points"}], "players": [{"seat", "name", "colour", "player", "bot"}], "score",
    "winners", "next_match"}``. ``next_match``: the game after this one, once dealt.

    Raises :class:`NotFound` (no such match, or not a series game), :class:`Forbidden` (a
    private match without its seat or invite code).
    """
    async with rt.storage.db.reading() as conn:
        m = await series_queries.series_game(conn, match_id)
    if m is None:
        raise NotFound("no such match")
    seated = player_id is not None and any(s.get("player") == player_id for s in m.seats)
    holds_code = code is not None and hmac.compare_digest(code.encode(), m.lobby_code.encode())
    if m.private and not seated and not holds_code:
        raise Forbidden(
            "this match is private: open it with its invite code", reason="match_private"
        )
    series = m.series
    ids = [g["match"] for g in series["games"]] if series else []
    if series is None or match_id not in ids:
        raise NotFound("this match is not part of a series", reason="no_series")
    n = ids.index(match_id)
    return {
        "best_of": series["best_of"],
        "status": series["status"],
        "game": n + 1,
        "games": series["games"],
        "players": [
            {k: s.get(k) for k in ("seat", "name", "colour", "player", "bot")}
            for s in series["seats"]
        ],
        "score": series["score"],
        "winners": series["winners"],
        "next_match": ids[n + 1] if n + 1 < len(ids) else None,
    }
