r"""The websocket wire protocol: envelopes ``{"t": type, "v": version?, "d": data}``.

Server → client frames are built here as JSON text once and sent to every socket as is.
Client → server frames are parsed with pydantic (:func:`parse_client_frame`); anything
malformed raises :class:`FrameError` with the code ``validation_error``. Broker messages between
instances are ``"<origin> <kind> <version>\\n<payload>"`` so a hub can route them without
decoding the payload; a ``batch``'s origin is ``<instance id>@<unix time of its publish>`` (the
receivers time the delivery with it; an instance reading only the id part before the ``@``
still skips its own echoes, and an older instance sees a foreign origin and takes the batch).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

#: Largest client frame accepted, in bytes of UTF-8 (bigger ones get ``validation_error``).
MAX_FRAME_BYTES = 16 * 1024

CLIENT_ACTION_ID = Annotated[str, Field(min_length=1, max_length=64)]


class FrameError(Exception):
    """A client frame that cannot be accepted; ``code`` is the error frame's code."""

    def __init__(self, message: str, code: str = "validation_error") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ActionFrame(BaseModel):
    """``{"t": "action", "v": 12, "id": "c-17", "d": {...engine action without seat...}}``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    t: Literal["action"]
    v: int = Field(ge=0, le=1_000_000)
    id: CLIENT_ACTION_ID | None = None
    d: dict[str, Any]


class PingFrame(BaseModel):
    """``{"t": "ping"}`` — answered with ``{"t": "pong"}``."""

    model_config = ConfigDict(extra="ignore")
    t: Literal["ping"]


class SyncFrame(BaseModel):
    """``{"t": "sync", "since": 12}`` — resend every batch after ``since`` (or a snapshot)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    t: Literal["sync"]
    since: int = Field(ge=0, le=1_000_000)


class ChatBody(BaseModel):
    """A chat message's content: ``text`` as typed, or a ``quick`` message's name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    text: str | None = None
    quick: str | None = Field(default=None, max_length=24)


class ChatFrame(BaseModel):
    """``{"t": "chat", "d": {"text": "well played!"}}`` or ``{"d": {"quick": "good_game"}}``
    (content rules and their error codes: app/services/community/chat.py).
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    t: Literal["chat"]
    d: ChatBody


class VoteData(BaseModel):
    """The ballot of a leave vote."""

    model_config = ConfigDict(extra="forbid", strict=True)
    choice: Literal["wait", "computer", "end"]


class VoteFrame(BaseModel):
    """``{"t": "vote", "d": {"choice": "wait" | "computer" | "end"}}`` — a remaining player's
    ballot on what to do about a player who left (docs/API.md § Leaving).
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    t: Literal["vote"]
    d: VoteData


class SwitchData(BaseModel):
    """``accept``: false proposes, true accepts the open proposal."""

    model_config = ConfigDict(extra="forbid", strict=True)
    accept: bool = False


class SwitchFrame(BaseModel):
    """``{"t": "switch", "d": {"accept": false|true}}`` — propose (or accept) switching the
    match live ↔ correspondence.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    t: Literal["switch"]
    d: SwitchData


class TakeBackFrame(BaseModel):
    """``{"t": "take_back"}`` — take one's seat back from the computer."""

    model_config = ConfigDict(extra="forbid", strict=True)
    t: Literal["take_back"]


class AidsFrame(BaseModel):
    """``{"t": "aids"}`` — ask for the computed aids of the current position (answered on
    this socket only, as the table's aid policy allows: docs/API.md § Aids).
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    t: Literal["aids"]


#: Frames about the match's clock and leavers (handled by ``app.services.clock.clocks``).
ClockRequest = VoteFrame | SwitchFrame | TakeBackFrame
AnyClientFrame = (
    ActionFrame
    | PingFrame
    | SyncFrame
    | ChatFrame
    | VoteFrame
    | SwitchFrame
    | TakeBackFrame
    | AidsFrame
)
ClientFrame = Annotated[AnyClientFrame, Field(discriminator="t")]
_CLIENT_FRAME: TypeAdapter[AnyClientFrame] = TypeAdapter(ClientFrame)
_KINDS = ("action", "ping", "sync", "chat", "vote", "switch", "take_back", "aids")


def parse_client_frame(text: str) -> AnyClientFrame:
    """Parse one client frame; raises :class:`FrameError` (size, JSON, unknown ``t``, shape)."""
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8")) > MAX_FRAME_BYTES:
        raise FrameError(f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        data = orjson.loads(text)
    except (ValueError, RecursionError):
        raise FrameError("a frame must be a JSON object") from None
    if not isinstance(data, dict):
        raise FrameError("a frame must be a JSON object")
    kind = data.get("t")
    if kind not in _KINDS:
        raise FrameError(
            f"unknown frame type {kind!r}"
            if isinstance(kind, str)
            else "a frame needs a string 't'"
        )
    try:
        return _CLIENT_FRAME.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise FrameError(f"{where}: {first.get('msg', 'invalid')}") from None


def dumps(value: Any) -> str:
    """Compact JSON text (orjson: every frame is encoded once, and fast)."""
    return orjson.dumps(value).decode()


def events_frame(
    version: int,
    seat: int,
    action_id: str | None,
    events_json: str,
    *,
    state: Any = None,
    by: str | None = None,
    clock: Any = None,
    delta: Any = None,
) -> str:
    """``{"t": "events", "v", "d": {"seat", "action_id", "events", "delta" | "state", "by"?,
    "clock"?}}`` (docs/API.md § Frames).

    ``events_json`` is the batch's events already encoded. A live batch carries ``delta``: what
    changed in the view (:func:`app.engine.view.view_delta`), to apply to the view at
    ``version - 1``; a catch-up carries the whole view as ``state`` on its last batch only
    (``state`` None on the others, and no ``delta``). ``by``: ``"computer"`` when the computer
    chose the action for a person; ``clock``: the match's clock after it.
    """
    extra = ""
    if by is not None:
        extra += f',"by":{dumps(by)}'
    if clock is not None:
        extra += f',"clock":{dumps(clock)}'
    body = f'"delta":{dumps(delta)}' if delta is not None else f'"state":{dumps(state)}'
    return (
        f'{{"t":"events","v":{version},"d":{{"seat":{seat},"action_id":{dumps(action_id)},'
        f'"events":{events_json},{body}{extra}}}}}'
    )


def snapshot_frame(version: int, match: dict[str, Any]) -> str:
    """``{"t": "snapshot", "v", "d": Match}``."""
    return dumps({"t": "snapshot", "v": version, "d": match})


def presence_frame(seats: list[dict[str, Any]], spectators: int, version: int | None = None) -> str:
    """``{"t": "presence", "v"?, "d": {"seats": [{"seat", "connected"}], "spectators"}}``;
    ``v``: the match version this instance has forwarded (a client behind it can sync).
    """
    frame: dict[str, Any] = {"t": "presence", "d": {"seats": seats, "spectators": spectators}}
    if version is not None:
        frame["v"] = version
    return dumps(frame)


def lobby_frame(lobby: dict[str, Any]) -> str:
    """``{"t": "lobby", "v", "d": Lobby}``."""
    return dumps({"t": "lobby", "v": lobby.get("version"), "d": lobby})


def error_frame(
    code: str,
    message: str,
    action_id: str | None = None,
    *,
    retry_after: float | None = None,
    reason: str | None = None,
    params: dict[str, Any] | None = None,
) -> str:
    """``{"t": "error", "d": {"code", "message", "id", "reason"?, "params"?, "retry_after"?}}``.

    ``action_id``: the client action id of the refused action frame (None for other frames);
    ``retry_after``: seconds after which the same frame would be taken (a ``rate_limited``
    refusal), rounded up to the millisecond; ``reason`` and ``params``: the error's finer stable
    code and its values (both sent only when ``reason`` is given, as in HTTP error bodies).
    """
    data: dict[str, Any] = {"code": code, "message": message, "id": action_id}
    if reason is not None:
        data["reason"] = reason
        data["params"] = params or {}
    if retry_after is not None:
        data["retry_after"] = math.ceil(max(0.0, retry_after) * 1000) / 1000
    return dumps({"t": "error", "d": data})


PONG = '{"t":"pong"}'


def broker_message(origin: str, kind: str, version: int, payload: str) -> str:
    """Encode a message between instances (see the module docstring)."""
    return f"{origin} {kind} {version}\n{payload}"


def parse_broker_message(message: str) -> tuple[str, str, int, str]:
    """Decode :func:`broker_message`; raises ValueError on anything else."""
    head, _, payload = message.partition("\n")
    origin, kind, version = head.split(" ")
    return origin, kind, int(version), payload
