"""Turn alerts by Web Push (docs/API.md § Turn alerts): the server's VAPID key, a device's
subscription on and off, the player's devices, a test alert.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from app.api.deps import BearerToken, CurrentPlayer, RuntimeDep
from app.api.responses import errors
from app.services.community import push

router = APIRouter(prefix="/api/push", tags=["push"])


class PushKeys(BaseModel):
    """The browser's keys of a subscription (base64url): ``p256dh`` (65 bytes), ``auth`` (16)."""

    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class NewSubscription(BaseModel):
    """``PushSubscription.toJSON()`` of the browser plus the reader's language."""

    endpoint: str = Field(max_length=1000)
    keys: PushKeys
    lang: str = Field(default="en", max_length=8)


class Unsubscribe(BaseModel):
    """The endpoint of the subscription to end."""

    endpoint: str = Field(max_length=1000)


@router.get("/key")
async def key(rt: RuntimeDep) -> dict[str, str]:
    """``{"public_key"}``: the VAPID public key (base64url), the browser's
    ``applicationServerKey`` when it subscribes.
    """
    return {"public_key": await push.ensure_keys(rt)}


@router.post("/subscriptions", status_code=201, responses=errors(401, 413, 422))
async def subscribe(
    body: NewSubscription, rt: RuntimeDep, player: CurrentPlayer, token: BearerToken
) -> dict[str, Any]:
    """Turn alerts on for this device: store its subscription (for this login: logging out
    ends it). At most ``PUSH_SUBSCRIPTIONS_PER_PLAYER`` devices: the oldest is replaced. 422
    when the endpoint is not a push service over https or the keys are bad
    (``push_keys_invalid``: no P-256 point).
    """
    return await push.subscribe(
        rt, player, rt.tokens.session(token), body.model_dump(exclude={"lang"}), body.lang
    )


@router.post("/subscriptions/delete", status_code=204, responses=errors(401, 404))
async def unsubscribe(body: Unsubscribe, rt: RuntimeDep, player: CurrentPlayer) -> Response:
    """Turn alerts off for this device (404: not one of the caller's)."""
    await push.unsubscribe(rt, player, body.endpoint)
    return Response(status_code=204)


@router.get("/subscriptions", responses=errors(401))
async def devices(rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """``{"devices": [{"id", "created_at"}]}``: the caller's devices with alerts on."""
    return {"devices": await push.devices(rt, player)}


@router.post("/test", responses=errors(401, 429, 502))
async def test(rt: RuntimeDep, player: CurrentPlayer) -> dict[str, int]:
    """Send "alerts are on" to each of the caller's devices: ``{"devices", "delivered"}``.
    429 past ``PUSH_TESTS_PER_PLAYER``; 502 ``push_failed`` (reason ``push_undelivered``,
    ``params`` ``{"devices", "dropped"}``) when no device's push service took it.
    """
    return await push.test_alert(rt, player)
