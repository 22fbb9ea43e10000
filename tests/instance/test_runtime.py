"""The instance's runtime (app/services/runtime.py): what its background tasks' failures log."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from app.services.runtime import Runtime
from tests.support.app import make_settings
from tests.support.services import sqlite_copy


async def test_a_background_task_failing_on_a_database_outage_logs_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``Runtime.spawn``: an outage (a restart) is one warning without a traceback; any other
    error keeps its traceback.
    """
    rt = Runtime(make_settings(sqlite_copy(tmp_path), None, "spawn", tmp_path))

    async def outage() -> None:
        raise OperationalError("SELECT", {}, ConnectionRefusedError("restarting"))

    async def bug() -> None:
        raise ValueError("a bug")

    try:
        with caplog.at_level(logging.WARNING, logger="app.services.runtime"):
            rt.spawn(outage())
            rt.spawn(bug())
            for _ in range(5):
                await asyncio.sleep(0)
    finally:
        await rt.close()
    records = {r.levelname: r for r in caplog.records if r.name == "app.services.runtime"}
    assert records["WARNING"].exc_info is None
    assert "database is unavailable" in records["WARNING"].getMessage()
    assert records["ERROR"].exc_info is not None
