"""Carcassonne: Wheel of Fortune (seed 004; RULES.md §6 and tricky cases 18, 19, 27–35).

The board layout, crowns per segment and icon tiles are provisional data
(``app/engine/wheel_data.py``); tests that depend on the placeholder say so.
"""

from __future__ import annotations

import json
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
    RemoveFollower,
    WrongPhase,
    apply,
    export_record,
    legal_actions,
    legal_follower_spots,
    new_game,
    replay,
    view,
)
from app.engine import game as game_module
from app.engine.events import CrownReturned, Event, PigMoved, PointsScored
from app.engine.wheel import crown_points, tax_points

WOF = Options(tileset="wheel_of_fortune")


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


def points(events: list[Event], category: str) -> dict[int, int]:
    out: Counter[int] = Counter()
    for e in events:
        if isinstance(e, PointsScored) and e.category == category:
            out[e.seat] += e.points
    return dict(out)


# Placements used below. The placeholder board is fields on every side, so these fit.
# U at (-1, 0) rotation 90: road N–S, its east side (field) against the board.
FILLER = (-1, 0, 90)


def test_board_is_sixteen_cells_and_first_tile_goes_against_it() -> None:
    """S004 Preparation: "This board serves as the starting tile" (RULES.md §6.2)."""
    s = start(["B"])
    assert sorted(p for p in s.board) == [(x, y) for x in range(4) for y in range(4)]
    cells = {(x, y) for x, y, _ in game_module.legal_placements(s)}
    assert (4, 0) in cells and (-1, 3) in cells and (1, -1) in cells
    assert (4, 4) not in cells  # corner contact only
    assert view(s, 0)["wheel"]["pig"] == "fortune"


def test_case_18_cloister_next_to_board_counts_board_cells() -> None:
    """RULES.md §7 case 18: board cells are neighbour tiles of a cloister (incomplete: 1 + 3)."""
    s = start(["B"])
    s, events = turn(s, 4, 1, 0, "cloister")
    assert s.is_over
    assert points(events, "cloister") == {0: 4}


def test_case_18_cloister_diagonal_to_board_corner() -> None:
    """A cloister off the board's corner diagonally touches one board cell."""
    s = start(["A", "B"])
    s, _ = turn(s, 4, 3, 180)  # A with its road stub to the north, field against the board
    s, events = turn(s, 4, 4, 0, "cloister")
    assert points(events, "cloister") == {1: 3}  # itself, (3, 3) diagonal, (4, 3) above


def test_case_19_road_running_onto_the_board_counts_board_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RULES.md §6.2/§7 case 19 with a board layout that has a road (data-driven board).

    Cells (1,1) A (cloister, road east), (2,1) U and (3,1) U carry a road to the east edge;
    closing it with an A at (4,1) makes a 4-tile road: 3 board cells + the placed tile.
    """
    layout = dict(game_module.BOARD_CELLS)
    layout[(1, 1)] = ("A", 270)
    layout[(2, 1)] = ("U", 0)
    layout[(3, 1)] = ("U", 0)
    monkeypatch.setattr(game_module, "BOARD_CELLS", layout)
    s = start(["A"])
    assert (4, 1, 90) in game_module.legal_placements(s)
    s, events = turn(s, 4, 1, 90, "road:W")
    assert points(events, "road") == {0: 4}
    assert legal_follower_spots(start(["A"])) == []  # nothing deployable before placing


def test_pig_moves_clockwise_by_the_icon_and_fortune_pays_the_mover() -> None:
    """S004: "moves the pig around the wheel by the number of segments shown"; FORTUNE: "The
    player who moved the pig (it is his turn!) scores 3 points". 3 + 3 = back on Fortune."""
    s = start(["B.3", "K.3"])
    assert any(isinstance(e, PigMoved) and e.segment == "storm" for e in s.opening_events)
    s, events = turn(s, 4, 1, 0)
    pig = [e for e in events if isinstance(e, PigMoved)]
    assert [(p.seat, p.steps, p.start, p.segment) for p in pig] == [(1, 3, "storm", "fortune")]
    assert points(events, "fortune") == {1: 3}


def test_storm_counts_supply_before_storm_crowns_return() -> None:
    """S004 Storm: 1 point per follower in supply; RULES.md §7 case 28: the follower on
    Storm's crown is not in supply yet (crown scoring comes after the action)."""
    s = start(["U", "U", "B.3"])
    s, _ = turn(s, 4, 1, 90, "crown:storm")  # Ann: supply 6
    s, events = turn(s, *FILLER)  # Ben draws B.3 at the end of his turn? no: Ann draws next
    # The draw after Ben's turn is Ann's B.3: Storm then Storm's crown.
    assert points(events, "storm") == {0: 6, 1: 7}
    assert points(events, "crown") == {0: 3}  # one crown space, one follower: 3 (placeholder)
    assert s.supply[0] == 7
    assert [e.segment for e in events if isinstance(e, CrownReturned)] == ["storm"]


def test_tax_rulebook_example_two_knights_two_cities_one_pennant_each() -> None:
    """S004 Tax: "Blue earns for his knights 2 (knights) + 2 (pennants) = 4 points": one knight
    in each of two cities with one pennant each."""
    s = start(["M", "U", "M", "U.1"])
    s, _ = turn(s, 4, 1, 90, "city:N")
    s, _ = turn(s, *FILLER)
    s, events = turn(s, 4, 3, 90, "city:N")  # then Ben draws U.1: pig to Tax
    assert s.tile == "U.1"
    assert points(events, "tax") == {0: 4}


def test_tax_formula_per_knight_pennants_plus_own_knights() -> None:
    """RULES.md §6.5 / case 31: k knights, p pennants → k × (p + k)."""
    assert tax_points(1, 0) == 1
    assert tax_points(1, 1) == 2
    assert tax_points(2, 1) == 6
    assert tax_points(3, 2) == 15


def test_famine_per_farmer_and_completed_city() -> None:
    """S004 Famine: "Each player earns 1 point for each completed city connected to each of his
    farmers" (case 32). Ann's farmer is in the farm of a completed 2-tile city."""
    s = start(["E", "E", "W.2"])
    s, _ = turn(s, 4, 0, 180, "field:NNW")
    s, events = turn(s, 4, 1, 0)  # Ben completes the city; Ann draws W.2: pig to Famine
    assert [e.segment for e in events if isinstance(e, PigMoved)] == ["famine"]
    assert points(events, "famine") == {0: 1}


def test_inquisition_two_points_per_monk() -> None:
    """S004 Inquisition: "Each player earns 2 points for each monk he has on the table"."""
    s = start(["B", "U.1", "B.3"])
    s, _ = turn(s, 4, 1, 0, "cloister")
    s, events = turn(s, *FILLER)  # Ann draws B.3: 1 + 3 = Inquisition
    assert [e.segment for e in events if isinstance(e, PigMoved)] == ["inquisition"]
    assert points(events, "inquisition") == {0: 2}


def test_crown_alone_on_two_crown_segment_scores_6_and_returns() -> None:
    """S004 crown spaces: alone in a two-crown segment 6 points; then back to supply."""
    s = start(["U", "U", "U.1"])
    s, _ = turn(s, 4, 1, 90, "crown:tax")
    assert s.supply[0] == 6
    s, events = turn(s, *FILLER)
    assert points(events, "crown") == {0: 6}
    assert s.supply[0] == 7


def test_case_34_two_followers_of_one_player_score_3_each() -> None:
    """S004: two followers in a two-crown segment score 3 each, "also when both followers
    belong to the same player"."""
    s = start(["U", "U", "U", "U.1"])
    s, _ = turn(s, 4, 1, 90, "crown:tax")
    s, _ = turn(s, *FILLER)
    s, events = turn(s, 4, 2, 90, "crown:tax")  # then Ben draws U.1: pig to Tax
    scored = [e for e in events if isinstance(e, PointsScored) and e.category == "crown"]
    assert [(e.seat, e.points) for e in scored] == [(0, 3), (0, 3)]
    assert crown_points(2, 2) == 3 and crown_points(2, 1) == 6 and crown_points(1, 1) == 3


def test_case_29_crown_follower_redeployed_the_same_turn() -> None:
    """S004 step 4: after crown scoring the player may again deploy on an empty crown space."""
    s = start(["U", "U", "U.1"])
    s, _ = turn(s, 4, 1, 90, "crown:tax")
    s, _ = turn(s, *FILLER)
    assert s.tile == "U.1" and s.supply[0] == 7 and s.crowns[1] == ()
    s, _ = apply(s, PlaceTile(0, 4, 2, 90))
    assert "crown:tax" in legal_follower_spots(s)
    s, _ = apply(s, PlaceFollower(0, "crown:tax"))
    assert s.crowns[1] == (0,)


def test_case_33_crown_followers_score_nothing_at_game_end() -> None:
    """S004: "followers remaining on crown spaces at game end are not scored"."""
    s = start(["U"])
    s, events = turn(s, 4, 1, 90, "crown:tax")
    assert s.is_over and s.scores == [0, 0]


def test_one_follower_per_crown_space() -> None:
    """S004: "There can be only one follower on each crown space" (Storm has one, placeholder)."""
    s = start(["U", "U", "U"])
    s, _ = turn(s, 4, 1, 90, "crown:storm")
    s, _ = apply(s, PlaceTile(1, *FILLER))
    assert "crown:storm" not in legal_follower_spots(s)
    with pytest.raises(IllegalFollower):
        apply(s, PlaceFollower(1, "crown:storm"))
    with pytest.raises(IllegalFollower):
        apply(s, PlaceFollower(1, "crown:fortune"))  # Fortune has no crown space


def _plague_game() -> GameState:
    """Ann: knight at (4,1); Ben: crown on Tax... then Plague. Icons: W.2 (famine) + B.3."""
    s = start(["E", "U", "W.2", "B.3"])
    s, _ = turn(s, 4, 1, 0, "city:N")  # Ann knight
    s, _ = turn(s, -1, 0, 90, "road:N")  # Ben thief; Ann draws W.2: Famine
    s, _ = turn(s, -1, 1, 90, "crown:tax")  # Ann crown; Ben draws B.3: 2 + 3 = Plague
    return s


def test_case_30_plague_active_first_then_clockwise_crowns_excluded() -> None:
    """S004 Plague: "Each player must take 1 follower from a land tile back to his supply. He
    may not take a follower from a crown space. The player whose turn it is starts"."""
    s = _plague_game()
    assert s.phase == PLAGUE and s.tile == "B.3"
    assert s.seat == 1  # Ben, whose turn it is, first
    assert legal_actions(s) == [RemoveFollower(1, -1, 0, "road:N")]
    with pytest.raises(WrongPhase):
        apply(s, PlaceTile(1, 4, 3, 0))
    s, events = apply(s, RemoveFollower(1, -1, 0, "road:N"))
    assert s.phase == PLAGUE and s.seat == 0
    assert legal_actions(s) == [RemoveFollower(0, 4, 1, "city:N")]  # not the crown
    assert view(s, None)["plague"]["seat"] == 0
    s, events = apply(s, RemoveFollower(0, 4, 1, "city:N"))
    assert s.phase == "place_tile" and s.seat == 1 and s.tile == "B.3"
    assert s.supply == [6, 7] and s.crowns[1] == (0,)
    assert s.followers == {}
    assert not [e for e in events if isinstance(e, PointsScored) and e.category != "crown"]


def test_plague_skips_players_without_followers_on_land() -> None:
    """A player with no follower on a land tile has nothing to take back (RULES.md §6.5)."""
    s = start(["E", "U", "W.2", "B.3"])
    s, _ = turn(s, 4, 1, 0, "city:N")
    s, _ = turn(s, -1, 0, 90)  # Ben: no follower
    s, _ = turn(s, -1, 1, 90)
    assert s.phase == PLAGUE and s.seat == 0 and s.plague_queue == (0,)


def test_plague_record_round_trip() -> None:
    """record.md: ``plague`` lists the removals of the move whose draw landed on Plague."""
    s = _plague_game()
    s, _ = apply(s, RemoveFollower(1, -1, 0, "road:N"))
    s, _ = apply(s, RemoveFollower(0, 4, 1, "city:N"))
    s, _ = turn(s, 4, 3, 0)
    assert s.is_over
    record = json.loads(json.dumps(export_record(s)))
    assert record["moves"][3]["plague"] == [
        {"seat": 1, "at": [-1, 0], "follower": "road:N"},
        {"seat": 0, "at": [4, 1], "follower": "city:N"},
    ]
    assert record["moves"][2]["follower"] == "crown:tax"
    again, _ = replay(record)
    assert again.scores == s.scores
    del record["moves"][3]["plague"]
    with pytest.raises(Exception, match="move 4"):
        replay(record)


def test_random_games_keep_followers_and_replay() -> None:
    """Followers on land + on crowns + in supply = 7; records replay to the same scores."""
    import random

    rng = random.Random(5)
    for seed in range(15):
        s = new_game(WOF, ["a", "b", "c"], seed=seed)
        while not s.is_over:
            s, _ = apply(s, rng.choice(legal_actions(s)))
            land = Counter(s.followers.values())
            crowns = Counter(seat for held in s.crowns for seat in held)
            assert all(land[i] + crowns[i] + s.supply[i] == 7 for i in range(3))
        again, _ = replay(json.loads(json.dumps(export_record(s))))
        assert again.scores == s.scores
        assert GameState.from_json(json.loads(json.dumps(s.to_json()))) == s
