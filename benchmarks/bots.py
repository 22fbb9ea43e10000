"""Strength of the computer levels (``make bench-bots``): a table of duels.

Each row is ``carcassonne duel`` (seat-rotated games from the same seeds, see
:mod:`app.bots.duel`): A's win rate with its 95 % Wilson interval, A's mean margin over the
best other seat, and the mean seconds per decision of each side. The targets (issue 16):
Strong ≥ 70 % against Normal in 2-player base games at ≤ 1 s per decision, Normal ≥ 90 %
against Easy, Strong ahead of Normal with the River and the Wheel of Fortune.

    python benchmarks/bots.py                          # 20 games per row, Strong thinks 0.5 s
    python benchmarks/bots.py --games 200 --think 1.0  # the full measurement (hours on 2 cores)
    python benchmarks/bots.py --only base,river
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from app.bots.duel import run_duel
from app.engine import Options

ROWS: dict[str, tuple[str, str, Options]] = {
    "base": ("strong", "normal", Options()),
    "easy": ("normal", "easy", Options()),
    "river": ("strong", "normal", Options(expansions=frozenset({"river"}))),
    "wof": ("strong", "normal", Options(expansions=frozenset({"wheel_of_fortune"}))),
    "first_edition": (
        "strong",
        "normal",
        Options(farm_scoring="original", small_city_two_points=True),
    ),
}


def main() -> int:
    """Play the duels and print one line per row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.5, help="Strong: seconds per decision")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", default=",".join(ROWS), help=f"rows: {', '.join(ROWS)}")
    args = parser.parse_args()
    print(
        f"{args.games} games per row, {args.players} players, seed {args.seed}, Strong thinks "
        f"{args.think} s, {args.jobs} processes (a shared machine makes think times noisy)"
    )
    print(
        f"{'row':14} {'A':7} {'B':7} {'games':>5} {'A wins':>7} {'95% CI':>15} "
        f"{'margin':>7} {'A s/dec':>8} {'B s/dec':>8} {'wall s':>7}"
    )
    for name in args.only.split(","):
        a, b, options = ROWS[name]
        started = time.perf_counter()
        s = run_duel(
            a,
            b,
            games=args.games,
            players=args.players,
            seed=args.seed,
            options=options,
            think=args.think,
            jobs=args.jobs,
        ).summary()
        lo, hi = s["ci95"]  # type: ignore[misc]
        print(
            f"{name:14} {a:7} {b:7} {s['games']:5d} {s['win_rate']:7.1%} "
            f"{f'[{lo:.1%}, {hi:.1%}]':>15} {s['mean_margin']:+7.1f} {s['think_a']:8.3f} "
            f"{s['think_b']:8.3f} {time.perf_counter() - started:7.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
