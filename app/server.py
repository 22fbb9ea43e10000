"""``carcassonne serve``: migrate the database (Alembic ``upgrade head``), then run uvicorn.

Works in an empty folder: the embedded default database is ``var/carcassonne.db`` under the
current directory, created on first run.
"""

from __future__ import annotations

import logging

import uvicorn

from app.api.app import create_app
from app.db.migrate import upgrade
from app.settings import get_settings

#: Frames above this are refused by the websocket protocol itself; the app answers frames
#: above 16 KB with a ``validation_error`` frame.
WS_MAX_SIZE = 64 * 1024


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Apply the migrations, then serve the app on ``host:port`` until interrupted.

    Raises ``pydantic.ValidationError`` on bad settings (e.g. the placeholder ``SECRET_KEY``
    outside development).
    """
    settings = get_settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    upgrade(settings.database_url, settings.migrations_dir)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # compressing every frame for every socket costs CPU
        log_level=settings.log_level.lower(),
        proxy_headers=True,
        forwarded_allow_ips="*",
    )
