"""The memory allocator the server runs on: jemalloc where the system has it, so that the memory
of closed sockets goes back to the system.

Why (issue 9, docs/PERFORMANCE.md "Memory after sockets close"): CPython 3.11 keeps small objects
in its own 1 MiB arenas (pymalloc) and returns an arena only when every block in it is free.
After a wave of sockets closes, the process's ordinary long-lived allocations land in the
wave's arenas, a few blocks each, and keep ~30 of the ~37 MB a thousand sockets grew. Under
jemalloc (``LD_PRELOAD`` + ``PYTHONMALLOC=malloc``, every object allocated by jemalloc) memory is
kept in page-sized slabs and a background thread returns free pages: ~8 MB kept instead of ~30,
for the same CPU per action (measured on the load bench and the engine bench).

The preload must be in place before the interpreter starts, so ``carcassonne serve`` re-executes
itself once with the environment :func:`allocator_env` returns. ``MEMORY_ALLOCATOR`` chooses:
``auto`` (jemalloc when ``libjemalloc.so.2`` is installed, else CPython's own with a warning),
``jemalloc`` (required: the server refuses to start without it), ``pymalloc`` (never re-exec).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import sys
import sysconfig
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

log = logging.getLogger(__name__)

Allocator = Literal["auto", "jemalloc", "pymalloc"]

#: The shared library's soname (Debian/Ubuntu package ``libjemalloc2``, Fedora ``jemalloc``).
JEMALLOC = "libjemalloc.so.2"

#: jemalloc's options unless the environment sets ``MALLOC_CONF`` itself: a background thread
#: returns free pages on its own clock (the default decay, 10 s), even while the server is idle.
JEMALLOC_CONF = "background_thread:true"

#: Set in the re-executed process: it never re-executes again, whatever it finds.
MARKER = "CARCASSONNE_ALLOCATOR"


class AllocatorMissing(RuntimeError):
    """``MEMORY_ALLOCATOR=jemalloc`` but no ``libjemalloc.so.2`` was found."""


def find_jemalloc(dirs: list[Path] | None = None) -> Path | None:
    """The path of ``libjemalloc.so.2`` in the system's library directories, or None.

    ``dirs`` defaults to ``/usr/lib/<multiarch>``, ``/lib/<multiarch>``, ``/usr/lib64``,
    ``/usr/lib`` and ``/usr/local/lib`` (``<multiarch>``: e.g. ``x86_64-linux-gnu``).
    """
    if dirs is None:
        arch = sysconfig.get_config_var("MULTIARCH") or ""
        names = [f"/usr/lib/{arch}", f"/lib/{arch}"] if arch else []
        dirs = [Path(d) for d in [*names, "/usr/lib64", "/usr/lib", "/usr/local/lib"]]
    for directory in dirs:
        candidate = directory / JEMALLOC
        if candidate.is_file():
            return candidate
    return None


def allocator_env(
    environ: Mapping[str, str], allocator: Allocator, library: Path | None
) -> dict[str, str] | None:
    """The environment to re-execute the server in so that jemalloc allocates every object, or
    None when nothing is to change.

    ``environ``: the current environment; ``library``: :func:`find_jemalloc`'s answer. None
    when ``allocator`` is ``pymalloc``, when this process is already the re-executed one
    (:data:`MARKER`), or (``auto``) when there is no library. The returned environment adds the
    library in front of ``LD_PRELOAD``, ``PYTHONMALLOC=malloc``, ``MALLOC_CONF`` (unless set) and
    the marker.

    Raises :class:`AllocatorMissing` when ``allocator`` is ``jemalloc`` and ``library`` is None.
    """
    if allocator == "pymalloc" or environ.get(MARKER):
        return None
    if library is None:
        if allocator == "jemalloc":
            raise AllocatorMissing(
                f"MEMORY_ALLOCATOR=jemalloc but {JEMALLOC} was not found "
                "(Debian/Ubuntu: apt-get install libjemalloc2)"
            )
        return None
    env = dict(environ)
    preload = [str(library), *(p for p in environ.get("LD_PRELOAD", "").split() if p)]
    env["LD_PRELOAD"] = " ".join(preload)
    env["PYTHONMALLOC"] = "malloc"
    env.setdefault("MALLOC_CONF", JEMALLOC_CONF)
    env[MARKER] = "jemalloc"
    return env


def reexec_under(allocator: Allocator) -> None:
    """Replace this process by the same command under jemalloc (see :func:`allocator_env`);
    returns only when nothing is to change.

    Uses ``sys.orig_argv`` (the interpreter's own command line, ``-m``/``-c`` included). Raises
    :class:`AllocatorMissing` as :func:`allocator_env` does, and ``OSError`` when the exec fails
    under ``jemalloc`` (under ``auto`` the server goes on on CPython's allocator, with a warning).
    """
    env = allocator_env(os.environ, allocator, find_jemalloc())
    if env is None:
        if allocator == "auto" and not os.environ.get(MARKER):
            log.warning(
                "memory allocator: CPython's own (%s not found: apt-get install libjemalloc2); "
                "memory of closed sockets stays with the process",
                JEMALLOC,
            )
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, sys.orig_argv, env)
    except OSError as exc:
        if allocator == "jemalloc":
            raise
        log.warning("memory allocator: CPython's own (re-executing on jemalloc failed: %s)", exc)


def running_allocator() -> str:
    """``jemalloc`` when jemalloc is mapped into this process and allocates Python's objects
    (``PYTHONMALLOC=malloc``), ``malloc`` when the C library's malloc does (the preload failed),
    else ``pymalloc``. Reads ``/proc/self/maps`` (Linux; elsewhere never ``jemalloc``).
    """
    if os.environ.get("PYTHONMALLOC") != "malloc":
        return "pymalloc"
    with contextlib.suppress(OSError):
        if "libjemalloc" in Path("/proc/self/maps").read_text():
            return "jemalloc"
    return "malloc"


def release_free_memory() -> None:
    """Return the allocator's free pages to the system now: jemalloc purges every arena
    (``mallctl("arena.4096.purge")``), glibc trims its heaps (``malloc_trim(0)``); nothing
    elsewhere. Never raises.
    """
    with contextlib.suppress(OSError, AttributeError):
        process = ctypes.CDLL(None)
        mallctl = getattr(process, "mallctl", None)
        if mallctl is not None:  # jemalloc is preloaded: MALLCTL_ARENAS_ALL is 4096
            mallctl(b"arena.4096.purge", None, None, None, ctypes.c_size_t(0))
            return
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def configured_allocator() -> Allocator:
    """``MEMORY_ALLOCATOR`` as the settings would read it, without importing them when the
    environment alone decides (no ``.env`` file here): the process that re-executes itself
    on jemalloc then skips pydantic-settings' ~0.1 s import. Raises the settings' validation
    error for a bad value.
    """
    value = os.environ.get("MEMORY_ALLOCATOR", "auto")
    if not Path(".env").exists() and value in ("auto", "jemalloc", "pymalloc"):
        return value  # type: ignore[return-value]
    from app.settings import get_settings

    return get_settings().memory_allocator
