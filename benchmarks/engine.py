"""Engine speed: random 2-player games per second and per-call latency late in a game.

Prints one JSON object. Targets (issue 2, one core): ≥ 50 games/s, ``legal_placements`` p99
≤ 1 ms, ``apply`` p99 ≤ 0.5 ms; (issue 12) loading a state at move 70 from its stored position
p99 ≤ 2 ms, shown beside the same load by replaying the log. Run with ``make bench``; these
are figures, never a test.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from app.engine import (
    Options,
    apply,
    apply_in_place,
    legal_actions,
    legal_placements,
    load_state,
    new_game,
)


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def games_per_second(games: int, pure: bool) -> float:
    """Complete random 2-player base games per second (``pure``: the copying ``apply``)."""
    rng = random.Random(1)
    started = time.perf_counter()
    for seed in range(games):
        state = new_game(None, ["A", "B"], seed=seed)
        while not state.is_over:
            action = rng.choice(legal_actions(state))
            if pure:
                state, _ = apply(state, action)
            else:
                apply_in_place(state, action)
    return games / (time.perf_counter() - started)


def late_game_latency(games: int, from_turn: int = 50) -> dict[str, float]:
    """p50/p99 in microseconds of ``legal_placements`` and ``apply`` after ``from_turn``."""
    rng = random.Random(2)
    lp: list[float] = []
    ap: list[float] = []
    clock = time.perf_counter
    for seed in range(games):
        state = new_game(None, ["A", "B"], seed=10_000 + seed)
        while not state.is_over:
            late = state.turn >= from_turn
            if late and state.phase == "place_tile":
                t0 = clock()
                legal_placements(state)
                lp.append(clock() - t0)
            action = rng.choice(legal_actions(state))
            t0 = clock()
            state, _ = apply(state, action)
            if late:
                ap.append(clock() - t0)
    return {
        "legal_placements_p50_us": round(statistics.median(lp) * 1e6, 1),
        "legal_placements_p99_us": round(_percentile(lp, 0.99) * 1e6, 1),
        "apply_p50_us": round(statistics.median(ap) * 1e6, 1),
        "apply_p99_us": round(_percentile(ap, 0.99) * 1e6, 1),
        "samples": len(lp) + len(ap),
    }


def snapshot_load(games: int, move: int = 70) -> dict[str, float]:
    """p50/p99 in milliseconds of loading a game at ``move`` (tiles placed) from its JSON.

    From the stored position (``load_state``) and by replaying the action log.
    """
    rng = random.Random(3)
    from_position: list[float] = []
    from_log: list[float] = []
    clock = time.perf_counter
    tilesets = [
        Options(),
        Options(expansions=frozenset({"river"})),
        Options(expansions=frozenset({"wheel_of_fortune"})),
    ]
    for seed in range(games):
        state = new_game(tilesets[seed % len(tilesets)], ["A", "B", "C"], seed=20_000 + seed)
        while state.turn < move and not state.is_over:
            apply_in_place(state, rng.choice(legal_actions(state)))
        stored = json.loads(json.dumps(state.to_json()))
        legacy = {k: v for k, v in stored.items() if k != "position"}
        t0 = clock()
        load_state(stored)
        from_position.append(clock() - t0)
        t0 = clock()
        load_state(legacy)
        from_log.append(clock() - t0)
    return {
        "snapshot_load_move": move,
        "snapshot_load_p50_ms": round(statistics.median(from_position) * 1e3, 3),
        "snapshot_load_p99_ms": round(_percentile(from_position, 0.99) * 1e3, 3),
        "replay_load_p50_ms": round(statistics.median(from_log) * 1e3, 3),
        "replay_load_p99_ms": round(_percentile(from_log, 0.99) * 1e3, 3),
    }


def main() -> None:
    """Run the benchmark and print the figures as JSON."""
    games_per_second(5, pure=True)  # warm-up
    result = {
        "games_per_second_pure_apply": round(games_per_second(200, pure=True), 1),
        "games_per_second_in_place": round(games_per_second(200, pure=False), 1),
        **late_game_latency(100),
        **snapshot_load(150),
        "targets": {
            "games_per_second": 50,
            "legal_placements_p99_us": 1000,
            "apply_p99_us": 500,
            "snapshot_load_p99_ms": 2,
        },
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
