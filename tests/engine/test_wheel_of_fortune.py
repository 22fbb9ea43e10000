"""Carcassonne: Wheel of Fortune (seed 004; RULES.md §6 and tricky cases 18, 19, 27–35), on the
real components (§6.2 board, §6.3 crowns, §6.7 deck; source TTS-WOF).

The board's outside, clockwise: N ``C F R F`` (cityA on N1, road1 on N3), E ``F F C F`` (cityB
on E3), S ``R F F C`` (road2 on S1, cityC on S4), W ``C F R F`` (cityC on W1, road3 on W3).
Pig segments: Fortune 0, Tax 1, Famine 2, Storm 3, Inquisition 4, Plague 5.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from app.engine import (
    PLAGUE,
    GameState,
    IllegalFollower,
    Options,
    Pass,
    PlaceFollower,
    PlaceTile,
    RecordError,
    RemoveFollower,
    WrongPhase,
    apply,
    export_record,
    legal_actions,
    legal_follower_spots,
    legal_placements,
    load_state,
    new_game,
    replay,
    view,
)
from app.engine.board import spot_of
from app.engine.events import Event, PointsScored, TileDiscarded
from app.engine.expansions.wheel_of_fortune import (
    CrownReturned,
    PigMoved,
    crown_points,
    tax_points,
    wheel_state,
)
from app.engine.state import find
from app.engine.tiles import CITY, FIELD, ROAD, SIDES

WOF = Options(expansions=frozenset({"wheel_of_fortune"}))


def start(draw: list[str], players: int = 2) -> GameState:
    return new_game(WOF, ["Ann", "Ben", "Cat"][:players], draw_order=draw)


def turn(
    s: GameState, x: int, y: int, rotation: int, follower: str | None = None
) -> tuple[GameState, list[Event]]:
    """One whole turn: place the drawn tile, then deploy ``follower`` or pass."""
    s, events = apply(s, PlaceTile(s.seat, x, y, rotation))
    action = Pass(s.seat) if follower is None else PlaceFollower(s.seat, follower)
    s, more = apply(s, action)
    return s, events + more


def anywhere(s: GameState, follower: str | None = None) -> tuple[GameState, list[Event]]:
    """A turn at the first legal placement (where the tile goes does not matter)."""
    return turn(s, *legal_placements(s)[0], follower)


def points(events: list[Event], category: str) -> dict[int, int]:
    out: Counter[int] = Counter()
    for e in events:
        if isinstance(e, PointsScored) and e.category == category:
            out[e.seat] += e.points
    return dict(out)


# ---------------------------------------------------------------- the board (§6.2)


def test_board_outside_edges_are_the_rules_edge_string() -> None:
    """RULES.md §6.2: N C F R F, E F F C F, S R F F C, W C F R F (positions clockwise)."""
    s = start(["B"])
    assert sorted(s.board) == [(x, y) for x in range(4) for y in range(4)]

    def edge(pos: tuple[int, int], side: int) -> str:
        return "FRCI"[s.board[pos][0].edges[side]]

    assert "".join(edge((i, 0), 0) for i in range(4)) == "CFRF"
    assert "".join(edge((3, i), 1) for i in range(4)) == "FFCF"
    assert "".join(edge((3 - i, 3), 2) for i in range(4)) == "RFFC"
    assert "".join(edge((0, 3 - i), 3) for i in range(4)) == "CFRF"
    cells = {(x, y) for x, y, _ in legal_placements(s)}
    # B (all field) fits against the 9 field positions, never against a city or road.
    assert cells == {(1, -1), (3, -1), (4, 0), (4, 1), (4, 3), (2, 4), (1, 4), (-1, 2), (-1, 0)}
    assert view(s, 0)["wheel"]["pig"] == "fortune"


def test_board_features_three_cities_three_roads_three_farms() -> None:
    """§6.2: one-cell cities A (0,0), B (3,2), C (0,3) over two sides; one-cell roads that end
    at the wheel; farms round the wheel, each touching its own city only.
    """
    s = start(["B"])
    features: dict[int, list[tuple[int, tuple[int, int], str]]] = {}
    for gid, kind in enumerate(s.seg_kind):
        (x, y), name = spot_of(s, gid)
        features.setdefault(find(s.parent, gid), []).append((kind, (x, y), name))
    cities = sorted(
        sorted(p for _, p, _ in segs) for root, segs in features.items() if segs[0][0] == CITY
    )
    assert cities == [[(0, 0)], [(0, 3)], [(3, 2)]]
    roads = {
        root: sorted(p for _, p, _ in segs) for root, segs in features.items() if segs[0][0] == ROAD
    }
    assert sorted(roads.values()) == [[(0, 1)], [(2, 0)], [(3, 3)]]
    assert all(s.f_open[root] == 1 for root in roads)  # the wheel end is closed
    farms = {}
    for root, segs in features.items():
        if segs[0][0] == FIELD:
            touched = {s.seg_pos[find(s.parent, c)] for c in s.f_cities[root]}
            farms[frozenset(p for _, p, _ in segs)] = touched
    assert farms == {
        frozenset({(0, 0), (1, 0), (2, 0), (0, 1)}): {(0, 0)},
        frozenset({(2, 0), (3, 0), (3, 1), (3, 2), (3, 3)}): {(3, 2)},
        frozenset({(0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3)}): {(0, 3)},
    }
    # cityC reaches S and W of (0, 3).
    rt = s.board[(0, 3)][0]
    assert [SIDES[x] for x in rt.segments[rt.side_seg[2]].sides] == ["S", "W"]


def test_cap_against_n1_completes_a_two_tile_city_for_4() -> None:
    """§6.2 example: a city cap laid against N1 completes cityA as a 2-tile city (4 points)."""
    s = start(["E"])
    s, events = turn(s, 0, -1, 180, "city:S")
    assert points(events, "city") == {0: 4}
    assert s.supply[0] == 7


def test_road_against_n3_is_closed_at_the_wheel_and_counts_the_board_cell() -> None:
    """§6.2 / case 19: a road joining road1 counts cell (2, 0) and ends at the wheel. W's
    south stub ends at its junction, so the road W–(2,0) is complete: 2 tiles, 2 points.
    """
    s = start(["W", "B"])
    s, events = turn(s, 2, -1, 0, "road:S")
    assert points(events, "road") == {0: 2}
    for x, y, r in [(-1, 1, 0), (3, 4, 90)]:  # road3 and road2 take roads too
        assert (x, y, r) in legal_placements(start(["W"]))


def test_city_c_needs_both_neighbours() -> None:
    """§6.2: cityC (S4 + W1 of cell (0, 3)) is complete only with tiles on (0, 4) and (-1, 3)."""
    s = start(["E", "B", "E"])
    s, events = turn(s, 0, 4, 0, "city:N")
    assert points(events, "city") == {}
    s, _ = anywhere(s)
    s, events = turn(s, -1, 3, 90)
    assert points(events, "city") == {0: 6}  # 3 tiles, no pennant


def test_case_18_cloister_next_to_board_counts_board_cells() -> None:
    """RULES.md §7 case 18: board cells are neighbour tiles of a cloister (incomplete: 1 + 3)."""
    s = start(["B"])
    s, events = turn(s, 4, 1, 0, "cloister")
    assert s.is_over
    assert points(events, "cloister") == {0: 4}


def test_case_18_cloister_diagonal_to_board_corner() -> None:
    """A cloister off the board's corner diagonally touches one board cell."""
    s = start(["A", "B"])
    s, _ = turn(s, 4, 3, 180)  # A: its road stub to the north, field against the board
    s, events = turn(s, 4, 4, 0, "cloister")
    assert points(events, "cloister") == {1: 3}  # itself, (3, 3) diagonal, (4, 3) above


def test_each_farm_supplies_only_its_own_board_city() -> None:
    """§6.2: farm1 touches cityA only, farm2 cityB only. With cityA and cityB complete, a farmer
    in farm1 and one in farm2 score 3 each (not 6).
    """
    s = start(["E", "E", "B", "B"])
    s, _ = turn(s, 0, -1, 180)  # completes cityA
    s, _ = turn(s, 4, 2, 270)  # completes cityB
    s, _ = turn(s, 1, -1, 0, "field:SSW")  # Ann: farm1 (through (1, 0))
    s, events = turn(s, 3, -1, 0, "field:SSW")  # Ben: farm2 (through (3, 0))
    assert s.is_over
    assert points(events, "farm") == {0: 3, 1: 3}


def test_farm3_does_not_supply_city_a() -> None:
    """Only cityA complete: a farmer reaching farm3 (through the field at (-1, 2)) scores 0."""
    s = start(["E", "B"])
    s, _ = turn(s, 0, -1, 180)
    s, events = turn(s, -1, 2, 0, "field:NNW")
    assert s.is_over and points(events, "farm") == {}


# ---------------------------------------------------------------- crowns (§6.3, §6.6)

#: Icon tiles that move the pig from Fortune to each segment (the last one lands there).
PATHS = {
    "tax": ["U.1"],
    "famine": ["U.2"],
    "storm": ["U.3"],
    "inquisition": ["V.1", "U.3"],
    "plague": ["U.2", "U.3"],
    "fortune": ["U.3", "V.3"],
}
CROWNS = {"fortune": 1, "tax": 2, "famine": 1, "storm": 2, "inquisition": 1, "plague": 2}
CASES = [(seg, "alone") for seg in PATHS] + [
    (seg, case) for seg in PATHS if CROWNS[seg] == 2 for case in ("two players", "same player")
]


@pytest.mark.parametrize(("segment", "case"), CASES)
def test_crown_scoring_on_each_segment(segment: str, case: str) -> None:
    """§6.3/§6.6: crowns Fortune 1, Tax 2, Famine 1, Storm 2, Inquisition 1, Plague 2. A lone
    follower scores 3 on a one-crown segment, 6 on a two-crown one; two followers 3 each, also
    both of one player (case 34). Fortune's crown scores like any other.
    """
    plan = {"alone": [True], "two players": [True, True], "same player": [True, False, True]}
    deploys = plan[case]
    path = PATHS[segment]
    s = start(path[:-1] + ["B"] * len(deploys) + [path[-1], "B"])
    for _ in path[:-1]:
        s, _ = anywhere(s)
    seats = []
    events: list[Event] = []
    for deploy in deploys:
        if deploy:
            seats.append(s.seat)
        s, events = anywhere(s, f"crown:{segment}" if deploy else None)
    assert [e.segment for e in events if isinstance(e, PigMoved)] == [segment]
    scored = [
        (e.seat, e.points) for e in events if isinstance(e, PointsScored) and e.category == "crown"
    ]
    want = 3 if CROWNS[segment] == 1 or len(seats) == 2 else 6
    assert scored == [(seat, want) for seat in seats]
    assert [e.segment for e in events if isinstance(e, CrownReturned)] == [segment] * len(seats)
    assert s.supply[:2] == [7, 7]
    if segment == "fortune":
        assert points(events, "fortune") == {s.active: 3}


def test_crown_count_limits_deployment() -> None:
    """One follower per crown space: Fortune, Famine, Inquisition take one, the others two."""
    s = start(["B", "B", "B"])
    s, _ = anywhere(s, "crown:famine")
    s, _ = apply(s, PlaceTile(1, *legal_placements(s)[0]))
    assert "crown:famine" not in legal_follower_spots(s) and "crown:tax" in legal_follower_spots(s)
    with pytest.raises(IllegalFollower):
        apply(s, PlaceFollower(1, "crown:famine"))
    s, _ = apply(s, PlaceFollower(1, "crown:storm"))
    s, _ = apply(s, PlaceTile(0, *legal_placements(s)[0]))
    assert "crown:storm" in legal_follower_spots(s)  # Storm's second space
    segs = {seg["name"]: seg["crowns"] for seg in view(s, 0)["wheel"]["segments"]}
    assert segs == CROWNS


def test_crown_points_table() -> None:
    assert crown_points(1, 1) == 3 and crown_points(2, 1) == 6 and crown_points(2, 2) == 3


# ---------------------------------------------------------------- the six actions (§6.5)


def test_pig_moves_clockwise_by_the_icon_and_fortune_pays_the_mover() -> None:
    """S004: the pig moves by the icon's number; FORTUNE: the mover scores 3. 3 + 3 = Fortune."""
    s = start(["U.3", "V.3"])
    assert any(isinstance(e, PigMoved) and e.segment == "storm" for e in s.opening_events)
    s, events = anywhere(s)
    pig = [e for e in events if isinstance(e, PigMoved)]
    assert [(p.seat, p.steps, p.start, p.segment) for p in pig] == [(1, 3, "storm", "fortune")]
    assert points(events, "fortune") == {1: 3}


def test_storm_counts_supply_before_storm_crowns_return() -> None:
    """S004 Storm: 1 point per follower in supply; case 28: the follower on Storm's crown is not
    in supply yet (crown scoring comes after the action). Storm has two crowns: alone, 6.
    """
    s = start(["B", "B", "U.3"])
    s, _ = anywhere(s, "crown:storm")  # Ann: supply 6
    s, events = anywhere(s)  # Ann draws U.3: Storm, then Storm's crown
    assert points(events, "storm") == {0: 6, 1: 7}
    assert points(events, "crown") == {0: 6}
    assert s.supply[0] == 7


def test_tax_rulebook_example_two_knights_two_cities_one_pennant_each() -> None:
    """S004 Tax: "2 (knights) + 2 (pennants) = 4": one knight in each of two cities with one
    pennant each.
    """
    s = start(["M", "B", "M", "U.1"])
    s, _ = turn(s, 4, 0, 90, "city:N")
    s, _ = turn(s, 4, 3, 0)
    s, events = turn(s, 1, -1, 0, "city:N")  # then Ben draws U.1: pig to Tax
    assert s.tile == "U.1"
    assert points(events, "tax") == {0: 4}


def test_tax_formula_per_knight_pennants_plus_own_knights() -> None:
    """RULES.md §6.5 / case 31: k knights, p pennants → k × (p + k)."""
    assert tax_points(1, 0) == 1
    assert tax_points(1, 1) == 2
    assert tax_points(2, 1) == 6
    assert tax_points(3, 2) == 15


def test_famine_counts_a_completed_board_city() -> None:
    """S004 Famine: 1 point per completed city each farmer's farm supplies (case 32). Ann's
    farmer is in farm1; Ben completes cityA; Ann draws U.2: Famine.
    """
    s = start(["B", "E", "U.2"])
    s, _ = turn(s, 1, -1, 0, "field:SSW")
    s, events = turn(s, 0, -1, 180)
    assert [e.segment for e in events if isinstance(e, PigMoved)] == ["famine"]
    assert points(events, "famine") == {0: 1}


def test_inquisition_two_points_per_monk() -> None:
    """S004 Inquisition: "Each player earns 2 points for each monk he has on the table"."""
    s = start(["V.1", "B", "B", "U.3"])
    s, _ = anywhere(s)
    s, _ = turn(s, 4, 1, 0, "cloister")  # Ben's monk
    s, events = anywhere(s)  # Ben draws U.3: 1 + 3 = Inquisition
    assert [e.segment for e in events if isinstance(e, PigMoved)] == ["inquisition"]
    assert points(events, "inquisition") == {1: 2}


def test_case_29_crown_follower_redeployed_the_same_turn() -> None:
    """S004 step 4: after crown scoring the player may again deploy on an empty crown space."""
    s = start(["B", "B", "U.1"])
    s, _ = anywhere(s, "crown:tax")
    s, _ = anywhere(s)
    assert s.tile == "U.1" and s.supply[0] == 7 and wheel_state(s).crowns[1] == ()
    s, _ = apply(s, PlaceTile(0, *legal_placements(s)[0]))
    assert "crown:tax" in legal_follower_spots(s)
    s, _ = apply(s, PlaceFollower(0, "crown:tax"))
    assert wheel_state(s).crowns[1] == (0,)


def test_case_33_crown_followers_score_nothing_at_game_end() -> None:
    """S004: "followers remaining on crown spaces at game end are not scored"."""
    s = start(["B"])
    s, events = anywhere(s, "crown:tax")
    assert s.is_over and s.scores == [0, 0]


# ---------------------------------------------------------------- Plague and records


def _plague_game() -> GameState:
    """Ann: knight at (4,1); Ben: thief at (-1,0); Ann: crown on Tax; Ben draws U.3: Plague."""
    s = start(["E", "V", "U.2", "U.3", "B"])
    s, _ = turn(s, 4, 1, 0, "city:N")  # Ann knight
    s, _ = turn(s, -1, 0, 0, "road:S")  # Ben thief; Ann draws U.2: Famine
    s, _ = anywhere(s, "crown:tax")  # Ann crown; Ben draws U.3: 2 + 3 = Plague
    return s


def test_case_30_plague_active_first_then_clockwise_crowns_excluded() -> None:
    """S004 Plague: "Each player must take 1 follower from a land tile back to his supply. He
    may not take a follower from a crown space. The player whose turn it is starts".
    """
    s = _plague_game()
    assert s.phase == PLAGUE and s.tile == "U.3"
    assert s.seat == 1  # Ben, whose turn it is, first
    assert legal_actions(s) == [RemoveFollower(1, -1, 0, "road:S")]
    with pytest.raises(WrongPhase):
        apply(s, PlaceTile(1, 4, 3, 0))
    s, events = apply(s, RemoveFollower(1, -1, 0, "road:S"))
    assert s.phase == PLAGUE and s.seat == 0
    assert legal_actions(s) == [RemoveFollower(0, 4, 1, "city:N")]  # not the crown
    assert view(s, None)["plague"]["seat"] == 0
    s, events = apply(s, RemoveFollower(0, 4, 1, "city:N"))
    assert s.phase == "place_tile" and s.seat == 1 and s.tile == "U.3"
    assert s.supply == [6, 7] and wheel_state(s).crowns[1] == (0,)
    assert s.followers == {}
    assert not [e for e in events if isinstance(e, PointsScored) and e.category != "crown"]


def test_plague_skips_players_without_followers_on_land() -> None:
    """A player with no follower on a land tile has nothing to take back (RULES.md §6.5)."""
    s = start(["E", "V", "U.2", "U.3", "B"])
    s, _ = turn(s, 4, 1, 0, "city:N")
    s, _ = turn(s, -1, 0, 0)  # Ben: no follower
    s, _ = anywhere(s)
    assert s.phase == PLAGUE and s.seat == 0 and wheel_state(s).plague_queue == (0,)


def _finish_plague_game() -> GameState:
    s = _plague_game()
    s, _ = apply(s, RemoveFollower(1, -1, 0, "road:S"))
    s, _ = apply(s, RemoveFollower(0, 4, 1, "city:N"))
    s, _ = anywhere(s)
    s, _ = anywhere(s)
    assert s.is_over
    return s


def test_plague_record_round_trip_and_the_plague_turns_tile_is_checked() -> None:
    """record.md: ``plague`` lists the removals of the move whose draw landed on Plague; the
    move's ``tile`` must be the tile drawn on that turn.
    """
    s = _finish_plague_game()
    record = json.loads(json.dumps(export_record(s)))
    assert record["moves"][3]["plague"] == [
        {"seat": 1, "at": [-1, 0], "follower": "road:S"},
        {"seat": 0, "at": [4, 1], "follower": "city:N"},
    ]
    assert record["moves"][2]["follower"] == "crown:tax"
    again, _ = replay(record)
    assert again.scores == s.scores
    wrong = json.loads(json.dumps(record))
    wrong["moves"][3]["tile"] = "B"
    with pytest.raises(RecordError, match="move 4.*'B'"):
        replay(wrong)
    del record["moves"][3]["plague"]
    with pytest.raises(RecordError, match="move 4"):
        replay(record)


#: Ann's and Ben's monks; the three board roads closed (A, A, S), so X fits nowhere; the pig
#: reaches Inquisition (N.1, N.1, U.2) and X.1 lands it on Plague: both monks go home, then X.1
#: is discarded (record.md: a ``discarded`` entry carries the Plague removals).
DISCARD_DRAW = ["A", "A", "S", "B", "N.1", "N.1", "U.2", "X.1", "B"]
DISCARD_TURNS = [
    (2, -1, 0, "cloister"),
    (3, 4, 180, "cloister"),
    (-1, 1, 270, None),
    (3, -1, 0, None),
    (1, -1, 0, None),
    (4, 3, 90, None),
    (4, 0, 90, None),
]


def _discard_game() -> tuple[GameState, list[Event]]:
    s = start(DISCARD_DRAW)
    for x, y, r, f in DISCARD_TURNS:
        s, events = turn(s, x, y, r, f)
    assert s.phase == PLAGUE and s.tile == "X.1"
    s, _ = apply(s, RemoveFollower(1, 3, 4, "cloister"))
    s, events = apply(s, RemoveFollower(0, 2, -1, "cloister"))
    assert TileDiscarded(1, "X.1") in events and s.tile == "B" and s.seat == 1
    s, more = anywhere(s)
    return s, events + more


def test_discarded_plague_tile_in_a_record() -> None:
    """record.md: a tile discarded after its icon landed the pig on Plague makes an entry
    ``{"discarded": tile, "plague": [...]}``; replay checks it and needs it.
    """
    s, _ = _discard_game()
    assert s.is_over and s.scores == [2, 2]  # Inquisition: one monk each
    record = json.loads(json.dumps(export_record(s)))
    assert record["moves"][7] == {
        "discarded": "X.1",
        "plague": [
            {"seat": 1, "at": [3, 4], "follower": "cloister"},
            {"seat": 0, "at": [2, -1], "follower": "cloister"},
        ],
    }
    assert record["moves"][8]["tile"] == "B"
    again, _ = replay(record)
    assert again.scores == s.scores and again.supply == s.supply
    missing = json.loads(json.dumps(record))
    del missing["moves"][7]
    with pytest.raises(RecordError, match="move 8"):
        replay(missing)
    placed = json.loads(json.dumps(record))
    placed["moves"][7] = {
        "tile": "X.1",
        "at": [5, 0],
        "rotation": 0,
        "follower": None,
        "plague": record["moves"][7]["plague"],
    }
    with pytest.raises(RecordError, match="move 8"):
        replay(placed)
    wrong = json.loads(json.dumps(record))
    wrong["moves"][7]["discarded"] = "B"
    with pytest.raises(RecordError, match="move 8"):
        replay(wrong)


def test_discarded_plague_tile_with_nobody_on_land() -> None:
    """The entry has ``"plague": []`` when nobody had a follower on a land tile."""
    s = start(DISCARD_DRAW)
    for x, y, r, _ in DISCARD_TURNS:
        s, _ = turn(s, x, y, r)
    assert s.tile == "B" and s.phase == "place_tile"
    s, _ = anywhere(s)
    record = json.loads(json.dumps(export_record(s)))
    assert record["moves"][7] == {"discarded": "X.1", "plague": []}
    assert replay(record)[0].scores == s.scores
    del record["moves"][7]
    with pytest.raises(RecordError, match="move 8"):
        replay(record)


def test_random_games_keep_followers_and_replay() -> None:
    """Followers on land + on crowns + in supply = 7; records replay to the same scores."""
    rng = random.Random(5)
    for seed in range(15):
        s = new_game(WOF, ["a", "b", "c"], seed=seed)
        while not s.is_over:
            s, _ = apply(s, rng.choice(legal_actions(s)))
            land = Counter(s.followers.values())
            crowns = Counter(seat for held in wheel_state(s).crowns for seat in held)
            assert all(land[i] + crowns[i] + s.supply[i] == 7 for i in range(3))
        again, _ = replay(json.loads(json.dumps(export_record(s))))
        assert again.scores == s.scores
        assert load_state(json.loads(json.dumps(s.to_json()))) == s


def test_icon_tile_drawn_after_a_plague_discard_is_played() -> None:
    """S004 Plague, then §3.2c: once the last follower went home the unplaceable X.1 is
    discarded and U.2 drawn; its icon moves the pig on (Plague → Tax) and Ben places it.
    The finished Plague left the phase behind before: nobody could act, and a record with the
    ``{"discarded", "plague"}`` entry followed by an icon tile did not replay.
    """
    s = start([*DISCARD_DRAW[:-1], "U.2", "B"])
    for x, y, r, f in DISCARD_TURNS:
        s, _ = turn(s, x, y, r, f)
    s, _ = apply(s, RemoveFollower(1, 3, 4, "cloister"))
    s, events = apply(s, RemoveFollower(0, 2, -1, "cloister"))
    assert TileDiscarded(1, "X.1") in events
    assert PigMoved(1, 2, "plague", "tax") in events
    assert s.phase == "place_tile" and s.seat == 1 and s.tile == "U.2"
    assert legal_actions(s) and all(a.seat == 1 for a in legal_actions(s))
    while not s.is_over:
        s, _ = anywhere(s)
    record = json.loads(json.dumps(export_record(s)))
    assert record["moves"][7]["discarded"] == "X.1" and record["moves"][8]["tile"] == "U.2"
    again, _ = replay(record)
    assert again.scores == s.scores and wheel_state(again).pig == wheel_state(s).pig
