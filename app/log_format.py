"""Log lines: JSON objects in production (``LOG_JSON``), one per line, the access log included.

Every line carries ``time`` (UTC, ISO 8601, milliseconds), ``level``, ``logger``, ``message``,
``instance`` (host and process id), and, when the line is written while serving one,
``request_id`` (the ``X-Request-ID`` a proxy sent, or one made here and answered in the same
header), ``match_id`` and ``player_id`` (set by :mod:`app.api.shell.request_context` and the
socket and token code). Access-log lines add ``client``, ``method``, ``path``, ``status``; a
line with an exception adds ``error`` (the traceback).

Never a token: the message and every field go through :func:`redact` (``token=`` and ``code=``
query values, ``Bearer`` credentials), whatever the format. This module imports nothing of the
app beyond the standard library and orjson, so anything may log through it.
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import socket
from datetime import UTC, datetime
from typing import Any

import orjson

#: Set while serving a request or socket; None elsewhere.
request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
match_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("match_id", default=None)
player_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("player_id", default=None)

#: This process, as log lines name it.
INSTANCE = f"{socket.gethostname()}:{os.getpid()}"

_SECRETS = re.compile(r"([?&;](?:token|code)=)[^&;\s\"']*|(\bBearer\s+)[^\s\"',]+", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with ``token=``/``code=`` query values and ``Bearer`` credentials as ``***``."""
    return _SECRETS.sub(lambda m: (m.group(1) or m.group(2)) + "***", text)


class RedactSecrets(logging.Filter):
    """A log filter that redacts secrets in the message and its arguments (never drops)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


_CONTEXT = (("request_id", request_id), ("match_id", match_id), ("player_id", player_id))
_ACCESS_TEXT = '%(asctime)s %(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module docstring for the fields)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
            "instance": INSTANCE,
        }
        for key, var in (
            ("request_id", request_id),
            ("match_id", match_id),
            ("player_id", player_id),
        ):
            value = var.get()
            if value is not None:
                line[key] = value
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            args = record.args
            if len(args) == 5:
                client, method, path, _, status = args
                line.update(client=client, method=method, path=redact(str(path)), status=status)
        if record.exc_info:
            line["error"] = redact(self.formatException(record.exc_info))
        return orjson.dumps(line, default=str).decode()


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def logging_config(level: str, as_json: bool) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the server and uvicorn (its error and access logs):
    JSON lines (``as_json``) or text, every handler redacting secrets, at ``level``.
    """
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"} if as_json else {"format": TEXT_FORMAT}
    )
    access: dict[str, Any] = (
        formatter
        if as_json
        else {
            "()": "uvicorn.logging.AccessFormatter",
            "fmt": _ACCESS_TEXT,
        }
    )
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "filters": ["redact"],
    }
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": f"{__name__}.RedactSecrets"}},
        "formatters": {"default": formatter, "access": access},
        "handlers": {
            "default": {**handler, "formatter": "default"},
            "access": {**handler, "formatter": "access", "stream": "ext://sys.stdout"},
        },
        "loggers": {
            "": {"handlers": ["default"], "level": level},
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": ["access"], "level": level, "propagate": False},
        },
    }
