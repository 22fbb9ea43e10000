"""``carcassonne serve``: migrate the database (Alembic ``upgrade head``), then run uvicorn;
``SIGTERM`` drains the instance first (:class:`app.serving.DrainingServer`,
:mod:`app.services.drain`) and exits 0 within ``DRAIN_TIMEOUT``.

Works in an empty folder: the embedded default database is ``var/carcassonne.db`` under the
current directory, created on first run.
"""

from __future__ import annotations

import logging
import logging.config
import sys
import time

import uvicorn
from fastapi import FastAPI
from uvicorn.config import STARTUP_FAILURE

from app import collector
from app.allocator import running_allocator
from app.api.app import create_app
from app.db.migrate import upgrade
from app.log_format import logging_config
from app.services import drain
from app.services.runtime import Runtime
from app.serving import DrainingServer, header_timeout_protocol
from app.settings import get_settings

log = logging.getLogger(__name__)

#: Frames above this are refused by the websocket protocol itself; the app answers frames
#: above 16 KB with a ``validation_error`` frame.
WS_MAX_SIZE = 64 * 1024


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Apply the migrations, then serve the app on ``host:port`` until ``SIGTERM`` or Ctrl-C
    (each drains first; a second one stops at once).

    Raises ``pydantic.ValidationError`` on bad settings (e.g. the placeholder ``SECRET_KEY``
    outside development).
    """
    settings = get_settings()
    logs = logging_config(settings.log_level, settings.logs_as_json)
    logging.config.dictConfig(logs)
    log.info("memory allocator: %s", running_allocator())
    upgrade(settings.database_url, settings.migrations_dir)
    app = create_app(settings)
    collector.configure()  # the imports frozen; collections paced by the loop (app/collector.py)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # compressing every frame for every socket costs CPU
        log_level=settings.log_level.lower(),
        log_config=logs,  # no token in any line; JSON lines in production
        http=header_timeout_protocol(settings.header_timeout),  # no slowloris
        # X-Forwarded-For / -Proto are believed from the configured proxies only
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )
    server = DrainingServer(config, lambda: _drain(app), settings.drain_timeout)
    server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)


async def _drain(app: FastAPI) -> float:
    """SIGTERM: refuse new work, close the sockets with 1012 once the frames in flight are
    done (app/services/drain.py); returns the seconds uvicorn may still wait for requests in
    flight before the lifespan shutdown publishes what is left.
    """
    rt: Runtime = app.state.runtime
    drain.begin(rt)
    closed = await drain.close_sockets(rt)
    log.warning("draining: %d sockets closed with 1012 (service restart)", closed)
    return drain.by(rt, drain.REQUESTS) - time.monotonic()
