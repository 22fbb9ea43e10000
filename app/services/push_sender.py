"""Sending Web Push messages (RFC 8030, payloads encrypted per RFC 8291 ``aes128gcm``, signed
with VAPID per RFC 8292) through ``pywebpush``: the instance's :class:`PushSender`.

The VAPID key pair comes from the ``VAPID_PRIVATE_KEY`` setting (PEM), or — when it is empty —
is generated once and shared by every instance through the database (``server_secrets``), so
a browser's subscription made against one instance's public key works from all of them.

Endpoints are checked before anything is stored or sent (:meth:`PushSender.check_endpoint`):
``https`` only and a host ending in one of ``PUSH_ENDPOINT_HOSTS`` (the browsers' push
services by default) — the server must never be made to POST to an address of the caller's
choosing. Tests running their own push service on 127.0.0.1 set both settings.
"""

from __future__ import annotations

import base64
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from app.json_types import JsonObject
from app.settings import Settings

if TYPE_CHECKING:  # imported when first used: aiohttp, cryptography and pywebpush take ~0.2 s
    import aiohttp
    from py_vapid import Vapid02

log = logging.getLogger(__name__)

#: How long a push service keeps an undelivered turn alert (seconds): a turn is news for a day.
TTL = 24 * 3600


@dataclass(frozen=True)
class Delivery:
    """The outcome of one push: ``ok``; ``gone`` when the subscription can never be sent to
    (the push service says it no longer exists, 404/410, or its keys encrypt nothing: delete
    it); ``status`` (HTTP status, 0 when nothing was answered).
    """

    ok: bool
    gone: bool
    status: int


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class PushSender:
    """Signs and sends pushes for one instance. ``load_keys(pem)`` must run before sending."""

    def __init__(self, settings: Settings) -> None:
        self.subject = settings.vapid_subject
        self.configured_key = settings.vapid_private_key.strip()
        self.hosts = tuple(h.strip().lower() for h in settings.push_endpoint_hosts.split(",") if h)
        self.allow_http = settings.push_allow_http
        self._vapid: Vapid02 | None = None
        self.public_key = ""
        self._session: aiohttp.ClientSession | None = None

    @staticmethod
    def new_private_pem() -> str:
        """A fresh P-256 private key, PEM (PKCS#8) text."""
        from py_vapid import Vapid02

        vapid = Vapid02()
        vapid.generate_keys()
        return str(vapid.private_pem().decode())

    def load_keys(self, pem: str) -> None:
        """Use the private key ``pem``; :attr:`public_key` becomes its base64url uncompressed
        point (the browser's ``applicationServerKey``).
        """
        from cryptography.hazmat.primitives import serialization
        from py_vapid import Vapid02

        vapid = Vapid02.from_pem(pem.encode())
        self._vapid = vapid
        point = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = _b64url(point)

    @property
    def ready(self) -> bool:
        """Whether keys are loaded."""
        return self._vapid is not None

    @staticmethod
    def keys_usable(p256dh: str) -> bool:
        """Whether ``p256dh`` (base64url) is a point on P-256 that a payload can be encrypted
        to (a right-sized key may still be no point: every push to it would fail).
        """
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            raw = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except (ValueError, TypeError):
            return False
        return True

    def check_endpoint(self, endpoint: str) -> str | None:
        """Why ``endpoint`` may not be used (None: it may): the scheme or the host."""
        parts = urlsplit(endpoint)
        if parts.scheme != "https" and not (self.allow_http and parts.scheme == "http"):
            return "scheme"
        host = (parts.hostname or "").lower()
        if not host or not any(host == h or host.endswith("." + h) for h in self.hosts):
            return "host"
        return None

    async def send(self, endpoint: str, p256dh: str, auth: str, payload: JsonObject) -> Delivery:
        """Encrypt ``payload`` (JSON) to the subscription's keys and POST it to its push
        service, with urgency ``high`` and a day's TTL. Never raises (but for cancellation):
        the outcome says — keys nothing can be encrypted to are ``gone``, any other failure
        (network, an unexpected answer, a bug of the library) is a plain failure.
        """
        import aiohttp
        from pywebpush import WebPushException, webpush_async

        assert self._vapid is not None, "load_keys first"
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        host = urlsplit(endpoint).hostname
        if not self.keys_usable(p256dh):
            log.info("push to %s skipped: its keys are no P-256 point", host)
            return Delivery(False, True, 0)
        try:
            response = await webpush_async(
                {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
                data=json.dumps(payload),
                vapid_private_key=self._vapid,
                vapid_claims={"sub": self.subject},
                ttl=TTL,
                timeout=aiohttp.ClientTimeout(total=10),
                headers={"Urgency": "high"},
                aiohttp_session=self._session,
            )
        except WebPushException as exc:
            status = exc.status_code or 0
            log.info("push to %s refused: %s", host, status)
            return Delivery(False, status in (404, 410), int(status or 0))
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            log.info("push to %s failed: %s", host, type(exc).__name__)
            return Delivery(False, False, 0)
        except Exception:  # noqa: BLE001 - one device's trouble never reaches the others
            log.warning("push to %s failed unexpectedly", host, exc_info=True)
            return Delivery(False, False, 0)
        status = getattr(response, "status", 201)
        return Delivery(True, False, int(status))

    async def close(self) -> None:
        """Close the HTTP session (instance shutdown)."""
        if self._session is not None:
            await self._session.close()
            self._session = None
