"""What ``carcassonne serve`` adds around uvicorn: a header timeout and a log without secrets.

- :func:`header_timeout_protocol`: uvicorn's httptools protocol, closing a connection whose
  request headers are not complete within the timeout (uvicorn itself only times out idle
  keep-alive connections, so a client dripping one header line at a time — slowloris — would
  hold its connection forever).
- :class:`RedactSecrets` and :func:`log_config`: uvicorn's logging, with ``token=`` and
  ``code=`` query values replaced by ``***`` in every line (access log and websocket lines).
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
from typing import Any

from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

_SECRET_QUERY = re.compile(r"([?&;](?:token|code)=)[^&;\s\"']*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with the values of ``token=`` and ``code=`` query parameters replaced."""
    return _SECRET_QUERY.sub(r"\1***", text)


class RedactSecrets(logging.Filter):
    """A log filter that redacts secret query parameters in the message and its arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drops it."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def log_config() -> dict[str, Any]:
    """Uvicorn's logging configuration with :class:`RedactSecrets` on each of its handlers."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact": {"()": f"{__name__}.RedactSecrets"}}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    return config


def header_timeout_protocol(seconds: float) -> type[asyncio.Protocol]:
    """An HTTP protocol class for ``uvicorn.run(http=...)`` that closes a connection when a
    request's headers take longer than ``seconds`` (counted from the connection, or from the
    first byte of a later request on a kept-alive connection).
    """

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderTimeoutProtocol
