"""The client's static files, compressed and cacheable without ever serving stale code.

- Compression: starlette's ``GZipMiddleware`` around the static app only (API JSON and the
  websockets are untouched; the middleware passes non-HTTP scopes through anyway). Files under
  :data:`MIN_GZIP_BYTES` are sent as they are.
- Caching: every file is sent with ``Cache-Control: no-cache`` and an ``ETag`` (starlette's, from
  the file's size and modification time). A browser keeps its copy across visits and revalidates
  it with ``If-None-Match``: an unchanged file costs a ``304`` with no body, and a deploy (new
  files, new ETags) is seen on the very next load. The client's ES modules import each other by
  plain relative URLs (no build step), so versioned file names are not an option here.
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

#: Smallest response body worth compressing, in bytes.
MIN_GZIP_BYTES = 512
#: Reuse the stored copy only after the server confirms it (ETag) — see the module docstring.
CACHE_CONTROL = "no-cache"


class RevalidatedStaticFiles(StaticFiles):
    """``StaticFiles`` whose responses (200 and 304 alike) carry :data:`CACHE_CONTROL`."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file (or a 304 when the browser's ETag still matches), with Cache-Control."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = CACHE_CONTROL
        return response


def static_app(directory: Path, html: bool = False) -> ASGIApp:
    """The files of ``directory`` (``html``: ``/`` serves index.html), gzip-compressed."""
    return GZipMiddleware(
        RevalidatedStaticFiles(directory=directory, html=html), minimum_size=MIN_GZIP_BYTES
    )
