"""The load benchmark still runs, against our server and against the bare yardstick.

A tiny load (2 matches, a few seconds): the figures mean nothing here (speed lives in
``make bench-server``); what is checked is that the bench starts its server, plays, prints its
table and leaves no process behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

import pytest

from app.settings import ROOT
from tests.support.services import check_redis, create_pg_database, drop_pg_database

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]


def _bench(*args: str) -> str:
    """Run ``benchmarks/load.py`` in a session of its own; kill the whole group on the way out
    (the bench's server too, even when the bench hangs or the test fails).
    """
    check_redis()
    url = create_pg_database()
    proc = subprocess.Popen(
        [sys.executable, "benchmarks/load.py", *args, "--database-url", url],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=240)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        drop_pg_database(url)
    assert proc.returncode == 0, out[-3000:]
    return out


@pytest.mark.parametrize("bare", [None, "asyncpg", "sqlalchemy"])
def test_a_small_load_runs_and_reports(bare: str | None) -> None:
    """Two matches played for 3 s: one ``latency`` row with actions, a CPU figure and no
    errors, and the lines of what a move cost under it, for our server and for both bare
    pipelines.
    """
    extra = ["--bare", bare] if bare else []
    out = _bench(
        *extra,
        "--matches",
        "2",
        "--mode",
        "latency",
        "--duration",
        "3",
        "--warmup",
        "1",
        "--idle",
        "0",
    )
    rows = [line.split() for line in out.splitlines() if line.startswith("latency")]
    assert len(rows) == 1, out[-3000:]
    row = rows[0]
    assert row[1] == "2" and int(row[2]) >= 1, out[-3000:]  # matches, actions/s
    assert float(row[5]) > 0, out[-3000:]  # server CPU per action
    assert len(row) == 10, f"errors reported: {row[10:]}"  # games is the last column
    assert ("bare pipeline" in out) == (bare is not None)
    # Under the row, what a move cost: loop stalls and GC pauses, the stores and statements
    # per action, and (our server's /metrics) each move-committed subscriber's time.
    assert "stalls over 20 ms" in out and "GC: " in out and "over 10 ms" in out, out[-3000:]
    per_action = [line for line in out.splitlines() if line.strip().startswith("per action:")]
    assert len(per_action) == 1 and "commits" in per_action[0], out[-3000:]
    assert "WAL bytes" in per_action[0] and "Redis" in per_action[0], per_action
    if bare is None:
        assert "statements (asyncpg" in per_action[0], per_action
        assert "match-row updates" in per_action[0], per_action
        assert "move committed, µs per action: delivery " in out, out[-3000:]
    else:
        assert "statements n/a" in per_action[0], per_action
        assert "move committed" not in out, out[-3000:]
