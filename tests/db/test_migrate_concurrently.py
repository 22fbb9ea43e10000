"""Several instances starting at once on an empty Postgres database all migrate it and live."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app.settings import ROOT
from tests.support.services import MIGRATIONS, create_pg_database, drop_pg_database

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(180)]


def test_three_processes_migrate_one_empty_database_at_once() -> None:
    url = create_pg_database()
    code = (
        "import sys; from pathlib import Path; from app.db.migrate import upgrade; "
        "upgrade(sys.argv[1], Path(sys.argv[2]))"
    )
    try:
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", code, url, str(MIGRATIONS)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            for _ in range(3)
        ]
        outputs = []
        for proc in procs:
            try:
                out, _ = proc.communicate(timeout=150)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            outputs.append((proc.returncode, out.decode(errors="replace")[-2000:]))
        assert all(rc == 0 for rc, _ in outputs), outputs
    finally:
        drop_pg_database(url)
