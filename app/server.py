"""``carcassonne serve``: migrate the database (Alembic ``upgrade head``), then run uvicorn.

Works in an empty folder: the embedded default database is ``var/carcassonne.db`` under the
current directory, created on first run.
"""

from __future__ import annotations

import gc
import logging

import uvicorn

from app.api.app import create_app
from app.db.migrate import upgrade
from app.serving import RedactSecrets, header_timeout_protocol, log_config
from app.settings import get_settings

#: Cyclic-GC thresholds of the server process (CPython's default is (700, 10, 10)). A full
#: collection walks every tracked object — ~100k from the imports (frozen at start), ~500 per
#: cached match, a few hundred per open socket — and stops the event loop meanwhile. Young
#: collections a little rarer than the default let a move's short-lived objects die first; not
#: much rarer: with (20000, 20, 20) one young collection took up to 45 ms and a middle one
#: 200 ms at 500 matches (p99 115–237 ms), with (5000, 10, 10) at most ~35 ms (p99 20–28 ms).
GC_THRESHOLDS = (5_000, 10, 10)

#: Frames above this are refused by the websocket protocol itself; the app answers frames
#: above 16 KB with a ``validation_error`` frame.
WS_MAX_SIZE = 64 * 1024


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Apply the migrations, then serve the app on ``host:port`` until interrupted.

    Raises ``pydantic.ValidationError`` on bad settings (e.g. the placeholder ``SECRET_KEY``
    outside development).
    """
    settings = get_settings()
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactSecrets())
    upgrade(settings.database_url, settings.migrations_dir)
    app = create_app(settings)
    # Everything imported so far lives as long as the process: keep it out of every collection.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # compressing every frame for every socket costs CPU
        log_level=settings.log_level.lower(),
        log_config=log_config(),  # no ?token= in the access log
        http=header_timeout_protocol(settings.header_timeout),  # no slowloris
        # X-Forwarded-For / -Proto are believed from the configured proxies only
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )
