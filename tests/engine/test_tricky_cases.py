"""RULES.md §7, "Tricky cases implementers get wrong": one named test per case that applies to
the base game and the River (1–17, 20–26, 36–39; the Wheel of Fortune cases 18, 19 and 27–35
are covered elsewhere).

Layouts use :func:`tests.engine.helpers.play` (see its docstring for the move notation).
"""

from __future__ import annotations

import pytest

from app.engine import (
    IllegalFollower,
    IllegalPlacement,
    InvalidOptions,
    Options,
    Pass,
    PlaceFollower,
    PlaceTile,
    RecordError,
    apply,
    legal_follower_spots,
    legal_placements,
    new_game,
    replay,
)
from app.engine.events import (
    FeatureCompleted,
    FollowerPlaced,
    FollowerReturned,
    PointsScored,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
)
from app.engine.game import base_deck_counts

from .helpers import BLUE, RED, play, record
from .reference import Reference

RIVER = {"river": True}


# ---------------------------------------------------------------- 1. road loop


def test_case_01_road_loop() -> None:
    """§7.1: "A road that closes on itself is complete even though it has no terminus. Score 1
    per distinct tile." Four curves V form a ring.
    """
    g = play("V 0,1 r270 road:E", "V 1,1", "V 0,2 r180", "V 1,2 r90", finished=False)
    (done,) = g.of_type(FeatureCompleted)
    assert done.kind == "road" and len(done.tiles) == 4
    assert g.scored("road") == [4, 0]
    assert g.state.supply == [7, 7]


def test_case_01_road_loop_back_into_the_same_junction_counts_it_once() -> None:
    """§7.1: "A road that leaves a junction tile (X, W, L) and comes back into another stub of
    the same junction tile is also complete: both ends stop at the junction. That tile counts
    once." W's east stub runs round three curves into W's south stub: 4 tiles.
    """
    g = play("W 0,1", "V 1,1 road:W", "V 1,2 r90", "V 0,2 r180", finished=False)
    (done,) = g.of_type(FeatureCompleted)
    assert sorted(done.tiles) == [(0, 1), (0, 2), (1, 1), (1, 2)]
    assert g.scored("road") == [0, 4]


# ---------------------------------------------------------------- 2. ring city

RING = (
    "R 0,1 r180 city:E",  # Red's knight
    "N -1,1 r180",
    "N 1,1 r270",
    "R -1,2 r90",
    "R 1,2 r270",
    "N -1,3 r90",
    "Q 0,3",
    "M 1,3",
)


def test_case_02_ring_city_is_incomplete_until_the_hole_is_filled() -> None:
    """§7.2: "A ring of city tiles round an empty hole is incomplete until the hole is filled,
    because the inner edges face an empty cell." Eight tiles ring the cell (0, 2): nothing is
    completed, and at the end the city scores as incomplete (8 tiles + 2 pennants).
    """
    g = play(*RING)
    assert not g.of_type(FeatureCompleted)
    (city,) = g.points_events("city")
    assert city.final and city.points == 10
    closed = play(*RING, "C 0,2")
    (done,) = closed.of_type(FeatureCompleted)
    assert len(done.tiles) == 9 and done.pennants == 3
    assert closed.scored("city", final=False) == [24, 0]


# ---------------------------------------------------------------- 3. count tiles


def test_case_03_count_tiles_not_segments_completed_city() -> None:
    """§7.3: "A city that gets two separate segments from one tile (H, I, R3) ... counts that
    tile once, both complete and incomplete". Both caps of I are in one 4-tile city: 8.
    """
    g = play("N 0,1 r180 city:E", "N 1,1 r270", "N 0,2 r90", "I 1,2", finished=False)
    assert g.scored("city") == [8, 0]


def test_case_03_count_tiles_not_segments_incomplete_city() -> None:
    """§7.3 (incomplete): the same ring with an open R in it scores 4 at the end (not 5)."""
    g = play("N 0,1 r180 city:E", "R 1,1 r180", "N 0,2 r90", "I 1,2")
    (city,) = g.points_events("city")
    assert city.final and city.points == 4 and len(city.tiles) == 4


def test_case_03_count_tiles_not_segments_road_with_two_stubs() -> None:
    """§7.3: "a road that gets two stubs from one junction tile, counts that tile once"."""
    g = play("W 0,1 road:E", "V 1,1", "V 1,2 r90", "V 0,2 r180", finished=False)
    assert g.scored("road") == [4, 0]


# ---------------------------------------------------------------- 4. two segments join later


def test_case_04_two_city_segments_of_one_tile_join_later() -> None:
    """§7.4: "Two separate city segments on one tile join the same city later. They are one city
    now: one majority check, tile counted once. Until that happens they are two features, and
    each can hold its own knight." Red takes I's south cap, Blue the east cap; the ring of
    corners joins them: one city of 4 tiles, 1 knight each, both score 8.
    """
    g = play("I 0,1 r180 city:S", players=["Red", "Blue"], upcoming=["N"])
    state, _ = apply(g.state, PlaceTile(BLUE, 1, 1, 270))
    assert "city:S" in legal_follower_spots(state)  # the east cap is still a feature of its own
    done = play("I 0,1 r180 city:S", "N 1,1 r270 city:S", "N 1,2", "N 0,2 r90")
    (city,) = done.of_type(FeatureCompleted)
    assert city.followers == (1, 1) and len(city.tiles) == 4
    assert done.scored("city") == [8, 8]


# ---------------------------------------------------------------- 5. pennants


def test_case_05_pennants_of_the_city_only() -> None:
    """§7.5: "count each pennant of each segment in the city. A tile whose pennant segment is
    not part of the city being scored adds nothing." Two pennant corners M are in the city (4
    tiles + 2 pennants = 12); the pennant tile F north of them, cut off by fields, adds
    nothing.
    """
    g = play("M 0,-1 r180 city:S", "F 0,-2 city:E", "M 1,-1 r270", "D 1,0", finished=False)
    (done,) = g.of_type(FeatureCompleted)
    assert done.pennants == 2 and (0, -2) not in done.tiles
    assert g.scored("city") == [12, 0]


# ---------------------------------------------------------------- 6. deploy after joining


def test_case_06_no_deploy_onto_a_feature_joined_through_the_new_tile() -> None:
    """§7.6: "If the new tile joins a free segment to an occupied feature, you may not deploy
    there, even if you own the follower." Red's own knight is in the city his cap continues.
    """
    g = play("N 0,-1 r180 city:S", "U -1,0", players=["Red", "Blue"], upcoming=["E"])
    state, _ = apply(g.state, PlaceTile(RED, 1, -1, 270))
    assert legal_follower_spots(state) == ["field:NNW"]
    with pytest.raises(IllegalFollower):
        apply(state, PlaceFollower(RED, "city:W"))


def test_case_06_joining_two_occupied_halves() -> None:
    """§7.6: the G tile that joins Red's and Blue's city halves offers no city spot."""
    g = play(
        "U -1,0",
        "U 1,0",
        "N -1,1 r180 city:E",
        "N 1,1 r270 city:S",
        "E -1,2",
        "E 1,2",
        upcoming=["G"],
    )
    state, _ = apply(g.state, PlaceTile(RED, 0, 1, 0))
    assert "city:E" not in legal_follower_spots(state)


# ---------------------------------------------------------------- 7. several followers


def test_case_07_several_followers_from_merging_tie_scores_in_full() -> None:
    """§7.7: "Several followers in one feature is legal when it comes from merging. Score by
    majority; ties all score in full.".
    """
    g = play(
        "U -1,0", "U 1,0", "N -1,1 r180 city:E", "N 1,1 r270 city:S", "E -1,2", "E 1,2", "G 0,1"
    )
    (done,) = g.of_type(FeatureCompleted)
    assert done.followers == (1, 1)
    assert [(e.seat, e.points, e.majority) for e in g.points_events("city")] == [
        (RED, 10, (RED, BLUE)),
        (BLUE, 10, (RED, BLUE)),
    ]


# ---------------------------------------------------------------- 8. deploy then complete


def test_case_08_deploy_then_complete_in_the_same_turn() -> None:
    """§7.8: "Deploy, then complete in the same turn. The follower scores and comes back at
    once. Order: place tile → deploy → score → return." The monk on the cloister dropped into a
    fully surrounded hole scores 9 and is back before the turn ends.
    """
    g = play(
        "U -1,0",
        "U 1,0",
        "V -1,1",
        "V 1,1 r270",
        "V -1,2 r180",
        "V 1,2 r90",
        "U 0,2",
        "B 0,1 cloister",
        finished=False,
    )
    assert g.scored("cloister") == [0, 9]
    assert g.state.supply == [7, 7]
    tail = [
        type(e) for e in g.events if type(e) in (FollowerPlaced, PointsScored, FollowerReturned)
    ]
    assert tail == [FollowerPlaced, PointsScored, FollowerReturned]


# ---------------------------------------------------------------- 9. several completions


def test_case_09_one_tile_completes_a_road_and_a_city() -> None:
    """§7.9: "One tile completes several features (for example a road and a city). Score all of
    them in that turn, and return every follower involved." Blue's L closes Blue's own road
    (W – D – L, 3) and Red's city (D, N, N, L: 8).
    """
    g = play("N 0,-1 r180 city:S", "W -1,0 road:E", "N 1,-1 r270", "L 1,0", finished=False)
    assert sorted(e.kind for e in g.of_type(FeatureCompleted)) == ["city", "road"]
    assert g.scores == [8, 3]
    assert len(g.of_type(FollowerReturned)) == 2 and g.state.supply == [7, 7]


# ---------------------------------------------------------------- 10. discard


def test_case_10_tile_with_no_legal_position_is_discarded_and_redrawn() -> None:
    """§7.10: "Check every empty cell next to the board and every rotation. If none works, the
    tile is removed from the game (not put back in the stack) and the same player draws
    again." With D's city closed, the all-city tile C fits nowhere: Blue discards it and places
    the next tile U instead.
    """
    g = play("E 0,-1 r180", "U 1,0", draw_order=["E", "C", "U"])
    (discarded,) = g.of_type(TileDiscarded)
    assert discarded == TileDiscarded(BLUE, "C")
    assert [e.seat for e in g.of_type(TileDrawn)] == [RED, BLUE, BLUE]
    assert g.of_type(TilePlaced)[-1] == TilePlaced(BLUE, "U", (1, 0), 0)
    # The search is exhaustive: an independent model finds no cell and rotation either.
    ref = Reference(2)
    ref.play_turn(RED, "E", 0, -1, 180, None)
    assert ref.placements("C") == set()
    assert all(rt.tile != "C" for rt, _ in g.state.board.values())
    assert "C" not in g.state.remaining_counts()  # out of the game, not back in the stack


def test_case_10_discarded_last_tile_ends_the_game() -> None:
    """§3.5 with §7.10: "If the last drawn tile cannot be placed, it is discarded, nothing is
    left to draw, and the game ends after that turn.".
    """
    g = play("E 0,-1 r180", draw_order=["E", "C"])
    assert g.state.is_over and g.of_type(TileDiscarded) == [TileDiscarded(BLUE, "C")]


def test_case_10_record_may_not_place_a_discarded_tile() -> None:
    """§7.10 and record.md: a move must use "the next tile of draw_order that fits somewhere";
    a move for the discarded C is refused, naming move 2.
    """
    doc = record("E 0,-1 r180", "C 1,0", draw_order=["E", "C"])
    with pytest.raises(RecordError) as err:
        replay(doc)
    assert err.value.move == 2


# ---------------------------------------------------------------- 11. corners


def test_case_11_corner_contact_is_illegal() -> None:
    """§7.11: "Placing a tile that touches others only at a corner is illegal."."""
    state = new_game(Options(), ["Red", "Blue"], draw_order=["B"])
    assert all(abs(x) + abs(y) == 1 for x, y, _ in legal_placements(state))
    with pytest.raises(IllegalPlacement):
        apply(state, PlaceTile(RED, 1, 1, 0))


def test_case_11_fields_meeting_only_at_a_corner_are_separate_farms() -> None:
    """§7.11: "Fields meeting only at a corner are not one farm." E's field (0,-1) and U's
    north field (1,0) meet only at a corner: two farms, one farmer each.
    """
    g = play("E 0,-1 r180 field:NNW", "U 1,0 field:NNW")
    farms = g.points_events("farm")
    assert [e.followers for e in farms] == [(1, 0), (0, 1)]
    assert farms[0].tiles != farms[1].tiles


# ---------------------------------------------------------------- 12. farm boundaries


def test_case_12_cloister_road_stub_does_not_split_the_field() -> None:
    """§7.12: "Whether a road stub or cloister splits the field on its own tile is up to that
    tile's definition: on A it does not (one field wraps round the cloister)".
    """
    g = play(upcoming=["A"])
    state, _ = apply(g.state, PlaceTile(RED, 0, 1, 0))
    assert sorted(legal_follower_spots(state)) == ["cloister", "field:NNW", "road:S"]


def test_case_12_roads_and_cities_bound_farms() -> None:
    """§7.12: "Farms are bounded by roads, cities ... and the edge of the played area": the L
    tile's three fields are three spots.
    """
    g = play(upcoming=["L"])
    state, _ = apply(g.state, PlaceTile(RED, 0, -1, 180))  # L's city joins D's cap
    spots = legal_follower_spots(state)
    assert sorted(s for s in spots if s.startswith("field")) == [
        "field:ESE",
        "field:NNE",
        "field:NNW",
    ]


def test_case_12_river_and_cloister_split_fields_on_r5() -> None:
    """§7.12: "on R5 it does (the cloister reaches the river)": north bank, and the two fields
    either side of the road stub south of the river.
    """
    g = play(rules=RIVER, upcoming=["R5"])
    state, _ = apply(g.state, PlaceTile(RED, 1, 0, 0))
    assert sorted(legal_follower_spots(state)) == [
        "cloister",
        "field:ESE",
        "field:NNW",
        "field:SSW",
        "road:S",
    ]


# ---------------------------------------------------------------- 13–15. farms and cities


@pytest.mark.parametrize(("rules", "points"), [({}, 3), ({"farm_scoring": "original"}, 4)])
def test_case_13_farm_touching_one_city_twice_counts_it_once(
    rules: dict[str, str], points: int
) -> None:
    """§7.13: "A farm touching one city several times counts that city once per farm (modern) or
    once in total (original)". The V joins the field above the cap E and the strip beside D's
    city: one farm touching the city D + E on two tiles.
    """
    g = play("U 1,0 field:NNW", "E 0,-1 r180", "V 1,-1 r180", rules=rules)
    assert g.scores == [points, 0]


def test_case_13_one_field_touching_both_caps_of_a_ring_city() -> None:
    """§7.13: I's field touches both its caps, which belong to one city: 3 points, not 6."""
    g = play("N 0,1 r180 city:E", "N 1,1 r270", "N 0,2 r90", "I 1,2 field:ENE")
    assert g.scored("farm") == [0, 3]


def test_case_14_one_city_scored_by_two_farms_of_the_same_player() -> None:
    """§7.14: "The same city scored by several farms under modern scoring, even for the same
    player." Blue's two farms next to one city give 3 + 3 (S003's alternate example).
    """
    g = play(
        "T 0,-1 r180 field:NNW",
        "E -1,-1 r90 field:NNW",
        "E 1,-1 r270 field:NNW",
        players=["Blue", "Red"],
    )
    blue = [e for e in g.points_events("farm") if e.seat == 0]
    assert [(e.points, e.cities) for e in blue] == [(3, 1), (3, 1)]
    assert blue[0].tiles != blue[1].tiles


def test_case_15_original_scoring_adds_farmers_across_farms() -> None:
    """§7.15 / §4.4: "For each player, add up that player's farmers over all those farms ... Each
    city is scored once": Blue's two farmers in two farms beat Red's one: Blue 4 (not 8),
    Red 0.
    """
    g = play(
        "T 0,-1 r180 field:NNW",
        "E -1,-1 r90 field:NNW",
        "E 1,-1 r270 field:NNW",
        players=["Blue", "Red"],
        rules={"farm_scoring": "original"},
    )
    (farm,) = g.points_events("farm")
    assert (farm.seat, farm.points, farm.followers) == (0, 4, (2, 1))
    assert g.scores == [4, 0]


def test_case_15_original_scoring_scores_each_city_once_per_player() -> None:
    """§4.4 step 4: a player with farmers around two cities gets 4 for each city, once each."""
    g = play("D 1,0 field:ENE", "E 0,-1 r180", "E 1,-1 r180", rules={"farm_scoring": "original"})
    assert [(e.seat, e.points) for e in g.points_events("farm")] == [(0, 4), (0, 4)]


# ---------------------------------------------------------------- 16. farmers stay


def test_case_16_farmers_stay_until_the_end() -> None:
    """§7.16: "Farmers stay until the end": completing the city next to the farm returns
    nothing, and after the final scoring the farmer is still on the board.
    """
    g = play("U 1,0 field:NNW", "E 0,-1 r180", "U 2,0")
    assert g.of_type(FeatureCompleted)[0].kind == "city"
    assert not g.of_type(FollowerReturned)
    assert g.state.supply == [6, 7]
    assert list(g.state.followers.values()) == [RED]


# ---------------------------------------------------------------- 17. cloister neighbours


def test_case_17_incomplete_cloister_counts_diagonal_neighbours() -> None:
    """§7.17: "Cloister neighbours include diagonals ... An incomplete cloister scores 1 + the
    filled neighbour cells". B south of D has D beside it and the two U diagonally: 4.
    """
    g = play("U -1,0", "U 1,0", "B 0,1 cloister")
    (e,) = g.points_events("cloister")
    assert e.final and e.points == 4 and len(e.tiles) == 4


def test_case_17_a_diagonal_tile_completes_the_cloister() -> None:
    """§7.17: the 8 cells include the corners, so the last corner V completes the cloister."""
    moves = ("B 0,1 cloister", "U -1,0", "U 1,0", "V -1,1", "V 1,1 r270", "U 0,2", "V -1,2 r180")
    before = play(*moves, finished=False)
    assert not before.of_type(FeatureCompleted)
    after = play(*moves, "V 1,2 r90", finished=False)
    assert after.scored("cloister") == [9, 0]


# ---------------------------------------------------------------- 20–22. end of game


def test_case_20_incomplete_city_scores_1_per_tile_and_pennant() -> None:
    """§7.20: "Incomplete city at game end: 1 per tile + 1 per pennant, not 2 + 2." D + M: 3."""
    g = play("M 0,-1 r180 city:S")
    (city,) = g.points_events("city")
    assert city.final and city.points == 3


@pytest.mark.parametrize(
    ("moves", "points"),
    [
        (("E 0,-1 r180 city:S",), 2),  # completed, two tiles: the rule applies
        (("N 0,-1 r180 city:S",), 2),  # incomplete, two tiles: 1 + 1 either way
        (("N 0,-1 r180 city:S", "E 1,-1 r270"), 6),  # completed, three tiles: 2 per tile
    ],
)
def test_case_21_small_city_rule_only_for_completed_two_tile_cities(
    moves: tuple[str, ...], points: int
) -> None:
    """§7.21: "The two-point small city (S003 option) applies only to completed 2-tile cities
    scored for knights.".
    """
    g = play(*moves, rules={"small_city_two_points": True})
    assert g.scored("city") == [points, 0]


def test_case_21_small_city_still_counts_for_farms() -> None:
    """§4.5: "A 2-tile completed city still counts as a completed city for farm scoring
    (original: 4 points to the farm majority)".
    """
    g = play(
        "D 1,0 field:ENE",
        "E 0,-1 r180",
        rules={"small_city_two_points": True, "farm_scoring": "original"},
    )
    assert g.scores == [4, 0]


def test_case_22_farms_score_only_completed_cities_even_if_finished_last_turn() -> None:
    """§7.22: "Farms score only completed cities. A city finished on the last turn counts.
    Incomplete ones never do." The very last tile closes D's city; D(1,0)'s city stays open.
    """
    g = play("D 1,0 field:ENE", "U 2,0", "E 0,-1 r180")
    (farm,) = g.points_events("farm")
    assert farm.cities == 1 and g.scores == [3, 0]


# ---------------------------------------------------------------- 23–26. the River


def test_case_23_no_follower_on_the_river() -> None:
    """§7.23: "River: no follower on the river." (S001: "no followers are allowed on the
    river.").
    """
    g = play(rules=RIVER, upcoming=["R7"])
    state, _ = apply(g.state, PlaceTile(RED, 1, 0, 0))
    spots = legal_follower_spots(state)
    assert spots == ["field:NNW", "field:ESE"]  # the river splits the fields
    for spot in ("river:E", "river:W"):
        with pytest.raises(IllegalFollower):
            apply(state, PlaceFollower(RED, spot))


def test_case_23_bridge_has_four_fields() -> None:
    """§7.23: "The bridge tile gives 4 separate fields."."""
    g = play(rules=RIVER, upcoming=["R6"])
    state, _ = apply(g.state, PlaceTile(RED, 1, 0, 90))
    spots = legal_follower_spots(state)
    assert sorted(spots) == ["field:ESE", "field:NNE", "field:NNW", "field:SSW", "road:N"]


def test_case_23_spring_and_lake_have_one_wrap_around_field() -> None:
    """§7.23: "The spring and lake have one wrap-around field each." The lake offers one field.
    The spring's field joins the fields north and south of the first river tile: once Red's
    farmer is on the north one, the next river tile has no free field on either bank.
    """
    g = play("R7 1,0", rules=RIVER, upcoming=["R2"])
    state, _ = apply(g.state, PlaceTile(BLUE, 2, 0, 0))
    assert legal_follower_spots(state) == ["field:NNW"]
    g2 = play("R7 1,0 field:NNW", rules=RIVER, upcoming=["R7"])
    state2, _ = apply(g2.state, PlaceTile(BLUE, 2, 0, 0))
    assert legal_follower_spots(state2) == []


def test_case_23_river_road_stub_ends_at_the_bank() -> None:
    """§7.23: "The R4 and R5 road stubs end on their tiles": R4's stub and L's stub make a
    complete 2-tile road.
    """
    g = play("R4 1,0 road:S", "R2 2,0", "L 1,1 r180", rules=RIVER, finished=False)
    assert g.scored("road") == [2, 0]


def test_case_24_river_bends_alternate_straights_notwithstanding() -> None:
    """§7.24: "River bends alternate: a bend may not turn the same way as the previous bend,
    straights between them notwithstanding" (S001: "never place 2 bends (turns) in the same
    direction one after the other"). After a right bend and a straight, only the left bend
    is legal.
    """
    g = play("R10 1,0", "R7 1,1 r90", rules=RIVER, upcoming=["R10", "R2"])
    assert legal_placements(g.state) == [(1, 2, 180)]
    with pytest.raises(IllegalPlacement):
        apply(g.state, PlaceTile(RED, 1, 2, 90))  # a second right turn: a U shape


def test_case_24_river_must_continue_from_its_open_end() -> None:
    """§5.2 rule 3: "the river continues from its open end": a river tile elsewhere is refused
    even where its edges would match.
    """
    g = play(rules=RIVER, upcoming=["R7"])
    assert {(x, y) for x, y, _ in legal_placements(g.state)} == {(1, 0)}
    with pytest.raises(IllegalPlacement):
        apply(g.state, PlaceTile(RED, 0, 1, 0))


def test_case_25_river_replaces_the_start_tile() -> None:
    """§7.25: "River and start tile: the base start tile is taken out of the game" (S001:
    "Remove the Start tile from the game. Begin the game by placing the source of the river").
    """
    state = new_game(Options(expansions=frozenset({"river"})), ["Red", "Blue"], seed=5)
    assert [(pos, rt.tile) for pos, (rt, _) in state.board.items()] == [((0, 0), "R1")]
    counts = base_deck_counts(Options(expansions=frozenset({"river"})))
    assert counts["D"] == 3 and "R1" not in counts and sum(counts.values()) == 71 + 11
    assert len(state.deck) == 82 and state.deck.count("D") == 3


def test_case_26_lake_is_placed_after_the_tenth_river_tile_by_the_next_player() -> None:
    """§7.26: "the lake is placed by the player whose turn comes after the 10th river tile, as
    that player's whole tile for the turn. The player may deploy a follower on it.".
    """
    state = new_game(Options(expansions=frozenset({"river"})), ["Red", "Blue", "Yellow"], seed=11)
    assert all(t.startswith("R") and t != "R2" for t in state.deck[:10])
    assert state.deck[10] == "R2"
    for _ in range(10):
        x, y, r = legal_placements(state)[0]
        state, _ = apply(state, PlaceTile(state.seat, x, y, r))
        spots = legal_follower_spots(state)
        state, _ = apply(state, PlaceFollower(state.seat, spots[0]) if spots else Pass(state.seat))
    assert state.tile == "R2" and state.seat == 10 % 3
    x, y, r = legal_placements(state)[0]
    state, _ = apply(state, PlaceTile(state.seat, x, y, r))
    assert "field:NNW" in legal_follower_spots(state)
    state, events = apply(state, PlaceFollower(state.seat, "field:NNW"))
    assert any(isinstance(e, FollowerPlaced) and e.role == "farmer" for e in events)
    assert state.tile is not None and not state.tile.startswith("R")


# ---------------------------------------------------------------- 36–39


def test_case_36_scores_are_plain_integers_past_50() -> None:
    """§7.36: "Score track: the seeds' advice to lay the marker on its side after 50 points is
    physical only. Store plain integers." A greedy full game passes 50 without wrapping.
    """
    import random

    from app.engine import apply_in_place, legal_actions

    rng = random.Random(0)
    state = new_game(Options(), ["Red", "Blue"], seed=0)
    while not state.is_over:
        seat = state.seat
        best: tuple[tuple[int, bool, float], list[object]] | None = None
        for place in legal_actions(state):
            placed, _ = apply(state, place)
            for deploy in legal_actions(placed):
                after, _ = apply(placed, deploy)
                key = (
                    after.scores[seat] - state.scores[seat],
                    isinstance(deploy, PlaceFollower),
                    rng.random(),
                )
                if best is None or key > best[0]:
                    best = (key, [place, deploy])
        assert best is not None
        for action in best[1]:
            apply_in_place(state, action)  # type: ignore[arg-type]
    assert max(state.scores) > 50
    assert all(type(v) is int for v in state.scores)
    assert sum(state.scores) == sum(state.tally.values())


def test_case_37_tied_winners_share_the_victory() -> None:
    """§7.37: "Victory ties: shared win (S000/S002/S004)"."""
    g = play(
        "U -1,0", "U 1,0", "N -1,1 r180 city:E", "N 1,1 r270 city:S", "E -1,2", "E 1,2", "G 0,1"
    )
    assert g.scores == [10, 10] and g.state.winners == (RED, BLUE)
    nobody = play("U 1,0", players=3)
    assert nobody.state.winners == (0, 1, 2)


def test_case_38_start_tile_and_spring_are_ordinary_land() -> None:
    """§7.38: "Start tile, spring ... are ordinary land for scoring. Their features join and score
    like any other tile's. Nobody ever has a follower placed directly on them". D's road and
    city are in the scored features; the game opens with a tile to place, not a deployment.
    """
    g = play("X 1,0 road:W", "L -1,0", "E 0,-1 r180 city:S", finished=False)
    road, city = g.of_type(FeatureCompleted)
    assert (0, 0) in road.tiles and (0, 0) in city.tiles
    assert g.scored() == [3 + 4, 0]
    state = new_game(Options(expansions=frozenset({"river"})), ["Red", "Blue"], seed=1)
    assert state.phase == "place_tile" and legal_follower_spots(state) == []
    assert not state.followers


def test_case_39_majority_counts_followers_not_players() -> None:
    """§7.39: "Two knights of one player beat one knight of another; equal counts all score in
    full." Red's two knights and Blue's one are joined by the C tile: Red alone scores the
    7-tile city with 3 pennants (20).
    """
    g = play(
        "U -1,0",
        "U 1,0",
        "F -1,-1 city:E",  # Red 1
        "F 1,-1 city:E",  # Blue 1
        "V -1,-2 r90",
        "E -2,-1 r90",
        "E 0,-2 r180 city:S",  # Red 2
        "E 2,-1 r270",
        "C 0,-1",
    )
    (done,) = g.of_type(FeatureCompleted)
    assert done.followers == (2, 1) and len(done.tiles) == 7 and done.pennants == 3
    assert g.scores == [20, 0]
    assert len(g.of_type(FollowerReturned)) == 3


@pytest.mark.parametrize(
    "order",
    [
        ["U", "R7", "R2"],  # a land tile before the river
        ["R7", "R2", "R10"],  # a river tile after the lake
        ["R7", "U", "R2"],  # a land tile before the lake
    ],
)
def test_case_26_river_draw_order_is_river_then_lake_then_land(order: list[str]) -> None:
    """§5.2 rules 2 and 6 (S001: "start the game by drawing the River tiles before using the
    regular tiles ... Once the last of the 10 River tiles has been placed, the next player
    places the lake"); record.md: "With the River it begins with the 10 river tiles, then the
    lake R2, then base tiles." Bug found: the engine accepted a land tile drawn before the
    river (it was simply placed beside the spring) and silently discarded a river tile drawn
    after the lake; such orders are now refused.
    """
    with pytest.raises(InvalidOptions, match="river tiles come first"):
        new_game(Options(expansions=frozenset({"river"})), ["Red", "Blue"], draw_order=order)
    with pytest.raises(RecordError, match="river tiles come first"):
        replay(
            {
                "format": "carcassonne-record/1",
                "rules": RIVER,
                "players": ["Red", "Blue"],
                "draw_order": order,
                "moves": [],
            }
        )


def test_case_26_short_river_orders_stay_legal() -> None:
    """Short test orders may leave tiles out, as long as the order is kept."""
    for order in (["R7"], ["R2", "U"], ["R7", "R10", "R2", "U", "D"], ["U"]):
        new_game(Options(expansions=frozenset({"river"})), ["Red", "Blue"], draw_order=order)
