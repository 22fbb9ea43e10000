"""The client's static files: gzip when asked, ETag revalidation with ``Cache-Control:
no-cache`` for unversioned URLs (never stale after a deploy). Versioned URLs and compressed
JSON: test_static_cache.py.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi.testclient import TestClient


def test_static_files_are_compressed_and_revalidated(client: TestClient, frontend: Path) -> None:
    code = "export const words = {" + ", ".join(f"k{i}: 'word {i}'" for i in range(400)) + "};\n"
    (frontend / "big.js").write_text(code)
    r = client.get("/big.js", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.text == code
    assert r.headers["content-encoding"] == "gzip"
    assert r.num_bytes_downloaded < len(code) / 3
    assert r.headers["cache-control"] == "no-cache"
    assert "accept-encoding" in r.headers["vary"].lower()
    etag = r.headers["etag"]

    # The browser's copy is confirmed with a 304 and no body...
    again = client.get("/big.js", headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["cache-control"] == "no-cache"
    # ...until the file changes (a deploy): a new ETag, the new code.
    (frontend / "big.js").write_text(code + "export const more = 1;\n")
    stat = (frontend / "big.js").stat()
    os.utime(frontend / "big.js", (stat.st_atime + 5, stat.st_mtime + 5))
    fresh = client.get("/big.js", headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.headers["etag"] != etag
    assert fresh.text.endswith("export const more = 1;\n")

    # The page itself, and the /static/ alias, follow the same rules; tiny files stay plain.
    index = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert index.status_code == 200 and index.headers["cache-control"] == "no-cache"
    assert "content-encoding" not in index.headers  # under the gzip threshold
    assert client.get("/static/big.js").headers["cache-control"] == "no-cache"
