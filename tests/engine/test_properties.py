"""Hypothesis properties over random legal games (base game and River, every option).

Each game is driven by a seed drawn by Hypothesis: the deck comes from the engine's own seeded
shuffle and the moves from ``random.Random(seed)``, so a failing example is reproducible from
its seed alone. Example counts are kept small so the whole engine suite stays well under two
minutes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    EngineError,
    GameOver,
    GameState,
    NotYourTurn,
    Options,
    Pass,
    PlaceFollower,
    PlaceTile,
    WrongPhase,
    action_from_json,
    apply,
    apply_in_place,
    event_from_json,
    event_to_json,
    export_record,
    legal_actions,
    legal_follower_spots,
    legal_placements,
    load_state,
    new_game,
    replay,
    view,
)
from app.engine.actions import Action
from app.engine.events import Event, FollowerPlaced, TileDrawn, TilePlaced
from app.engine.expansions.river import RIVER_TILES
from app.engine.expansions.wheel_of_fortune import RemoveFollower
from app.engine.game import DEPLOY, PLACE_TILE
from app.engine.rng import SplitMix64
from app.engine.tiles import HALVES, ROTATED, SIDE_DELTAS, SIDES

from .reference import Reference

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
OPTIONS = st.builds(
    Options,
    expansions=st.sampled_from([frozenset(), frozenset({"river"})]),
    farm_scoring=st.sampled_from(["modern", "original"]),
    small_city_two_points=st.booleans(),
)
PLAYERS = st.integers(min_value=2, max_value=5)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RIVER_IDS = {t.id for t in RIVER_TILES}
#: Every follower spot name there is, valid or not on a given tile.
ALL_SPOTS = (
    [f"{kind}:{side}" for kind in ("city", "road", "river") for side in SIDES]
    + [f"field:{half}" for half in HALVES]
    + ["cloister", "crown:tax", "monk", "field:X", "city:", ""]
)


@dataclass
class Step:
    """One action of a random game: the state before, the action, the events it caused."""

    before: GameState
    action: Action
    events: list[Event]
    after: GameState


def random_game(seed: int, options: Options, players: int, p_follow: float = 0.6) -> Iterator[Step]:
    """Play one random legal game; yields every step. Deploys a follower with ``p_follow``."""
    rng = random.Random(seed)
    state = new_game(options, [f"P{i}" for i in range(players)], seed=seed)
    while not state.is_over:
        actions = legal_actions(state)
        assert actions, "a running game always offers an action"
        deploy = [a for a in actions if isinstance(a, PlaceFollower)]
        if deploy and rng.random() < p_follow:
            action: Action = rng.choice(deploy)
        elif state.phase == DEPLOY:
            action = Pass(state.seat)
        else:
            action = rng.choice(actions)
        after, events = apply(state, action)
        yield Step(state, action, events, after)
        state = after


def play_out(seed: int, options: Options, players: int) -> tuple[GameState, list[Event]]:
    """The final state of a random game and all its events (opening draw included)."""
    state = new_game(options, [f"P{i}" for i in range(players)], seed=seed)
    events: list[Event] = list(state.opening_events)
    for step in random_game(seed, options, players):
        events += step.events
        state = step.after
    return state, events


def snapshot(state: GameState) -> tuple[str, list[int], str, int, str | None, list[int]]:
    """What must not change when ``apply`` refuses an action."""
    return (
        json.dumps(state.to_json(), sort_keys=True),
        list(state.scores),
        state.phase,
        state.seat,
        state.tile,
        list(state.supply),
    )


def quick_snapshot(state: GameState) -> tuple[object, ...]:
    """A cheaper :func:`snapshot` for checks after every single refusal."""
    return (
        len(state.actions),
        list(state.scores),
        state.phase,
        state.seat,
        state.tile,
        list(state.supply),
        state.deck_pos,
        len(state.board),
        dict(state.followers),
        state.placed,
    )


# ---------------------------------------------------------------- whole-game invariants


@FAST
@given(seed=SEEDS, options=OPTIONS, players=PLAYERS)
def test_random_games_terminate_and_keep_their_invariants(
    seed: int, options: Options, players: int
) -> None:
    """A random legal game ends; no legal action raises; followers on the board plus in supply
    are 7 per seat; scores never decrease; every tile drawn is placed or discarded.
    """
    deck = new_game(options, ["a", "b"], seed=seed).deck
    state: GameState | None = None
    for steps, step in enumerate(random_game(seed, options, players), 1):
        assert steps <= 2 * len(deck) + 2
        state = step.after
        on_board = [0] * players
        for seat in state.followers.values():
            on_board[seat] += 1
        assert [b + s for b, s in zip(on_board, state.supply, strict=True)] == [7] * players
        assert all(a >= b for a, b in zip(state.scores, step.before.scores, strict=True))
    assert state is not None and state.is_over
    assert state.tiles_remaining == 0
    assert max(state.scores) == state.scores[state.winners[0]]
    assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == max(state.scores))


@FAST
@given(seed=SEEDS, options=OPTIONS, players=PLAYERS)
def test_every_placed_tile_matches_all_its_neighbours(
    seed: int, options: Options, players: int
) -> None:
    """RULES.md §3.2b: "Every edge that touches a neighbour must match it"."""
    state, _ = play_out(seed, options, players)
    for (x, y), (rt, _) in state.board.items():
        for side, (dx, dy) in enumerate(SIDE_DELTAS):
            nb = state.board.get((x + dx, y + dy))
            if nb is not None:
                assert rt.edges[side] == nb[0].edges[(side + 2) % 4], ((x, y), side)


# ---------------------------------------------------------------- apply vs legal_actions


def candidate_actions(state: GameState) -> list[Action]:
    """Every action worth probing now: all frontier cells × rotations (and some occupied or
    detached cells), every spot name, pass — for the acting seat and for a wrong seat.
    """
    seat = state.seat
    cells = set(state.frontier) | {(0, 0), (99, 99)}
    if state.placed is not None:
        cells.add(state.placed)
    out: list[Action] = []
    for who in (seat, (seat + 1) % len(state.players)):
        out += [PlaceTile(who, x, y, r) for x, y in cells for r in (0, 90, 180, 270)]
        out += [PlaceFollower(who, spot) for spot in ALL_SPOTS]
        out.append(Pass(who))
    out.append(PlaceTile(seat, 1, 0, 45))
    out.append(RemoveFollower(seat, 0, 0, "city:N"))  # a Wheel of Fortune decision: never here
    return out


def accepted_by_legal_actions(state: GameState, legal: set[Action], action: Action) -> bool:
    """Whether ``action`` is in ``legal`` (the state's ``legal_actions``); a follower spot named
    by any side or half-edge of a segment counts as that segment's canonical spot (record.md:
    "Any side (or half-edge) of the chosen segment names it").
    """
    if action in legal:
        return True
    if isinstance(action, PlaceFollower) and state.placed is not None:
        rt = state.board[state.placed][0]
        local = rt.spots.get(action.spot)
        if local is not None:
            return PlaceFollower(action.seat, rt.segments[local].name) in legal
    return False


@SLOW
@given(seed=SEEDS, options=OPTIONS, players=PLAYERS)
def test_apply_rejects_exactly_what_legal_actions_omits(
    seed: int, options: Options, players: int
) -> None:
    """``apply`` accepts an action iff ``legal_actions`` lists it, and a refused action changes
    nothing (state JSON, scores, phase, seat, tile, supplies).
    """
    rng = random.Random(seed ^ 0x5EED)
    last: GameState | None = None
    for number, step in enumerate(random_game(seed, options, players)):
        state = step.before
        last = step.after
        if number % 3 and rng.random() < 0.5:
            continue  # probe about half the positions, for speed
        before = snapshot(state)
        quick = quick_snapshot(state)
        legal = set(legal_actions(state))
        for action in candidate_actions(state):
            should = accepted_by_legal_actions(state, legal, action)
            try:
                apply(state, action)
            except EngineError as exc:
                assert not should, (action, exc.code, exc.message)
                if action.seat != state.seat:
                    assert isinstance(exc, NotYourTurn)
                elif (state.phase == PLACE_TILE) != isinstance(action, PlaceTile):
                    assert isinstance(exc, WrongPhase)  # a tile in deploy, a follower in place
                assert quick_snapshot(state) == quick, action
            else:
                assert should, action
        assert snapshot(state) == before
    assert last is not None and last.is_over
    for action in candidate_actions(last)[:20]:
        try:
            apply(last, action)
        except GameOver:
            pass
        else:  # pragma: no cover - a finished game must refuse everything
            raise AssertionError(action)


# ---------------------------------------------------------------- records and JSON


@FAST
@given(seed=SEEDS, options=OPTIONS, players=PLAYERS, cut=st.floats(0, 1))
def test_replay_of_the_exported_record_equals_the_live_game(
    seed: int, options: Options, players: int, cut: float
) -> None:
    """replay(export_record(game)) equals the live game: at the end (scores, winners, board,
    followers) and mid-game (an unfinished export: the same position, the same drawn tile).
    """
    steps = list(random_game(seed, options, players))
    final = steps[-1].after
    state, _ = replay(json.loads(json.dumps(export_record(final))))
    # A record carries no seed (only the tiles drawn); everything else is the same game.
    assert {**state.to_json(), "seed": None} == {**final.to_json(), "seed": None}
    assert state.scores == final.scores and state.winners == final.winners
    assert view(state)["board"] == view(final)["board"]
    assert view(state)["followers"] == view(final)["followers"]
    middle = [s.after for s in steps if s.after.phase == PLACE_TILE]
    if middle:
        live = middle[int(cut * (len(middle) - 1))]
        doc = json.loads(json.dumps(export_record(live)))
        assert doc["finished"] is False and "result" not in doc
        again, _ = replay(doc)
        assert again.scores == live.scores and again.supply == live.supply
        assert again.tile == live.tile and again.seat == live.seat
        # An unfinished record lists only the tiles drawn so far, never the rest of the deck.
        hidden = ("remaining", "tiles_remaining")
        assert {k: v for k, v in view(again, live.seat).items() if k not in hidden} == {
            k: v for k, v in view(live, live.seat).items() if k not in hidden
        }


@FAST
@given(seed=SEEDS, options=OPTIONS, players=PLAYERS, cut=st.floats(0, 1))
def test_state_actions_and_events_round_trip_through_json(
    seed: int, options: Options, players: int, cut: float
) -> None:
    """load_state(to_json), action_from_json(to_json) and
    event_from_json(event_to_json) all round-trip exactly through a JSON text.
    """
    steps = list(random_game(seed, options, players))
    for step in steps:
        assert action_from_json(json.loads(json.dumps(step.action.to_json()))) == step.action
        for event in step.events:
            assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
    for state in (steps[int(cut * (len(steps) - 1))].after, steps[-1].after):
        again = load_state(json.loads(json.dumps(state.to_json())))
        assert again == state
        assert again.to_json() == state.to_json()
        assert again.scores == state.scores and again.supply == state.supply
        assert legal_actions(again) == legal_actions(state)
        assert view(again, state.seat) == view(state, state.seat)


# ---------------------------------------------------------------- determinism and secrecy


def test_splitmix64_reference_outputs() -> None:
    """The deck shuffle's PRNG is SplitMix64: its published first outputs for seed 0."""
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_known_seeds_give_pinned_decks() -> None:
    """Pin the first tiles of known seeds: a change of PRNG or shuffle breaks every saved game
    and must be noticed.
    """
    assert new_game(Options(), ["a", "b"], seed=0).deck[:12] == (
        "F",
        "W",
        "J",
        "E",
        "A",
        "L",
        "E",
        "U",
        "Q",
        "H",
        "X",
        "M",
    )
    assert new_game(Options(), ["a", "b", "c"], seed=2024).deck[:12] == (
        "N",
        "W",
        "R",
        "V",
        "U",
        "W",
        "D",
        "D",
        "A",
        "D",
        "H",
        "E",
    )
    assert new_game(Options(expansions=frozenset({"river"})), ["a", "b"], seed=0).deck[:14] == (
        "R8",
        "R6",
        "R5",
        "R10",
        "R10",
        "R4",
        "R7",
        "R9",
        "R3",
        "R7",
        "R2",
        "U",
        "E",
        "U",
    )


@FAST
@given(seed=SEEDS, options=OPTIONS)
def test_same_seed_same_deck(seed: int, options: Options) -> None:
    """Determinism: the same options and seed give the same deck (player names do not matter);
    the deck holds exactly the set's tiles.
    """
    a = new_game(options, ["a", "b"], seed=seed)
    b = new_game(options, ["x", "y", "z"], seed=seed)
    assert a.deck == b.deck
    assert len(a.deck) == (82 if "river" in options.expansions else 71)
    assert sorted(a.deck) == sorted(new_game(options, ["a", "b"], seed=seed + 1).deck)


@SLOW
@given(
    seed=SEEDS,
    options=OPTIONS,
    players=PLAYERS,
    cut=st.floats(0, 1),
    shuffle_seed=st.integers(0, 2**32),
)
def test_view_never_reveals_the_deck_order_or_seed(
    seed: int, options: Options, players: int, cut: float, shuffle_seed: int
) -> None:
    """view(state, seat) shows neither the deck nor the seed: two games with the same history
    but a different order of the undrawn tiles look identical, byte for byte, to every seat and
    to spectators (only the counts of the remaining tiles are public).
    """
    steps = list(random_game(seed, options, players))
    live = steps[int(cut * (len(steps) - 1))].after
    drawn = list(live.deck[: live.deck_pos])
    rest = list(live.deck[live.deck_pos :])
    random.Random(shuffle_seed).shuffle(rest)
    if (
        "river" in options.expansions
    ):  # keep the River's order rule: river tiles, the lake, then the land
        rest.sort(key=lambda t: 0 if t in RIVER_IDS and t != "R2" else 1 if t == "R2" else 2)
    twin = new_game(options, list(live.players), draw_order=drawn + rest)
    for action in live.actions:
        apply_in_place(twin, action)
    for seat in [None, *range(players)]:
        mine, theirs = view(live, seat), view(twin, seat)
        assert json.dumps(mine) == json.dumps(theirs)
        text = json.dumps(mine)
        assert '"deck"' not in text and '"seed"' not in text
        assert mine["remaining"] == {t: rest.count(t) for t in sorted(set(rest))}


# ---------------------------------------------------------------- the River


@FAST
@given(seed=SEEDS, players=PLAYERS, farm=st.sampled_from(["modern", "original"]))
def test_river_order_bends_and_no_follower_on_the_river(seed: int, players: int, farm: str) -> None:
    """River (RULES.md §5.2): the 10 river tiles come first, the lake next, then the land; the
    river's bends alternate; nobody ever deploys on the river.
    """
    options = Options(expansions=frozenset({"river"}), farm_scoring=farm)
    placed: list[TilePlaced] = []
    for step in random_game(seed, options, players, p_follow=0.9):
        placed += [e for e in step.events if isinstance(e, TilePlaced)]
        for e in step.events:
            if isinstance(e, FollowerPlaced):
                assert not e.spot.startswith("river")
            if isinstance(e, TileDrawn) and e.remaining >= 72:
                assert e.tile in RIVER_IDS
        if step.after.phase == DEPLOY:
            assert all(not s.startswith("river") for s in legal_follower_spots(step.after))
    tiles = [e.tile for e in placed]
    assert all(t in RIVER_IDS and t != "R2" for t in tiles[:10])
    assert tiles[10] == "R2"
    assert not any(t in RIVER_IDS for t in tiles[11:])
    # Walk the river from the spring and collect its bends.
    board = {e.at: ROTATED[e.tile][e.rotation // 90] for e in placed}
    pos, out_side, turns = (0, 0), 1, []
    for _ in range(11):
        dx, dy = SIDE_DELTAS[out_side]
        pos = (pos[0] + dx, pos[1] + dy)
        rt = board[pos]
        in_side = (out_side + 2) % 4
        assert in_side in rt.river_sides
        others = [s for s in rt.river_sides if s != in_side]
        if not others:
            break
        out_side = others[0]
        heading = (in_side + 2) % 4
        if out_side != heading:
            turns.append(1 if out_side == (heading + 1) % 4 else -1)
    assert rt.tile == "R2"
    assert all(a != b for a, b in zip(turns, turns[1:], strict=False)), turns


# ---------------------------------------------------------------- differential test


@FAST
@given(seed=SEEDS, options=OPTIONS, players=PLAYERS)
def test_engine_agrees_with_the_reference_model(seed: int, options: Options, players: int) -> None:
    """An independent, slow model of the rules (tests/engine/reference.py) agrees with the
    engine after every turn: legal placements, legal follower spots, discards and scores,
    and the final scores.
    """
    ref = Reference(
        players,
        "river" in options.expansions,
        options.farm_scoring,
        options.small_city_two_points,
    )
    pending: tuple[str, int, int, int] | None = None
    for step in random_game(seed, options, players):
        state = step.before
        if isinstance(step.action, PlaceTile):
            assert state.tile is not None
            assert set(legal_placements(state)) == ref.placements(state.tile)
            a = step.action
            pending = (state.tile, a.x, a.y, a.rotation)
            ref.put(*pending)
            assert set(legal_follower_spots(step.after)) == ref.follower_spots((a.x, a.y), a.seat)
            continue
        assert pending is not None
        spot = step.action.spot if isinstance(step.action, PlaceFollower) else None
        ref.finish_turn(step.action.seat, spot)
        for e in step.events:
            if e.__class__.__name__ == "TileDiscarded":
                assert ref.placements(e.tile) == set()  # type: ignore[union-attr]
        if step.after.is_over:
            ref.final_scoring()
        assert step.after.scores == ref.scores


def test_view_remaining_counts_are_not_in_deck_order() -> None:
    """Bug found by the property above: ``view()["remaining"]`` listed tile ids in the order
    they first occur in the hidden deck, so its first key was the next tile to be drawn. The
    counts are public; their order must not be.
    """
    a = new_game(Options(), ["a", "b"], draw_order=["U", "V", "E", "B"])
    b = new_game(Options(), ["a", "b"], draw_order=["U", "B", "E", "V"])
    assert json.dumps(view(a, 0)) == json.dumps(view(b, 0))
    assert list(view(a)["remaining"]) == ["B", "E", "V"]
