"""The FastAPI application: routers, error shapes, health (``/healthz`` liveness, ``/readyz``
readiness), metrics, refusal while draining, and the static frontend.

``create_app(settings)`` builds one app with its own :class:`Runtime` (started by the lifespan),
so tests can run several apps side by side. Every error leaves as
``{"error": {"code", "message"}}`` with the status of :func:`app.api.errors.http_status`.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from app.api.deps import RuntimeDep
from app.api.errors import error_detail, http_status
from app.api.routes import (
    accounts,
    catalogue,
    lobbies,
    matches,
    players,
    push,
    ratings,
    records,
    seeks,
    tournaments,
)
from app.api.routes.platform import bots, export
from app.api.routes.platform import tokens as platform
from app.api.routes.sockets import play as sockets
from app.api.routes.sockets import tournaments as tournament_sockets
from app.api.shell.body_limit import BodySizeLimit
from app.api.shell.database_retry import RetryWhileDatabaseRestarts
from app.api.shell.draining import RefuseWhileDraining
from app.api.shell.metrics_endpoint import MetricsListener, render
from app.api.shell.request_context import RequestContext
from app.api.shell.socket_routes import SocketsFirst
from app.api.shell.static import GZIP_LEVEL, MIN_GZIP_BYTES, static_app
from app.db.errors import is_database_unavailable
from app.engine import EngineError
from app.services import drain
from app.services.errors import RateLimited, ServiceError
from app.services.lobby import series_games
from app.services.match.play.subscribers import subscribe as subscribe_to_moves
from app.services.runtime import Runtime
from app.services.timers import LOOPS, outage_checked
from app.services.tournaments import sweep as tournament_sweep
from app.settings import Settings, get_settings

log = logging.getLogger(__name__)

_HTTP_CODES = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "not_found",
    409: "conflict",
    413: "validation_error",
    415: "validation_error",
    422: "validation_error",
    429: "rate_limited",
}


def _error(status: int, code: str, message: str, exc: Exception | None = None) -> JSONResponse:
    return JSONResponse({"error": error_detail(code, message, exc)}, status_code=status)


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg"))


#: Seconds ``/readyz`` waits for the database and the broker to answer.
PING_TIMEOUT = 2.0


async def _answers(ping: Coroutine[Any, Any, bool]) -> bool:
    """The ping's answer, False when it takes longer than :data:`PING_TIMEOUT`."""
    try:
        return await asyncio.wait_for(ping, PING_TIMEOUT)
    except TimeoutError:
        return False


def create_app(settings: Settings | None = None, *, with_loops: bool = True) -> FastAPI:
    """A new app. ``with_loops``: run the background loops (bot sweep, heartbeats).

    ``settings``: None reads them from the environment (:func:`app.settings.get_settings`).
    Built in this order: the exception handlers, the middleware, the routers, the ops
    endpoints (``/healthz``, ``/readyz``, ``/metrics`` when on the public port), the frontend.
    """
    settings = settings or get_settings()
    # The interactive docs and the schema are for developers: not served in production
    # (docs/API.md and the docs/ folder are the reference there).
    documented = settings.environment != "production"
    app = FastAPI(
        title="Carcassonne online",
        version="0.1.0",
        lifespan=_lifespan(settings, with_loops),
        docs_url="/docs" if documented else None,
        redoc_url="/redoc" if documented else None,
        openapi_url="/openapi.json" if documented else None,
        description="Lobbies, matches and spectators. Errors: "
        '{"error": {"code", "message"}}. See docs/API.md.',
    )
    _add_exception_handlers(app)
    _add_middleware(app, settings)
    _add_routers(app)
    _add_ops_endpoints(app, settings)
    frontend = settings.frontend_dir
    if frontend.is_dir():  # the client's static files: / serves index.html, /static/... too
        app.mount("/static", static_app(frontend), name="static")
        app.mount("/", static_app(frontend, html=True), name="frontend")
    return app


def _lifespan(
    settings: Settings, with_loops: bool
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: builds, starts and at the end closes its :class:`Runtime`."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runtime = Runtime(settings)
        subscribe_to_moves(runtime)
        tournament_sweep.listen(runtime)
        series_games.listen(runtime)
        app.state.runtime = runtime
        await runtime.start(LOOPS if with_loops else [])
        listener = None
        if settings.metrics_port is not None:
            listener = MetricsListener(runtime, settings.metrics_host, settings.metrics_port)
            await listener.start()
            app.state.metrics_listener = listener
        try:
            yield
        finally:
            if listener is not None:
                await listener.close()
            if runtime.draining:  # a restart: publish everything before letting go
                await drain.finish(runtime)
            await runtime.close()

    return lifespan


def _add_exception_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every error into ``{"error": {"code", "message"}}``."""

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        retry = getattr(exc, "retry_after", None)
        if isinstance(exc, RateLimited) and retry is not None:
            wait = max(1, math.ceil(retry))
            body = {"error": {**error_detail(exc.code, exc.message, exc), "retry_after": wait}}
            return JSONResponse(body, status_code=429, headers={"Retry-After": str(wait)})
        return _error(http_status(exc), exc.code, exc.message, exc)

    @app.exception_handler(EngineError)
    async def _engine_error(_request: Request, exc: EngineError) -> JSONResponse:
        return _error(http_status(exc), exc.code, exc.message, exc)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, "validation_error", _validation_message(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "validation_error")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        if is_database_unavailable(exc):  # a restart or failover: nothing done, try again
            log.warning("request refused, the database is unavailable: %s", exc)
            body = {
                "error": {
                    "code": "unavailable",
                    "message": "the database is restarting: try again in a moment",
                    "retry_after": 1,
                }
            }
            return JSONResponse(body, status_code=503, headers={"Retry-After": "1"})
        log.exception("unexpected error", exc_info=exc)
        return _error(500, "internal", "something went wrong on our side")


def _add_middleware(app: FastAPI, settings: Settings) -> None:
    """Add the middleware, innermost first (the last added runs first on a request)."""
    # JSON and static files over ~1 KB, gzip when asked (websocket scopes pass through as they are).
    app.add_middleware(RetryWhileDatabaseRestarts)  # the innermost: a request waits for a restart
    app.add_middleware(GZipMiddleware, minimum_size=MIN_GZIP_BYTES, compresslevel=GZIP_LEVEL)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    # Websocket handshakes go from here straight to their routes (the layers above are HTTP's).
    app.add_middleware(
        SocketsFirst, routes=[*sockets.router.routes, *tournament_sockets.router.routes]
    )
    app.add_middleware(RefuseWhileDraining)  # a draining instance reads nothing
    app.add_middleware(RequestContext)  # the outermost: every log line knows its request


def _add_routers(app: FastAPI) -> None:
    """Include the API's routers, in this order (the sockets' are :class:`SocketsFirst`'s)."""
    for routes in (
        players,
        accounts,
        lobbies,
        seeks,
        push,
        matches,
        ratings,
        records,
        export,
        platform,
        bots,
        catalogue,
        tournaments,
    ):
        app.include_router(routes.router)


def _add_ops_endpoints(app: FastAPI, settings: Settings) -> None:
    """Add ``/healthz``, ``/readyz`` and, when ``METRICS_ON_PUBLIC_PORT``, ``/metrics``."""

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> dict[str, bool]:
        """Liveness: ``{"ok": true}`` whenever the process answers (no dependency is asked;
        a draining instance is alive too).
        """
        return {"ok": True}

    @app.get("/readyz", tags=["ops"], responses={503: {"description": "not ready"}})
    async def readyz(rt: RuntimeDep) -> JSONResponse:
        """Readiness: ``{"ok", "database", "broker", "draining", "clocks"}``; 503 when the
        database or the broker does not answer within :data:`PING_TIMEOUT` s, the instance
        drains, or its outage check has not run yet (``clocks``: the clocks are credited for
        any time nobody served; :func:`app.services.timers.outage_checked`).
        """
        db_ok, broker_ok, clocks_ok = await asyncio.gather(
            _answers(rt.storage.db.ping()),
            _answers(rt.fanout.broker.ping()),
            _answers(outage_checked(rt)),
        )
        body: dict[str, Any] = {
            "ok": db_ok and broker_ok and clocks_ok and not rt.draining,
            "database": db_ok,
            "broker": broker_ok,
            "draining": rt.draining,
            "clocks": clocks_ok,
        }
        return JSONResponse(body, status_code=200 if body["ok"] else 503)

    if settings.metrics_on_public_port:

        @app.get("/metrics", tags=["ops"], response_class=Response)
        async def metrics(rt: RuntimeDep) -> Response:
            """Prometheus text format (off the public port in production: ``METRICS_PORT``)."""
            return Response(await render(rt), media_type=CONTENT_TYPE_LATEST)
