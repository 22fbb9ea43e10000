"""Hypothesis properties of the Wheel of Fortune's draw (RULES.md §3.2c, §6.4, §6.5): whatever
the pig lands on and whatever is discarded, some seat can always act until the game ends, and
every game replays from its record.

Random play almost never makes an icon tile unplaceable (none in 2,160 follower decisions of
30 random games), so the discard right after a Plague is forced: the board of
``DISCARD_TURNS`` closes the wheel's three roads, where X.1 (four roads, icon 1) then fits
nowhere, and its icon lands the pig on Plague. Hypothesis chooses the seats, who keeps a monk,
who takes what back, what is drawn after the discard (icon tiles, another unplaceable X) and the
order and moves of the rest of the game. A second property reorders the undrawn tiles of
random games so that icon tiles come as often as the deck allows (many Plagues, with and
without followers on land).
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    PLAGUE,
    GameState,
    Options,
    Pass,
    PlaceFollower,
    PlaceTile,
    apply,
    export_record,
    legal_actions,
    new_game,
    replay,
)
from app.engine.events import TileDiscarded
from app.engine.expansions.wheel_of_fortune import wheel_state
from app.engine.tiles import TILE_TYPES

from .test_wheel_of_fortune import DISCARD_DRAW, DISCARD_TURNS

WOF = Options(expansions=frozenset({"wheel_of_fortune"}))
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: The tiles of the whole Wheel of Fortune deck (start board excluded), as a multiset.
DECK = Counter(new_game(WOF, NAMES[:2], seed=0).deck)
ICON_TILES = sorted(t for t in DECK if TILE_TYPES[t].icon)


def _someone_can_act(s: GameState) -> None:
    """The invariant: until the end, there is a legal action, and only the seat asked acts."""
    actions = legal_actions(s)
    assert actions, f"nobody can act in phase {s.phase} (seat {s.seat}, tile {s.tile})"
    assert all(a.seat == s.seat for a in actions)


def _play_out(s: GameState, rng: random.Random) -> GameState:
    """Random legal moves to the end, checking the invariant at every step; then the record
    replays to the same scores, pig and supplies.
    """
    for _ in range(1000):
        if s.is_over:
            break
        _someone_can_act(s)
        s, _ = apply(s, rng.choice(legal_actions(s)))
    assert s.is_over
    again, _ = replay(json.loads(json.dumps(export_record(s))))
    assert (again.scores, wheel_state(again).pig, again.supply) == (
        s.scores,
        wheel_state(s).pig,
        s.supply,
    )
    return s


@given(
    players=st.integers(min_value=2, max_value=5),
    monks=st.tuples(st.booleans(), st.booleans()),
    after=st.lists(st.sampled_from([*ICON_TILES, "X"]), min_size=1, max_size=3),
    seed=SEEDS,
)
@PROPERTY
def test_a_discard_right_after_plague_never_stops_the_game(
    players: int, monks: tuple[bool, bool], after: list[str], seed: int
) -> None:
    rng = random.Random(seed)
    prefix = DISCARD_DRAW[:-1]  # ... U.2 (Inquisition), X.1 (Plague, fits nowhere)
    rest = DECK - Counter(prefix)
    chosen: list[str] = []
    for tile in after:  # what follows the discard, as far as the deck holds it
        if rest[tile] > 0:
            rest[tile] -= 1
            chosen.append(tile)
    tail = list(rest.elements())
    rng.shuffle(tail)
    s = new_game(WOF, NAMES[:players], draw_order=[*prefix, *chosen, *tail])
    for i, (x, y, r, follower) in enumerate(DISCARD_TURNS):
        s, _ = apply(s, PlaceTile(s.seat, x, y, r))
        keep = follower is not None and monks[i]
        s, events = apply(s, PlaceFollower(s.seat, follower) if keep else Pass(s.seat))
    # X.1 lands the pig on Plague; with nobody on land it is discarded at once.
    assert (s.phase == PLAGUE and s.tile == "X.1" and wheel_state(s).pig == 5) == any(monks)
    discarded = any(isinstance(e, TileDiscarded) and e.tile == "X.1" for e in events)
    while s.phase == PLAGUE:
        _someone_can_act(s)
        s, events = apply(s, rng.choice(legal_actions(s)))
        discarded = discarded or TileDiscarded(s.active, "X.1") in events
    assert discarded
    _play_out(s, rng)


@given(players=st.integers(min_value=2, max_value=5), seed=SEEDS)
@PROPERTY
def test_icon_tiles_drawn_as_often_as_the_deck_allows_never_stop_the_game(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    s = new_game(WOF, NAMES[:players], seed=seed)
    for _ in range(1000):
        if s.is_over:
            break
        _someone_can_act(s)
        action = rng.choice(legal_actions(s))
        if s.phase == "deploy":  # the next draw follows this action: an icon tile first
            undrawn = list(s.deck[s.deck_pos :])
            icons = [i for i, t in enumerate(undrawn) if TILE_TYPES[t].icon]
            if icons:
                first = undrawn.pop(rng.choice(icons))
                s = s.copy()
                s.deck = (*s.deck[: s.deck_pos], first, *undrawn)
        s, _ = apply(s, action)
    assert s.is_over
    again, _ = replay(json.loads(json.dumps(export_record(s))))
    assert again.scores == s.scores and wheel_state(again).pig == wheel_state(s).pig
