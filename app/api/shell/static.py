"""The client's static files, fingerprinted so that a repeat visit asks for nothing but the page.

There is no build step: the ES modules import each other by plain relative URLs. At start-up
(and again whenever a file's size or modification time changes) :class:`Fingerprints` hashes
every file's content, and the page (``index.html``) is served rewritten:

- its stylesheets and its entry script are named ``/path?v=<hash>``;
- an import map, placed before the first module script, maps every module's plain URL
  (``/js/i18n.js``, which is what a relative import or ``import()`` resolves to) to its
  ``?v=<hash>`` URL, so the modules' own imports are versioned too.

Caching: a URL whose ``v`` is the file's current hash is sent with :data:`IMMUTABLE` (the
browser keeps it for a year and never asks again: a new deploy means new URLs); anything else —
the page, a file without ``v`` or with a stale one — with ``Cache-Control: no-cache`` and an
``ETag`` (revalidated on every use, never stale after a deploy).

Compression is not done here: the app wraps everything (static files and JSON alike) in one
``GZipMiddleware`` (see :data:`MIN_GZIP_BYTES` and :func:`app.api.app.create_app`), which passes
websocket scopes through untouched.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
from pathlib import Path

from starlette.datastructures import QueryParams
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

#: Smallest response body worth compressing, in bytes (JSON answers and static files alike).
MIN_GZIP_BYTES = 1024
#: gzip level: 6 is zlib's default, most of level 9's gain at a fraction of its CPU.
GZIP_LEVEL = 6
#: Reuse the stored copy only after the server confirms it (ETag) — the page and unversioned URLs.
CACHE_CONTROL = "no-cache"
#: A URL whose ``?v=`` is the file's content hash never changes.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Hex digits of the SHA-256 kept as a file's version.
VERSION_DIGITS = 12

_PAGE = "index.html"
_ATTRIBUTE = re.compile(r'\b(href|src)="([^":?#]+)"')
_FIRST_MODULE = re.compile(r'<script\s+type="module"')


class Fingerprints:
    """Content hashes of the files under one folder, kept fresh by their ``stat``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._known: dict[str, tuple[int, int, str]] = {}  # path → (size, mtime_ns, version)

    def version(self, rel: str, stat: os.stat_result | None = None) -> str | None:
        """The version of ``rel`` (a POSIX path under the folder), None when it is no file."""
        path = self.directory / rel
        try:
            stat = stat or path.stat()
        except OSError:
            return None
        known = self._known.get(rel)
        if known is not None and known[:2] == (stat.st_size, stat.st_mtime_ns):
            return known[2]
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:VERSION_DIGITS]
        except OSError:
            return None
        self._known[rel] = (stat.st_size, stat.st_mtime_ns, digest)
        return digest

    def versions(self) -> dict[str, str]:
        """``{path: version}`` of every file under the folder (dot-files left out)."""
        found: dict[str, str] = {}
        for path in sorted(self.directory.rglob("*")):
            rel = path.relative_to(self.directory).as_posix()
            if path.is_file() and not any(part.startswith(".") for part in rel.split("/")):
                version = self.version(rel)
                if version is not None:
                    found[rel] = version
        return found

    def page(self, text: str) -> str:
        """``index.html``'s ``text`` with versioned URLs and the modules' import map."""
        versions = self.versions()

        def versioned(match: re.Match[str]) -> str:
            rel = match.group(2).lstrip("./")
            if rel not in versions:
                return match.group(0)
            return f'{match.group(1)}="/{rel}?v={versions[rel]}"'

        text = _ATTRIBUTE.sub(versioned, text)
        imports = {f"/{rel}": f"/{rel}?v={v}" for rel, v in versions.items() if rel.endswith(".js")}
        # "</" cannot end the script early: JSON of paths never holds it, but be sure.
        body = json.dumps({"imports": imports}, separators=(",", ":")).replace("</", "<\\/")
        tag = f'<script type="importmap">{body}</script>\n  '
        first = _FIRST_MODULE.search(text)
        at = first.start() if first else len(text)
        return text[:at] + tag + text[at:]


class FingerprintedStaticFiles(StaticFiles):
    """``StaticFiles`` with the caching of the module docstring and the rewritten page."""

    def __init__(self, directory: Path, html: bool = False) -> None:
        super().__init__(directory=directory, html=html)
        self.fingerprints = Fingerprints(directory)
        self.serves_page = html

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The rewritten page for ``/`` and ``/index.html``, the files otherwise."""
        if scope["type"] == "http" and self.serves_page:
            path = self.get_path(scope)
            if path in ("", ".", _PAGE) and scope["method"] in ("GET", "HEAD"):
                await self._page()(scope, receive, send)
                return
        await super().__call__(scope, receive, send)

    def _page(self) -> Response:
        page = Path(self.directory or ".") / _PAGE
        try:
            text = page.read_text(encoding="utf-8")
        except OSError:
            return HTMLResponse(html.escape("no client here"), status_code=404)
        return HTMLResponse(self.fingerprints.page(text), headers={"Cache-Control": CACHE_CONTROL})

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file (or a 304 when the browser's ETag still matches), with Cache-Control."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        wanted = QueryParams(scope.get("query_string", b"")).get("v")
        cache = CACHE_CONTROL
        if wanted:
            try:
                rel = Path(full_path).resolve().relative_to(Path(self.directory or ".").resolve())
            except ValueError:
                rel = None
            if rel is not None and wanted == self.fingerprints.version(rel.as_posix(), stat_result):
                cache = IMMUTABLE
        response.headers["Cache-Control"] = cache
        return response


def static_app(directory: Path, html: bool = False) -> ASGIApp:
    """The files of ``directory`` (``html``: ``/`` serves the rewritten index.html)."""
    return FingerprintedStaticFiles(directory, html=html)
