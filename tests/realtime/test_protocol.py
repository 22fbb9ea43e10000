"""Client frame parsing and server frame building."""

from __future__ import annotations

import json

import pytest

from app.realtime.protocol import (
    MAX_FRAME_BYTES,
    ActionFrame,
    FrameError,
    PingFrame,
    SyncFrame,
    broker_message,
    error_frame,
    events_frame,
    parse_broker_message,
    parse_client_frame,
)


def test_valid_frames() -> None:
    action = parse_client_frame('{"t":"action","v":3,"id":"c-1","d":{"type":"pass"}}')
    assert isinstance(action, ActionFrame) and action.v == 3 and action.d == {"type": "pass"}
    assert isinstance(parse_client_frame('{"t":"ping"}'), PingFrame)
    sync = parse_client_frame('{"t":"sync","since":4}')
    assert isinstance(sync, SyncFrame) and sync.since == 4


@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[]",
        "1",
        '"x"',
        "{",
        '{"t": 1}',
        '{"t":"nope"}',
        '{"t":"action"}',
        '{"t":"action","v":-1,"d":{}}',
        '{"t":"action","v":1,"d":[]}',
        '{"t":"action","v":1,"d":{},"id":""}',
        '{"t":"action","v":true,"d":{}}',
        '{"t":"sync"}',
        '{"t":"sync","since":"1"}',
        "[" * 100_000,
        json.dumps({"t": "ping", "pad": "x" * MAX_FRAME_BYTES}),
        json.dumps({"t": "ping", "pad": "é" * (MAX_FRAME_BYTES // 2 + 1)}),
    ],
)
def test_bad_frames(text: str) -> None:
    with pytest.raises(FrameError) as info:
        parse_client_frame(text)
    assert info.value.code == "validation_error" and info.value.message


def test_server_frames_are_json() -> None:
    frame = json.loads(events_frame(4, 1, None, '[{"type":"TurnEnded","seat":1}]', state={"a": 1}))
    assert frame == {
        "t": "events",
        "v": 4,
        "d": {
            "seat": 1,
            "action_id": None,
            "events": [{"type": "TurnEnded", "seat": 1}],
            "state": {"a": 1},
        },
    }
    assert json.loads(error_frame("stale_version", "old", "c-1"))["d"]["id"] == "c-1"
    message = broker_message("abc", "batch", 7, '{"x":\n1}')
    assert parse_broker_message(message) == ("abc", "batch", 7, '{"x":\n1}')
    with pytest.raises(ValueError):
        parse_broker_message("garbage")
