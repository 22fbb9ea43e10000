"""Bot against bot: seat-rotated games from the same seeds, in parallel processes.

``run_duel`` plays, for each seed, one game per seat rotation (two players: the same deck with
A first, then B first), so luck of the draw cancels out. It reports A's win rate (a tie counts
half) with a 95 % Wilson interval, A's mean margin over the best other seat, and the mean
think time per decision of each side. Used by ``carcassonne duel`` and ``benchmarks/bots.py``.
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from app.bots import decide
from app.bots.public import redacted
from app.engine import Action, Options, apply_in_place, new_game


@dataclass
class Game:
    """One finished game: ``a_seat``, final ``scores``, decisions and seconds per side."""

    seed: int
    a_seat: int
    scores: list[int]
    decisions: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def margin(self) -> int:
        """A's score minus the best other seat's."""
        return self.scores[self.a_seat] - max(
            s for i, s in enumerate(self.scores) if i != self.a_seat
        )

    @property
    def result(self) -> float:
        """1 for a win of A, 0.5 for a shared first place, 0 for a loss."""
        best = max(self.scores)
        if self.scores[self.a_seat] < best:
            return 0.0
        return 1.0 if self.scores.count(best) == 1 else 0.5


def play_game(
    options: Options, players: int, seed: int, a_seat: int, a: str, b: str, *, think: float
) -> Game:
    """One game: level ``a`` in ``a_seat``, level ``b`` elsewhere, deck from ``seed``."""
    state = new_game(options, [f"P{i}" for i in range(players)], seed=seed)
    rngs = {side: random.Random(f"{seed}:{a_seat}:{side}") for side in ("a", "b")}
    game = Game(seed, a_seat, [], {"a": 0, "b": 0}, {"a": 0.0, "b": 0.0})
    pending: list[Action] = []  # the follower decision a Strong bot planned with its placement
    while not state.is_over:
        side = "a" if state.seat == a_seat else "b"
        if pending and pending[0].seat == state.seat:
            action = pending.pop(0)
        else:
            started = time.perf_counter()
            actions = decide(redacted(state), rngs[side], a if side == "a" else b, think)
            game.seconds[side] += time.perf_counter() - started
            game.decisions[side] += 1
            action, pending = actions[0], actions[1:]
        apply_in_place(state, action)
    game.scores = list(state.scores)
    return game


def _play(args: tuple[Options, int, int, int, str, str, float]) -> Game:
    options, players, seed, a_seat, a, b, think = args
    return play_game(options, players, seed, a_seat, a, b, think=think)


@dataclass
class DuelResult:
    """Summary of a duel (see the module docstring)."""

    games: list[Game]

    def summary(self) -> dict[str, object]:
        """``{"games", "win_rate", "ci95": [lo, hi], "mean_margin", "think_a", "think_b"}``
        (think: mean seconds per decision).
        """
        n = len(self.games)
        p = sum(g.result for g in self.games) / n if n else 0.0
        lo, hi = wilson(p, n)
        da = sum(g.decisions["a"] for g in self.games) or 1
        db = sum(g.decisions["b"] for g in self.games) or 1
        return {
            "games": n,
            "win_rate": round(p, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "mean_margin": round(sum(g.margin for g in self.games) / max(n, 1), 1),
            "think_a": round(sum(g.seconds["a"] for g in self.games) / da, 3),
            "think_b": round(sum(g.seconds["b"] for g in self.games) / db, 3),
        }


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` over ``n`` trials (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run_duel(
    a: str,
    b: str,
    *,
    games: int,
    players: int = 2,
    seed: int = 1,
    options: Options | None = None,
    think: float = 1.0,
    jobs: int = 1,
) -> DuelResult:
    """Play ``games`` games (rounded up to whole seat rotations) of ``a`` against ``b`` in
    ``jobs`` processes; seeds ``seed``, ``seed + 1``, ….
    """
    options = options or Options()
    rounds = max(1, math.ceil(games / players))
    tasks = [
        (options, players, seed + r, k, a, b, think) for r in range(rounds) for k in range(players)
    ]
    if jobs <= 1:
        return DuelResult([_play(t) for t in tasks])
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return DuelResult(list(pool.map(_play, tasks)))
