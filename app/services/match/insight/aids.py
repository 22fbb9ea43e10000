"""The computed player aids of a match's current position, for one socket (docs/API.md § Aids).

The table's aid policy (:class:`app.engine.aids.AidPolicy`, kept in the match's clock under
``aids``) says which aids its players and its spectators get; the engine computes them from
the public position only (:func:`app.engine.aids.aids_for`: no deck order, no seed). A viewer
whose policy grants no computed aid gets a ``forbidden`` refusal (reason ``aids_off``) and no
aid data at all — rated and tournament tables are ``off`` by default.

Aids a policy grants spectators but not players are kept from the players: a spectator
behind a spectator delay gets the aids of the position it sees (never of a later one); a
viewer without a token (who may be a player watching their own table) gets only what the
players get; on a rated table the spectators' extra aids go only to spectators behind a
delay (a second identity is free, so "not seated" proves nothing where ratings are at stake).
"""

from __future__ import annotations

from collections import OrderedDict

from app.engine.aids import COMPUTED, aids_for
from app.realtime.protocol import dumps
from app.services.clock import table_options
from app.services.clock_values.match_clock import MatchClock
from app.services.errors import Forbidden
from app.services.match import queries
from app.services.match.reads import check_watch, current
from app.services.match.spectating.delay import delay_for, delayed_live
from app.services.runtime import Runtime

#: Whether a match is rated, by id (it never changes): bounded, oldest forgotten first.
_RATED: OrderedDict[str, bool] = OrderedDict()
_RATED_KEPT = 4096


def granted(clock: MatchClock | None, spectator: bool, extra: bool = True) -> list[str]:
    """The computed aids the policy in the match's typed ``clock`` grants a player
    (``spectator`` False) or a spectator: names of :data:`app.engine.aids.COMPUTED`, in its
    order (matches from before policies, or without a clock: none). ``extra`` False: a
    spectator gets only what the players get as well.
    """
    policy = table_options.match_aids(clock, True)
    mine = policy.for_viewer(spectator)
    if spectator and not extra:
        mine = mine & policy.for_viewer(False)
    return [a for a in COMPUTED if a in mine]


async def _rated(rt: Runtime, match_id: str) -> bool:
    if match_id not in _RATED:
        async with rt.storage.db.reading() as conn:
            _RATED[match_id] = await queries.is_rated_match(conn, match_id)
        while len(_RATED) > _RATED_KEPT:
            _RATED.popitem(last=False)
    return _RATED[match_id]


async def aids_frame(rt: Runtime, match_id: str, player_id: str | None, code: str | None) -> str:
    """``{"t": "aids", "v": version, "d": {"projected_scores"?, "impossible_holes"?,
    "features"?}}`` for the current position, the keys the policy grants this viewer.

    Raises :class:`NotFound`, :class:`Forbidden` (private match; ``aids_off``: nothing granted).
    """
    live = rt.storage.cache.get(match_id)
    hub = rt.fanout.hubs.get(rt.fanout.channel("match", match_id))
    if live is None or hub is None or live.version < 0 or hub.last_v != live.version:
        # Not the version this instance's sockets were last sent: read the latest (a socket
        # asks after every new version, so the cached one saves a read per socket and move).
        live = await current(rt, match_id)
    check_watch(live, player_id, code)
    seat = live.seat_of(player_id)
    extra = True
    if seat is None and not live.state.is_over:
        delayed = await delay_for(rt, live, player_id) is not None
        extra = player_id is not None and (delayed or not await _rated(rt, match_id))
        clock = live.clock
        live = await delayed_live(rt, live, player_id)  # the position this spectator sees
        wanted = granted(clock, True, extra)
    else:
        wanted = granted(live.clock, seat is None)
    if not wanted:
        raise Forbidden("this table's aid policy gives you no computed aid", reason="aids_off")
    key = (live.version, seat is None, extra)
    found = live.aids.get(key)
    if found is None:
        found = aids_for(live.state, wanted)
        live.aids = {key: found, **{k: v for k, v in live.aids.items() if k[0] == key[0]}}
    return dumps({"t": "aids", "v": key[0], "d": found})
