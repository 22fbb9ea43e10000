"""A push service of the test's own on 127.0.0.1 and a browser's side of a subscription, for
testing Web Push (RFC 8030/8291/8292) where the browsers' push services cannot be reached.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


class PushService:
    """A push service on 127.0.0.1: records every POST (path, headers, body); paths under
    ``/gone/`` answer 410 (the subscription expired), others 201.
    """

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append(
                    (self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def to(self, path: str, timeout: float = 10.0) -> list[tuple[dict[str, str], bytes]]:
        """Wait briefly for the pushes POSTed to ``path``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [(h, b) for p, h, b in self.received if p == path]
            if found:
                return found
            time.sleep(0.05)
        return []

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Device:
    """A browser's side of a subscription: its ECDH key pair and auth secret."""

    def __init__(self, service: PushService, path: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.path = path
        self.endpoint = service.base + path

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()  # noqa: E731
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
            "lang": lang,
        }

    def read(self, body: bytes) -> dict[str, Any]:
        """Decrypt a push body as the browser would."""
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth)
        return dict(json.loads(plain))
