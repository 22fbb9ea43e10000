"""Carcassonne: Wheel of Fortune — the pig, the six actions, crown spaces and the Plague.

Implements RULES.md §6.4–§6.6 (seed 004) on top of :mod:`app.engine.board` and
:mod:`app.engine.scoring`; the expansion's hooks (:mod:`.expansion`) call it from the draw and
the actions. Segments and crowns are data in :mod:`.data`; the state it changes is
:class:`~.model.WheelState` (replaced, never changed in place).

Turn order when a drawn tile shows a wheel icon ``n`` (§6.4): the pig moves ``n`` segments
clockwise; the segment's action runs; that segment's crown spaces score and return their
followers; then the turn goes on (place or discard). A Plague pauses the draw: each seat with a
follower on a land tile chooses one to take back, the active seat first, then clockwise — these
are decisions by seats whose turn it is not (phase ``plague``).
"""

from __future__ import annotations

from dataclasses import replace

from app.engine.board import completed_cities, spot_of
from app.engine.events import Event, FollowerReturned
from app.engine.expansions.wheel_of_fortune.data import (
    CROWNS,
    PLAGUE_SEGMENT,
    SEGMENT_NAMES,
    SEGMENTS,
)
from app.engine.expansions.wheel_of_fortune.model import (
    ID,
    PLAGUE,
    CrownPlaced,
    CrownReturned,
    PigMoved,
    RemoveFollower,
    wheel_state,
)
from app.engine.scoring import award
from app.engine.state import PLACE_TILE, GameState, find
from app.engine.tiles import CITY, CLOISTER, FIELD


def tax_points(knights: int, pennants: int) -> int:
    """Tax for one player's ``knights`` in one city with ``pennants``: each knight earns a point
    per pennant plus a point per knight of that player in the city, ``k × (p + k)`` (§6.5).
    """
    return knights * (pennants + knights)


def crown_points(crowns: int, occupants: int) -> int:
    """Points per follower on a segment's crown spaces (§6.6): alone on one crown 3, alone on
    two crowns 6, two followers on two crowns 3 each.
    """
    if occupants == 1 and crowns == 2:
        return 6
    return 3


def spin(s: GameState, icon: int, events: list[Event]) -> bool:
    """Move the pig ``icon`` segments clockwise and resolve where it lands (§6.4 steps 1–3).

    Returns True when the draw must wait: the pig landed on Plague with followers on land, so
    the state enters the ``plague`` phase and :func:`finish_plague` completes the step once
    every decision is made. False when the segment was resolved at once.
    """
    ws = wheel_state(s)
    pig = (ws.pig + icon) % len(SEGMENTS)
    name = SEGMENT_NAMES[pig]
    events.append(PigMoved(s.active, icon, SEGMENT_NAMES[ws.pig], name))
    s.expansion_state[ID] = ws = replace(ws, pig=pig)
    if name == "plague":
        queue = plague_order(s)
        s.expansion_state[ID] = replace(ws, plague_queue=queue)
        if queue:
            s.phase = PLAGUE
            s.seat = queue[0]
            return True
    elif name == "fortune":
        award(
            s,
            events,
            (s.active,),
            3,
            category="fortune",
            rule="Fortune: 3 points to the player who moved the pig",
        )
    elif name == "tax":
        _tax(s, events)
    elif name == "famine":
        _famine(s, events)
    elif name == "storm":
        for seat, supply in enumerate(s.supply):
            award(
                s,
                events,
                (seat,),
                supply,
                category="storm",
                rule=f"Storm: 1 point per follower in supply ({supply})",
            )
    elif name == "inquisition":
        monks = [0] * len(s.players)
        for gid, seat in s.followers.items():
            if s.seg_kind[gid] == CLOISTER:
                monks[seat] += 1
        for seat, n in enumerate(monks):
            award(
                s,
                events,
                (seat,),
                2 * n,
                category="inquisition",
                rule=f"Inquisition: 2 points per monk ({n})",
                counts=monks,
            )
    score_crowns(s, pig, events)
    return False


def plague_order(s: GameState) -> tuple[int, ...]:
    """Seats that must take a follower back, active seat first then clockwise (§6.5)."""
    n = len(s.players)
    holders = set(s.followers.values())
    return tuple(seat for seat in ((s.active + i) % n for i in range(n)) if seat in holders)


def plague_choices(s: GameState) -> list[tuple[int, int, str]]:
    """``(x, y, spot)`` of each follower on land the deciding seat may take back, sorted."""
    out: list[tuple[int, int, str]] = []
    for gid, seat in s.followers.items():
        if seat == s.seat:
            (x, y), spot = spot_of(s, gid)
            out.append((x, y, spot))
    out.sort()
    return out


def remove_follower(s: GameState, gid: int, events: list[Event]) -> None:
    """Take the follower on segment ``gid`` back to its owner's supply, unscored (Plague)."""
    seat = s.followers.pop(gid)
    root = find(s.parent, gid)
    s.f_followers[root] = tuple(g for g in s.f_followers[root] if g != gid)
    s.supply[seat] += 1
    pos, spot = spot_of(s, gid)
    events.append(FollowerReturned(seat, pos, spot))


def finish_plague(s: GameState, events: list[Event]) -> bool:
    """After one Plague decision: move to the next seat, or score Plague's crowns and return
    True once every decision is made. Then the Plague phase is over (the caller resumes the
    draw, which sets the next phase): a tile drawn after a discard must not find the state
    still in ``plague`` with nobody left to decide.
    """
    ws = wheel_state(s)
    holders = set(s.followers.values())
    queue = tuple(seat for seat in ws.plague_queue[1:] if seat in holders)
    s.expansion_state[ID] = replace(ws, plague_queue=queue)
    if queue:
        s.seat = queue[0]
        return False
    score_crowns(s, PLAGUE_SEGMENT, events)
    s.phase = PLACE_TILE
    s.seat = s.active
    return True


def score_crowns(s: GameState, segment: int, events: list[Event]) -> None:
    """Score the crown spaces of ``segment`` and return their followers (§6.6)."""
    ws = wheel_state(s)
    occupants = ws.crowns[segment]
    if not occupants:
        return
    points = crown_points(CROWNS[segment], len(occupants))
    name = SEGMENT_NAMES[segment]
    counts = [0] * len(s.players)
    for seat in occupants:
        counts[seat] += 1
    for seat in occupants:
        award(
            s,
            events,
            (seat,),
            points,
            category="crown",
            rule=f"crown space on {name}: {points} points",
            counts=counts,
        )
    for seat in occupants:
        s.supply[seat] += 1
        events.append(CrownReturned(seat, name))
    crowns = tuple(() if i == segment else c for i, c in enumerate(ws.crowns))
    s.expansion_state[ID] = replace(ws, crowns=crowns)


def place_crown(s: GameState, name: str, events: list[Event]) -> None:
    """The acting seat deploys a follower from supply on a crown space of segment ``name``
    (RULES.md §6.4; the caller checked that one is free).
    """
    ws = wheel_state(s)
    segment = SEGMENT_NAMES.index(name)
    crowns = tuple(c + (s.seat,) if i == segment else c for i, c in enumerate(ws.crowns))
    s.expansion_state[ID] = replace(ws, crowns=crowns)
    s.supply[s.seat] -= 1
    events.append(CrownPlaced(s.seat, name))


def free_crowns(s: GameState) -> list[str]:
    """Names of the segments with a free crown space, clockwise from Fortune."""
    held = wheel_state(s).crowns
    return [name for name, n, h in zip(SEGMENT_NAMES, CROWNS, held, strict=True) if len(h) < n]


def plague_target(s: GameState, action: RemoveFollower) -> int | None:
    """The segment id of the acting seat's follower a Plague decision names, if any."""
    nb = s.board.get((action.x, action.y))
    if nb is None:
        return None
    rt, base = nb
    local = rt.spots.get(action.spot)
    if local is None:
        return None
    gid = base + local
    return gid if s.followers.get(gid) == action.seat else None


def _tax(s: GameState, events: list[Event]) -> None:
    cities: dict[int, list[int]] = {}
    for gid, seat in sorted(s.followers.items()):
        if s.seg_kind[gid] == CITY:
            cities.setdefault(find(s.parent, gid), [0] * len(s.players))[seat] += 1
    for root, counts in cities.items():
        pennants = s.f_pennants[root]
        for seat, k in enumerate(counts):
            if k:
                award(
                    s,
                    events,
                    (seat,),
                    tax_points(k, pennants),
                    category="tax",
                    rule=f"Tax: {k} knight(s) × ({pennants} pennant(s) + {k} knight(s))",
                    tiles=s.f_tiles[root],
                    pennants=pennants,
                    counts=counts,
                )


def _famine(s: GameState, events: list[Event]) -> None:
    farms: dict[int, list[int]] = {}
    for gid, seat in sorted(s.followers.items()):
        if s.seg_kind[gid] == FIELD:
            farms.setdefault(find(s.parent, gid), [0] * len(s.players))[seat] += 1
    for root, counts in farms.items():
        cities = len(completed_cities(s, root))
        for seat, k in enumerate(counts):
            if k and cities:
                award(
                    s,
                    events,
                    (seat,),
                    k * cities,
                    category="famine",
                    rule=f"Famine: {k} farmer(s) × {cities} completed cit(ies) supplied",
                    tiles=s.f_tiles[root],
                    cities=cities,
                    counts=counts,
                )
