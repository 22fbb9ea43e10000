"""The server's allocator choice (app/allocator.py): the environment it re-executes in."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.allocator import (
    JEMALLOC,
    JEMALLOC_CONF,
    MARKER,
    AllocatorMissing,
    allocator_env,
    find_jemalloc,
    reexec_under,
)

LIB = Path("/usr/lib/x86_64-linux-gnu") / JEMALLOC


def test_auto_preloads_jemalloc_for_every_object() -> None:
    """With the library: preloaded, every object allocated by it, a background thread."""
    env = allocator_env({"PATH": "/bin"}, "auto", LIB)
    assert env is not None
    assert env["LD_PRELOAD"] == str(LIB)
    assert env["PYTHONMALLOC"] == "malloc"
    assert env["MALLOC_CONF"] == JEMALLOC_CONF
    assert env[MARKER] == "jemalloc"
    assert env["PATH"] == "/bin"


def test_an_existing_preload_and_malloc_conf_are_kept() -> None:
    """The library goes first; what the operator preloads or configures stays."""
    operator = {"LD_PRELOAD": "/opt/a.so /opt/b.so", "MALLOC_CONF": "narenas:1"}
    env = allocator_env(operator, "auto", LIB)
    assert env is not None
    assert env["LD_PRELOAD"] == f"{LIB} /opt/a.so /opt/b.so"
    assert env["MALLOC_CONF"] == "narenas:1"


def test_nothing_changes_for_pymalloc_or_in_the_reexecuted_process() -> None:
    """``pymalloc`` never re-executes; the re-executed process (marker set) never again."""
    assert allocator_env({}, "pymalloc", LIB) is None
    assert allocator_env({MARKER: "jemalloc"}, "auto", LIB) is None
    assert allocator_env({MARKER: "jemalloc"}, "jemalloc", LIB) is None


def test_without_the_library_auto_keeps_pymalloc_and_jemalloc_refuses() -> None:
    """``auto`` falls back to CPython's allocator; ``jemalloc`` names the package to install."""
    assert allocator_env({}, "auto", None) is None
    with pytest.raises(AllocatorMissing, match="libjemalloc2"):
        allocator_env({}, "jemalloc", None)


def test_find_jemalloc_looks_in_the_given_directories(tmp_path: Path) -> None:
    """The first directory holding ``libjemalloc.so.2`` wins; none: None."""
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    assert find_jemalloc([first, second]) is None
    (second / JEMALLOC).write_bytes(b"")
    assert find_jemalloc([first, second]) == second / JEMALLOC


def test_a_failed_exec_keeps_serving_under_auto_and_raises_under_jemalloc(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``auto`` goes on on CPython's allocator when the exec fails; ``jemalloc`` does not."""

    def refuse(*args: object) -> None:
        raise PermissionError("exec refused")

    monkeypatch.setattr("app.allocator.find_jemalloc", lambda: LIB)
    monkeypatch.setattr("app.allocator.os.execve", refuse)
    monkeypatch.delenv(MARKER, raising=False)
    reexec_under("auto")  # returns
    with pytest.raises(PermissionError):
        reexec_under("jemalloc")
