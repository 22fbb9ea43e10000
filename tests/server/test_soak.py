"""The chaos run, short: ``benchmarks/soak.py --short`` passes all its checks.

Three real instances, a fresh Postgres database, a private Redis, a dozen tables of every rule
set played to the end over websockets while an instance is SIGKILLed (twice), Redis pauses
writes and restarts, Postgres restarts and a client process is SIGSTOPped for 20 s; then no
acknowledged action lost, nothing duplicated, no socket behind the database for more than 5 s,
every record replays to the stored scores, no 5xx, no traceback (see the script's docstring).

Postgres restarts on a cluster of the run's own (``--postgres private``: ``initdb`` into a
temporary folder), never the machine's: the other workers' tests use that one meanwhile.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.settings import ROOT
from tests.support.services import unavailable

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.machine,
    pytest.mark.timeout(900),
]


def _private_postgres() -> None:
    """The run restarts Postgres: only ever a cluster of its own (``--postgres private``:
    ``initdb`` into a temporary folder, run as ``postgres`` when root). Without the server
    binaries (or that user) the test is skipped, or fails under ``CI=true``: it never falls
    back to the machine's cluster.
    """
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        unavailable("Postgres server binaries", "no /usr/lib/postgresql/*/bin/initdb")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            unavailable("the postgres user", "root cannot run a private cluster without it")


def test_short_soak_passes_every_check(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:  # the run's Redis is a private redis-server
        unavailable("redis-server", "not on PATH")
    _private_postgres()
    args = ["--short", "--seed", "3", "--logs", str(tmp_path / "soak"), "--postgres", "private"]
    proc = subprocess.Popen(
        [sys.executable, "benchmarks/soak.py", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its instances, Redis, Postgres and clients die with its group
    )
    try:
        out, _ = proc.communicate(timeout=840)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    print(out)
    assert proc.returncode == 0, out[-6000:]
    report = out[out.index("soak report:") :]
    assert "FAIL" not in report, report
    for check in ("acknowledged actions lost: 0 ", "duplicated: 0 deliveries"):
        assert check in report, report
