"""``carcassonne serve`` runs on jemalloc where it is installed, and gives freed memory back.

Needs ``libjemalloc.so.2`` (Debian: ``libjemalloc2``): a failure under ``CI=true`` when missing.
How much memory comes back after sockets close is a benchmark figure (``make bench-server``).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.allocator import MARKER, allocator_env, find_jemalloc
from tests.support.servers import AppServer, running
from tests.support.services import unavailable

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def jemalloc() -> Path:
    """The library's path (unavailable: skipped, or a failure under CI)."""
    lib = find_jemalloc()
    if lib is None:
        unavailable("libjemalloc.so.2", "apt-get install libjemalloc2")
    assert lib is not None
    return lib


def _clean_env(tmp_path: Path, allocator: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LD_PRELOAD", "PYTHONMALLOC", "MALLOC_CONF", MARKER, "REDIS_URL")
    }
    env.update(
        ENVIRONMENT="development",
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/carcassonne.db",
        MEMORY_ALLOCATOR=allocator,
        LOG_LEVEL="info",
    )
    return env


@contextlib.contextmanager
def _serve(tmp_path: Path, allocator: str) -> Iterator[tuple[int, Path]]:
    """``python -m app.cli serve`` (the console script's code) until the block ends; yields
    the pid the test started and the log file.
    """
    code = "from app.cli import main; main(['serve', '--port', '{port}'])"
    log = tmp_path / f"serve-{allocator}.log"
    server = AppServer(_clean_env(tmp_path, allocator), log, code=code, cwd=tmp_path)
    with running(server):
        assert server.proc is not None
        yield server.proc.pid, log


def _process(pid: int) -> tuple[str, dict[str, str]]:
    maps = Path(f"/proc/{pid}/maps").read_text()
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    environ = dict(item.decode().split("=", 1) for item in raw if b"=" in item)
    return maps, environ


def test_serve_reexecutes_itself_on_jemalloc(tmp_path: Path, jemalloc: Path) -> None:
    """The same process (same pid, exec'd in place) has jemalloc mapped and allocates every
    Python object with it; it says so in its log and serves.
    """
    with _serve(tmp_path, "auto") as (pid, log):
        maps, environ = _process(pid)
        assert str(jemalloc) in maps
        assert environ["PYTHONMALLOC"] == "malloc"
        assert environ["LD_PRELOAD"].split()[0] == str(jemalloc)
        assert environ[MARKER] == "jemalloc"
    assert "memory allocator: jemalloc" in log.read_text()


def test_pymalloc_keeps_cpythons_allocator(tmp_path: Path, jemalloc: Path) -> None:
    """``MEMORY_ALLOCATOR=pymalloc``: no preload, CPython's own allocator."""
    with _serve(tmp_path, "pymalloc") as (pid, log):
        maps, environ = _process(pid)
        assert "libjemalloc" not in maps
        assert "PYTHONMALLOC" not in environ
    assert "memory allocator: pymalloc" in log.read_text()


RELEASE = """
import gc, os
from app.allocator import release_free_memory, running_allocator

def rss():
    return int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE') // 1024

base = rss()
objs = [str(i) * 3 for i in range(1_000_000)]
full = rss()
del objs
gc.collect()
held = rss()
release_free_memory()
print(running_allocator(), base, full, held, rss())
"""


def test_freed_objects_go_back_to_the_system_when_released(jemalloc: Path) -> None:
    """A million small strings freed: jemalloc keeps their pages (decay disabled here) until
    :func:`release_free_memory` purges them; then the process is back near where it started.
    """
    env = allocator_env(_clean_env(Path("/tmp"), "auto"), "auto", jemalloc)
    assert env is not None
    env["MALLOC_CONF"] = "background_thread:false,dirty_decay_ms:-1,muzzy_decay_ms:-1"
    out = subprocess.run(
        [sys.executable, "-c", RELEASE], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    name, base, full, held, after = out.stdout.split()
    grown = int(full) - int(base)
    assert name == "jemalloc"
    assert grown > 40_000, out.stdout  # KB
    assert int(held) - int(base) > grown / 2, out.stdout  # freed, still with the process
    assert int(after) - int(base) < grown / 5, out.stdout  # given back
