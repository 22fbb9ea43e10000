"""A tournament's records as a zip (docs/API.md § Export): one exported record per finished
match, ``round-{r}-table-{t}-{match id}.json``, read from the same records as the NDJSON export
(:func:`app.services.platform.export.tournament_records`) and written entry by entry with
Python's :mod:`zipfile` into a sink the response drains after each entry — the archive is
streamed, never held whole in memory.
"""

from __future__ import annotations

import contextlib
import zipfile
from collections.abc import AsyncIterator

import orjson

from app.json_types import JsonObject
from app.services.platform.export import tournament_host, tournament_records
from app.services.runtime import Runtime


class _Sink:
    """A write-only file for :class:`zipfile.ZipFile` (not seekable: zipfile then writes data
    descriptors); :meth:`drain` hands over what was written since the last drain.
    """

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def write(self, data: bytes, /) -> int:
        """Keep ``data`` until the next :meth:`drain`."""
        self._parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        """Nothing buffered beyond :meth:`drain`."""

    def close(self) -> None:
        """Nothing to release."""

    def drain(self) -> bytes:
        out = b"".join(self._parts)
        self._parts.clear()
        return out


def entry_name(record: JsonObject) -> str:
    """The file name of one record in the zip: ``round-01-table-02-<match id>.json``."""
    where = record.get("tournament") or {}
    match = record.get("match") or {}
    assert isinstance(where, dict) and isinstance(match, dict)
    rnd, table = where["round"], where["table"]
    assert isinstance(rnd, int) and isinstance(table, int)
    return f"round-{rnd:02d}-table-{table:02d}-{match['id']}.json"


async def tournament_zip(
    rt: Runtime, tournament_id: str, player_id: str, limit: int
) -> AsyncIterator[bytes]:
    """The zip's bytes, a piece per record. The first item is empty: :class:`NotFound` for an
    unknown tournament comes before it (the caller starts the response after it), as in
    :func:`app.services.platform.export.tournament_stream`, whose visibility rules apply.
    """
    host = await tournament_host(rt, tournament_id)
    yield b""
    sink = _Sink()
    records = tournament_records(rt, tournament_id, host, player_id, limit)
    async with contextlib.aclosing(records):
        with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            async for record in records:
                body = orjson.dumps(record, option=orjson.OPT_INDENT_2)
                archive.writestr(entry_name(record), body)
                yield sink.drain()
    yield sink.drain()
