"""Start-up benchmark: seconds from launching ``carcassonne serve`` to its first healthy answer.

Launches what the ``carcassonne serve`` console script runs (jemalloc re-exec included), from
``--root``'s checkout, in a temporary folder, polls ``/healthz`` every 5 ms and prints the time
until it answers 200 and until ``/readyz`` does; ``--runs`` times. The first run creates the
database (migrations); the others are restarts, whose median is the figure (``--fresh``: every
run from an empty folder).

    python benchmarks/startup.py                      # embedded default (SQLite, no Redis)
    python benchmarks/startup.py --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/x \
        --redis-url redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.support.servers import AppServer  # noqa: E402 - the one server starter


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=0.5) as response:  # noqa: S310 - local URL
            return int(response.status)
    except Exception:  # noqa: BLE001 - not up yet
        return 0


def one_run(root: Path, folder: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds to ``/healthz`` 200 and to ``/readyz`` 200 for one start in ``folder``."""
    # What the ``carcassonne`` console script runs, with ``root``'s code first on the path (an
    # editable install would otherwise import the checkout it was installed from).
    code = "import sys; from app.cli import main; sys.exit(main(['serve', '--port', '{port}']))"
    server = AppServer(
        {**env, "PYTHONPATH": str(root)},
        folder.parent / f"{folder.name}.log",
        code=code,
        cwd=folder,
    )
    port = server.port
    started = time.perf_counter()
    proc = server.launch().proc
    assert proc is not None
    healthy = ready = float("nan")
    try:
        base = f"http://127.0.0.1:{port}"
        while time.perf_counter() - started < 30:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode}")
            if healthy != healthy and _status(base + "/healthz") == 200:
                healthy = time.perf_counter() - started
            if healthy == healthy and _status(base + "/readyz") == 200:
                ready = time.perf_counter() - started
                break
            time.sleep(0.005)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return healthy, ready


def main() -> int:
    """Start the server ``--runs`` times and print each time and the median."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to start")
    parser.add_argument("--database-url", help="default: the embedded SQLite file")
    parser.add_argument("--redis-url", help="default: the in-process broker")
    parser.add_argument("--fresh", action="store_true", help="a new empty folder every run")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(ENVIRONMENT="development", LOG_LEVEL="warning")
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    if args.redis_url:
        env["REDIS_URL"] = args.redis_url
    healthy: list[float] = []
    with tempfile.TemporaryDirectory() as keep:
        for run in range(args.runs):
            with tempfile.TemporaryDirectory() as fresh:
                folder = Path(fresh if args.fresh else keep)
                h, r = one_run(args.root, folder, env)
            healthy.append(h)
            print(f"run {run + 1}: healthy {h:.3f} s, ready {r:.3f} s", flush=True)
    restarts = healthy[1:] if len(healthy) > 1 and not args.fresh else healthy
    print(f"median to healthy (restarts): {statistics.median(restarts):.3f} s ({args.root})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
