"""The database-restart retry middleware hands the app its request body once, then the real
``receive``: a static file's disconnect listener (Starlette's ``FileResponse`` under uvicorn's
ASGI 2.3) calls ``receive`` until the client leaves, and an ``http.request`` answered again at
once spun it forever — every page load hung the server (found by the browser tests).
"""

from __future__ import annotations

import asyncio

from starlette.types import Message, Receive, Scope, Send

from app.api.shell.database_retry import RetryWhileDatabaseRestarts


async def test_after_the_body_the_app_waits_for_the_client_to_leave() -> None:
    left = asyncio.Event()
    seen: list[Message] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(await receive())
        seen.append(await receive())

    incoming = [{"type": "http.request", "body": b"hi", "more_body": False}]

    async def receive() -> Message:
        if incoming:
            return incoming.pop(0)
        await left.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        pass

    middleware = RetryWhileDatabaseRestarts(app)
    task = asyncio.create_task(middleware({"type": "http", "method": "GET"}, receive, send))
    await asyncio.sleep(0.05)
    assert not task.done()  # the second receive waits for the client
    left.set()
    await asyncio.wait_for(task, 2)
    assert seen == [
        {"type": "http.request", "body": b"hi", "more_body": False},
        {"type": "http.disconnect"},
    ]
