"""The typed seats of a match (app/services/seat_values.py): every stored seat, old ones
included, reads into a MatchSeat and writes back as exactly the same JSON (the same bytes:
the order of its keys too, keys it does not know riding along); a seat that does not parse
says which key; the cache holds a dealt match's seats typed, and they write back as its row.
"""

from __future__ import annotations

import dataclasses

import orjson
import pytest
from sqlalchemy import select

from app.db.models import matches
from app.json_types import JsonObject
from app.services import identity
from app.services.lobby import dealing, lobby, seats
from app.services.match import reads
from app.services.runtime import Runtime
from app.services.seat_values import MatchSeat, seat_of, seats_from_json, seats_to_json
from app.settings import ROOT
from tests.support.app import make_settings
from tests.support.services import run_async

pytestmark = pytest.mark.timeout(60)

#: A seat as every match dealt now stores it.
DEALT: JsonObject = {
    "seat": 1,
    "player": None,
    "name": "Bot 1",
    "colour": "blue",
    "bot": True,
    "level": "strong",
    "bot_account": False,
}
#: Seats as older releases stored them: no level, no bot account, keys in another order, a
#: key this module does not know.
OLDER: list[JsonObject] = [
    {"seat": 0, "player": "p1", "name": "Ann", "colour": "red", "bot": False},
    {"seat": 0, "player": "p1", "name": "Ann", "colour": "red", "bot": False, "level": "normal"},
    {"seat": 2, "name": "Cy", "colour": "green", "bot": False, "bot_account": True},
    {"bot": False, "colour": "red", "seat": 0, "player": "p1", "bot_account": True, "name": "A"},
    {**DEALT, "badge": {"kind": "gold", "years": [2024, 2025]}, "note": None},
]


@pytest.mark.parametrize("stored", [DEALT, *OLDER])
def test_every_stored_seat_round_trips_to_the_same_bytes(stored: JsonObject) -> None:
    seat = MatchSeat.from_json(stored)
    assert orjson.dumps(seat.to_json()) == orjson.dumps(stored)
    assert seats_to_json(seats_from_json([stored, DEALT])) == [stored, DEALT]


def test_a_seat_reads_typed_with_defaults_for_what_it_lacks() -> None:
    seat = MatchSeat.from_json(DEALT)
    assert (seat.seat, seat.player, seat.name, seat.colour) == (1, None, "Bot 1", "blue")
    assert seat.bot and seat.level == "strong" and not seat.bot_account
    old = MatchSeat.from_json(OLDER[0])
    assert old.level is None and old.bot_account is False and old.extra == {}
    assert "level" not in old.to_json() and "bot_account" not in old.to_json()


def test_a_seat_is_frozen_and_its_json_fresh() -> None:
    seat = MatchSeat.from_json(OLDER[-1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.name = "Eve"  # type: ignore[misc]
    out = seat.to_json()
    badge = out["badge"]
    assert isinstance(badge, dict)
    badge["kind"] = "lead"
    assert seat.to_json() == OLDER[-1]


def test_a_seat_built_in_code_writes_every_known_key() -> None:
    seat = MatchSeat(seat=0, player="p1", name="Ann", colour="red", bot=False)
    assert list(seat.to_json()) == [
        "seat", "player", "name", "colour", "bot", "level", "bot_account",
    ]  # fmt: skip
    assert MatchSeat.from_json(seat.to_json()) == seat


@pytest.mark.parametrize("key", ["seat", "name", "colour", "bot"])
def test_a_seat_without_a_required_key_is_refused(key: str) -> None:
    with pytest.raises(KeyError, match=key):
        MatchSeat.from_json({k: v for k, v in DEALT.items() if k != key})


@pytest.mark.parametrize(
    ("key", "value"),
    [("seat", "1"), ("seat", True), ("bot", 1), ("bot_account", None), ("player", 7)],
)
def test_a_seat_with_a_value_of_the_wrong_kind_is_refused(key: str, value: object) -> None:
    with pytest.raises(ValueError, match=key):
        MatchSeat.from_json({**DEALT, key: value})  # type: ignore[dict-item]


def test_seat_of_finds_the_players_seat() -> None:
    table = seats_from_json([OLDER[0] | {"seat": 0}, DEALT, OLDER[2]])
    assert seat_of(table, "p1") == 0
    assert seat_of(table, "nobody") is None
    assert seat_of(table, None) is None  # a computer seat holds no player


def test_a_cached_match_holds_its_rows_seats_typed(sqlite_url: str) -> None:
    async def body(rt: Runtime) -> None:
        ann, _ = await identity.create_player(rt.storage.db, rt.tokens, "Ann")
        ben, _ = await identity.create_player(rt.storage.db, rt.tokens, "Ben")
        code = (
            await lobby.create_lobby(
                rt, ann["id"], name=None, preset=None, rules=None, seats=3, private=False
            )
        )["code"]
        await seats.join(rt, code, ben["id"])
        await seats.add_bot(rt, code, ann["id"], "easy")
        match_id = await dealing.start(rt, code, ann["id"])
        rt.storage.cache.drop(match_id)  # parsed from the row, not kept from the deal
        live = await reads.current(rt, match_id)
        async with rt.storage.db.reading() as conn:
            stored = await conn.execute(select(matches.c.seats).where(matches.c.id == match_id))
            row = stored.scalar_one()
        assert all(isinstance(s, MatchSeat) for s in live.seats)
        assert orjson.dumps(seats_to_json(live.seats)) == orjson.dumps(row)
        assert [s.bot for s in live.seats] == [False, False, True]
        assert live.seats[2].level == "easy" and live.seat_of(ben["id"]) == 1

    async def go() -> None:
        rt = Runtime(make_settings(sqlite_url, None, "test-seats", ROOT / "frontend"))
        try:
            await body(rt)
        finally:
            await rt.close()

    run_async(go)
