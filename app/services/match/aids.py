"""The computed player aids of a match's current position, for one socket (docs/API.md § Aids).

The table's aid policy (:class:`app.engine.aids.AidPolicy`, kept in the match's clock under
``aids``) says which aids its players and its spectators get; the engine computes them from
the public position only (:func:`app.engine.aids.aids_for`: no deck order, no seed). A viewer
whose policy grants no computed aid gets a ``forbidden`` refusal (reason ``aids_off``) and no
aid data at all — rated and tournament tables are ``off`` by default.
"""

from __future__ import annotations

from app.engine.aids import COMPUTED, aids_for
from app.realtime.protocol import dumps
from app.services.clock import table_options
from app.services.errors import Forbidden
from app.services.match.reads import check_watch, current
from app.services.runtime import Runtime


def granted(clock: dict[str, object] | None, spectator: bool) -> list[str]:
    """The computed aids the match's policy grants a player (``spectator`` False) or a
    spectator, in :data:`app.engine.aids.COMPUTED` order (matches from before policies: none).
    """
    policy = table_options.aids_of(clock, True)
    mine = policy.for_viewer(spectator)
    return [a for a in COMPUTED if a in mine]


async def aids_frame(rt: Runtime, match_id: str, player_id: str | None, code: str | None) -> str:
    """``{"t": "aids", "v": version, "d": {"projected_scores"?, "impossible_holes"?,
    "features"?}}`` for the current position, the keys the policy grants this viewer.

    Raises :class:`NotFound`, :class:`Forbidden` (private match; ``aids_off``: nothing granted).
    """
    live = rt.cache.get(match_id)
    hub = rt.hubs.get(rt.channel("match", match_id))
    if live is None or hub is None or live.version < 0 or hub.last_v != live.version:
        # Not the version this instance's sockets were last sent: read the latest (a socket
        # asks after every new version, so the cached one saves a read per socket and move).
        live = await current(rt, match_id)
    check_watch(live, player_id, code)
    seat = live.seat_of(player_id)
    wanted = granted(live.clock, seat is None)
    if not wanted:
        raise Forbidden("this table's aid policy gives you no computed aid", reason="aids_off")
    key = (live.version, seat is None)
    found = live.aids.get(key)
    if found is None:
        found = aids_for(live.state, wanted)
        live.aids = {key: found, **{k: v for k, v in live.aids.items() if k[0] == key[0]}}
    return dumps({"t": "aids", "v": key[0], "d": found})
