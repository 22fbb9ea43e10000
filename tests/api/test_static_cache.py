"""Fingerprinted static files and compressed JSON (the repeat visit asks for nothing but the
page): ``index.html`` names every file with ``?v=<content hash>`` (its scripts through an import
map), such URLs are cached for a year as immutable, the page itself is revalidated, and every
JSON answer over about 1 KB is gzip-compressed when the client accepts it.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from tests.support.client import Api

NL = b"\n"
IMMUTABLE = "public, max-age=31536000, immutable"


def _version(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def test_the_page_names_every_file_by_its_content(client: TestClient, frontend: Path) -> None:
    (frontend / "js").mkdir()
    (frontend / "js" / "main.js").write_text("import { a } from './a.js';\n")
    (frontend / "js" / "a.js").write_text("export const a = 1;\n")
    (frontend / "index.html").write_text(
        '<!doctype html><link rel="stylesheet" href="app.css">'
        '<script type="module" src="js/main.js"></script>'
    )
    (frontend / "app.css").write_text("body { color: red; }\n")
    page = client.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    css_v = _version(b"body { color: red; }\n")
    main_v = _version(b"import { a } from './a.js';\n")
    assert f'href="/app.css?v={css_v}"' in page.text
    assert f'src="/js/main.js?v={main_v}"' in page.text
    found = re.search(r'<script type="importmap">(.*?)</script>', page.text, re.S)
    assert found is not None
    imports = json.loads(found.group(1))["imports"]
    assert imports["/js/a.js"] == f"/js/a.js?v={_version(b'export const a = 1;' + NL)}"
    assert page.text.index("importmap") < page.text.index('type="module"')

    hashed = client.get(f"/app.css?v={css_v}")
    assert hashed.status_code == 200 and hashed.headers["cache-control"] == IMMUTABLE
    # A stale or missing version is never cached for long: the file as it is, revalidated.
    assert client.get("/app.css?v=0123456789ab").headers["cache-control"] == "no-cache"
    assert client.get("/app.css").headers["cache-control"] == "no-cache"

    # A changed file (a deploy) gets a new version in the page.
    (frontend / "app.css").write_text("body { color: blue; }\n")
    again = client.get("/").text
    blue_v = _version(b"body { color: blue; }" + NL)
    assert f'href="/app.css?v={blue_v}"' in again


def test_json_over_a_kilobyte_is_compressed(client: TestClient, api: Api) -> None:
    _, _, headers = api.player("Ann")
    r = client.get("/api/catalogue", headers={"Accept-Encoding": "gzip", **headers})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert r.num_bytes_downloaded < len(r.content) / 3
    assert "tiles" in r.json()
    # Small answers stay plain; a client that does not ask gets plain JSON.
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers
    plain = client.get("/api/catalogue", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.json() == r.json()
