"""``carcassonne``: one console script — ``serve``, ``replay``, ``verify``, ``simulate`` and
``duel``.

``replay RECORD.json [--events]`` checks every move of a ``carcassonne-record/1`` file and prints
one JSON object (``scores`` by seat, ``winners``, and with ``--events`` every event); an illegal or
malformed record exits with status 1 and names the move. ``verify RECORD.json [--commitment
HEX]`` checks a finished match's shuffle (app/engine/record/fairness.py): the revealed seed and salt
against the commitment, every drawn tile against the committed deck, every move; it prints each
check and exits 1 on the first failure. ``simulate`` plays random legal games and
prints throughput. ``duel`` plays computer levels against each other (seat-rotated pairs from
the same seeds) and prints A's win rate with a 95 % interval, the mean margin and think time.
``conformance DIR`` replays every record of a folder (docs/conformance/ is the published
corpus) and prints agreement per file and a summary, exiting 1 on any disagreement; with
``--build`` it first rebuilds the corpus into DIR from engine games (app/conformance/corpus.py).
``analyse RECORD.json [--json] [--playouts N]`` has the Strong computer player weigh every
move of a finished record (app/bots/analysis.py) and prints, per move, the estimated final
margin of the mover before and after it, the move it would have chosen and blunder marks, then
the biggest swings (``--json``: the ``carcassonne-analysis/1`` document the server stores).
``serve`` migrates the database and runs the web service.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # each command imports what it needs: ``serve`` re-executes itself first
    from app.engine import Options


def _read_record(path: str) -> object:
    """The JSON of a record file; prints why and returns None when unreadable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"error: {path} is not JSON: {exc}", file=sys.stderr)
        return None


def _cmd_verify(args: argparse.Namespace) -> int:
    from app.engine.record.fairness import verify_record

    record = _read_record(args.record)
    if record is None:
        return 1
    verdict = verify_record(record, args.commitment)
    for name, passed, detail in verdict.checks:
        print(f"{'ok  ' if passed else 'FAIL'} {name}: {detail}")
    print("the shuffle is verified" if verdict.ok else f"NOT verified: {verdict.problem}")
    return 0 if verdict.ok else 1


def _cmd_replay(args: argparse.Namespace) -> int:
    from app.engine import EngineError, event_to_json, replay

    try:
        text = Path(args.record).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"error: cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"error: {args.record} is not JSON: {exc}", file=sys.stderr)
        return 1
    try:
        state, events = replay(record)
    except EngineError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    out: dict[str, object] = {
        "scores": state.scores,
        "winners": list(state.winners),
        "finished": state.is_over,
        "players": list(state.players),
        "moves": sum(1 for e in events if type(e).__name__ == "TilePlaced"),
    }
    if args.events:
        out["events"] = [event_to_json(e) for e in events]
    print(json.dumps(out))
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from app.bots.analysis import analyse
    from app.engine import EngineError

    record = _read_record(args.record)
    if record is None:
        return 1
    try:
        result = analyse(record, playouts=args.playouts, seed=args.seed)
    except EngineError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result))
        return 0
    print(_analysis_text(result))
    return 0


def _where(move: dict[str, object]) -> str:
    at = move["at"]
    assert isinstance(at, list)
    follower = move["follower"] or "no follower"
    return f"({at[0]},{at[1]}) r{move['rotation']} {follower}"


def _analysis_text(result: dict[str, object]) -> str:
    """The analysis as lines a person reads (``carcassonne analyse``)."""
    players = result["players"]
    moves = result["moves"]
    assert isinstance(players, list) and isinstance(moves, list)
    lines = [
        f"analysis by the strong computer player ({result['playouts']} playouts per move, "
        f"{result['seconds']} s); margins are estimated final points over the best opponent",
        f"{'move':>4}  {'player':<12} {'tile':<5} {'before':>7} {'after':>7} {'loss':>6}  "
        "played / suggested",
    ]
    for m in moves:
        mark = "  BLUNDER" if m["blunder"] else ""
        same = m["played"] == m["best"]
        lines.append(
            f"{m['n']:>4}  {str(players[m['seat']])[:12]:<12} {m['tile']:<5} {m['before']:>7} "
            f"{m['after']:>7} {m['loss']:>6}  {_where(m['played'])}"
            + ("" if same else f" / {_where(m['best'])}")
            + mark
        )
    lines.append("biggest swings:")
    swings = result["swings"]
    assert isinstance(swings, list)
    for s in swings:
        lines.append(f"  move {s['n']}: {players[s['seat']]} lost {s['loss']}")
    lines.append(f"final scores: {result['scores']}")
    return "\n".join(lines)


def _options(args: argparse.Namespace) -> Options | None:
    """The rules options of ``simulate``/``duel`` from their flags; None (after printing the
    engine's message) when they are invalid.
    """
    from app.engine import EngineError, Options

    try:
        return Options.from_json(
            {
                "tileset": args.tileset,
                "river": args.river,
                "farm_scoring": args.farm_scoring,
                "small_city_two_points": args.small_city,
            }
        )
    except EngineError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return None


def _cmd_simulate(args: argparse.Namespace) -> int:
    from app.engine import apply_in_place, export_record, legal_actions, new_game

    players = [f"P{i + 1}" for i in range(args.players)]
    records = Path(args.records) if args.records else None
    if records:
        records.mkdir(parents=True, exist_ok=True)
    options = _options(args)
    if options is None:
        return 1
    rng = random.Random(args.seed)
    actions = 0
    totals = [0] * args.players
    started = time.perf_counter()
    for game in range(args.games):
        state = new_game(options, players, seed=args.seed + game)
        while not state.is_over:
            apply_in_place(state, rng.choice(legal_actions(state)))
            actions += 1
        for seat, score in enumerate(state.scores):
            totals[seat] += score
        if records:
            path = records / f"game-{args.seed + game:06d}.json"
            path.write_text(json.dumps(export_record(state), indent=1), encoding="utf-8")
    elapsed = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": args.games,
                "players": args.players,
                "seconds": round(elapsed, 3),
                "games_per_second": round(args.games / elapsed, 1) if elapsed else None,
                "actions_per_second": round(actions / elapsed) if elapsed else None,
                "mean_scores": [round(t / max(args.games, 1), 1) for t in totals],
            }
        )
    )
    return 0


def _cmd_duel(args: argparse.Namespace) -> int:
    from app.bots.duel import run_duel

    options = _options(args)
    if options is None:
        return 1
    started = time.perf_counter()
    result = run_duel(
        args.a,
        args.b,
        games=args.games,
        players=args.players,
        seed=args.seed,
        options=options,
        think=args.think,
        jobs=args.jobs,
    )
    out = {
        "a": args.a,
        "b": args.b,
        "players": args.players,
        "rules": options.to_json(),
        "think": args.think,
        **result.summary(),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(out))
    return 0


def _cmd_conformance(args: argparse.Namespace) -> int:
    from app.conformance.check import check_directory

    directory = Path(args.dir)
    if args.build:
        from app.conformance.corpus import write_corpus

        extra = [Path(p) for p in args.include or []]
        write_corpus(directory, extra, progress=lambda line: print(f"built {line}"))
    try:
        results = check_directory(directory)
    except NotADirectoryError:
        print(f"error: {directory} is not a folder", file=sys.stderr)
        return 1
    for result in results:
        print(result.line())
    failed = sum(1 for r in results if not r.ok)
    print(
        f"{len(results) - failed} of {len(results)} records agree"
        + (f", {failed} disagree" if failed else "")
    )
    return 1 if failed or not results else 0


def _cmd_serve(args: argparse.Namespace) -> int:
    # Imported lazily: the engine commands need no web stack.
    from app.allocator import configured_allocator, reexec_under

    reexec_under(configured_allocator())  # jemalloc where installed (app/allocator.py)
    from app.server import serve

    serve(host=args.host, port=args.port)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``carcassonne`` console script; returns the exit status."""
    parser = argparse.ArgumentParser(prog="carcassonne", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="check and score a carcassonne-record/1 file")
    p.add_argument("record")
    p.add_argument("--events", action="store_true", help="include every event")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("verify", help="check a finished record's shuffle against its commitment")
    p.add_argument("record")
    p.add_argument("--commitment", help="the commitment published when the match started")
    p.set_defaults(func=_cmd_verify)

    p = sub.add_parser("analyse", help="the strong computer player weighs every move of a record")
    p.add_argument("record")
    p.add_argument("--json", action="store_true", help="print the carcassonne-analysis/1 JSON")
    p.add_argument("--playouts", type=int, default=16, help="imagined futures per move (0: none)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=_cmd_analyse)

    p = sub.add_parser("simulate", help="play random legal games")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, default=2, choices=range(2, 6))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tileset", choices=("base", "wheel_of_fortune"), default="base")
    p.add_argument("--river", action="store_true")
    p.add_argument("--farm-scoring", choices=("modern", "original"), default="modern")
    p.add_argument("--small-city", action="store_true")
    p.add_argument("--records", metavar="DIR", help="write each game as a record in DIR")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("duel", help="bot against bot: seat-rotated games from the same seeds")
    p.add_argument("--a", choices=("easy", "normal", "strong"), default="strong")
    p.add_argument("--b", choices=("easy", "normal", "strong"), default="normal")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=2, choices=range(2, 6))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tileset", choices=("base", "wheel_of_fortune"), default="base")
    p.add_argument("--river", action="store_true")
    p.add_argument("--farm-scoring", choices=("modern", "original"), default="modern")
    p.add_argument("--small-city", action="store_true")
    p.add_argument("--think", type=float, default=1.0, help="Strong: seconds per decision")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    p.set_defaults(func=_cmd_duel)

    p = sub.add_parser("conformance", help="replay a folder of records and report agreement")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--build", action="store_true", help="rebuild the corpus into DIR first")
    p.add_argument("--include", nargs="*", metavar="RECORD", help="with --build: copy these too")
    p.set_defaults(func=_cmd_conformance)

    p = sub.add_parser("serve", help="migrate the database and serve the web app")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=_cmd_serve)

    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
