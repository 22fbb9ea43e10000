"""Every worked example of the rulebooks (docs/RULES.md §0.1) that can be laid out as tiles.

The pictures are not available, so each test builds a layout that matches the text and its
points. Seeds: 000 = Travel Carcassonne (2007, same text as 002), 001 = Carcassonne 2012 + River
+ player aid, 003 = first English edition (original farm scoring, two-tile city). Layouts are
written with :func:`tests.engine.helpers.play` (``"<tile> <x>,<y> r<rotation> <follower spot>"``,
y grows to the south, the start tile D sits at 0,0 with its city to the north and its road
west–east). Expected points come from the rulebook sentence quoted in each docstring.
"""

from __future__ import annotations

import pytest

from app.engine import (
    IllegalPlacement,
    PlaceTile,
    apply,
    legal_follower_spots,
    legal_placements,
)
from app.engine.events import FeatureCompleted, FollowerReturned

from .helpers import BLACK, BLUE, GREEN, RED, YELLOW, play

S000 = "000_79f7b368cada9bf8.txt"
S001 = "001_ac27691a1f65e49d.txt"
S003 = "003_8688503a1c6b678b.txt"
ORIGINAL = {"farm_scoring": "original"}
MODERN = {"farm_scoring": "modern"}


# ---------------------------------------------------------------- placing tiles


def test_s000_placement_examples() -> None:
    """S000 "Placing land tiles": "The new tile must be placed so that all field, city, and road
    segments on the new tile continue to field, city, and road segments on all abutting tiles"
    — "road and field segments are continued", "city segment is continued", "on one edge the
    city segment is continued and on the other edge the field segment is continued", "This is
    an invalid placement" (S003: "This is an invalid placement as the road and city edges do not
    match").
    """
    g = play(upcoming=["U"])
    assert (1, 0, 0) in legal_placements(g.state)  # road and fields continued
    g = play(upcoming=["E"])
    assert (0, -1, 180) in legal_placements(g.state)  # city continued
    assert (1, 0, 270) not in legal_placements(g.state)  # city against D's road: invalid
    with pytest.raises(IllegalPlacement):
        apply(g.state, PlaceTile(RED, 1, 0, 270))
    g = play("N 0,-1 r180", "U 1,0", upcoming=["E"])
    assert (1, -1, 270) in legal_placements(g.state)  # city on one edge, field on the other
    assert (1, -1, 180) not in legal_placements(g.state)


# ---------------------------------------------------------------- completed roads


def test_s000_completed_road_red_earns_4_points() -> None:
    """S000 "A COMPLETED ROAD": "The player who has a thief on a completed road scores one point
    for each tile in the completed road ... Red earns 4 points." (S001 and S003: "Red scores 4
    points".) Road: junction W – start D – U – cloister A; both ends closed.
    """
    g = play("W -1,0 road:E", "U 1,0", "A 2,0 r90", finished=False)
    assert g.scored("road") == [4, 0]
    completed = g.of_type(FeatureCompleted)
    assert [(e.kind, len(e.tiles)) for e in completed] == [("road", 4)]


def test_s000_completed_road_red_earns_3_points() -> None:
    """S000 "A COMPLETED ROAD": "A road is complete when the road segments on both ends connect
    to a crossing, a city segment, or a cloister ... Red earns 3 points." Road: the L junction
    (city tile) – D – the X crossing.
    """
    g = play("X 1,0 road:W", "L -1,0", finished=False)
    assert g.scored("road") == [3, 0]


# ---------------------------------------------------------------- completed cities


def test_s000_completed_city_3_tiles_1_pennant_red_earns_8() -> None:
    """S000 "A COMPLETED CITY": "Red earns 8 points (3 city tiles and 1 pennant)." (S001: "Red
    scores 8 points (3-tile city and 1 banner)"; S003: "Red scores 8 points".) City: D's cap,
    the pennant corner M, the cap E.
    """
    g = play("M 0,-1 r180 city:S", "E 1,-1 r270", finished=False)
    assert g.scored("city") == [8, 0]
    (done,) = g.of_type(FeatureCompleted)
    assert len(done.tiles) == 3 and done.pennants == 1


def test_s000_completed_city_4_tiles_no_pennant_red_earns_8() -> None:
    """S000: "Red earns 8 points (4 city tiles, and no pennants)". City: D's cap, two corners
    N, and a second D.
    """
    g = play("N 0,-1 r180 city:S", "N 1,-1 r270", "D 1,0", finished=False)
    assert g.scored("city") == [8, 0]


def test_s000_tile_with_two_segments_in_a_city_counts_once() -> None:
    """S000: "When a tile has 2 segments in a city, it still counts for just 2 points (1 tile)."
    (S001: "When 2 city sections are on the same tile, it is still worth only 2 points since it
    counts as 1 tile.") A ring of three corners N joins both caps of the I tile: 4 tiles, 8
    points (10 if segments were counted).
    """
    g = play("N 0,1 r180 city:E", "N 1,1 r270", "N 0,2 r90", "I 1,2", finished=False)
    assert g.scored("city") == [8, 0]
    (done,) = g.of_type(FeatureCompleted)
    assert len(done.tiles) == 4


def test_s000_tied_knights_both_score_the_full_10_points() -> None:
    """S000: "The new land tile connects separate city segments to complete a city. Red and Blue
    each score the full 10 points for the city as they tie with 1 knight each in the completed
    city." S001: "Blue and Red both score 10 points for this city (made out of 5 tiles) since
    they have one knight each". S003: "Red and blue each score the full 10 points". The G tile
    joins Red's half and Blue's half into a 5-tile city without pennants.
    """
    g = play(
        "U -1,0",
        "U 1,0",
        "N -1,1 r180 city:E",  # Red's knight, western half
        "N 1,1 r270 city:S",  # Blue's knight, eastern half
        "E -1,2",
        "E 1,2",
        "G 0,1",  # Red joins both halves: complete
    )
    assert g.scored("city") == [10, 10]
    assert g.scores == [10, 10]
    assert g.state.winners == (RED, BLUE)  # S000: "they rejoice in their shared victory"
    assert len(g.of_type(FollowerReturned)) == 2


# ---------------------------------------------------------------- cloister


@pytest.mark.parametrize("seat", [RED, BLUE])
def test_s000_completed_cloister_earns_9_points(seat: int) -> None:
    """S000 "A COMPLETED CLOISTER": "The player with a monk in the cloister earns 9 points (1 for
    the cloister tile and 1 each for the other tiles). Red earns 9 points." S003: "Blue scores 9
    points". The cloister B south of D is surrounded by 8 tiles (corners included).
    """
    names = ["Red", "Blue"] if seat == RED else ["Blue", "Red"]
    g = play(
        "B 0,1 cloister",
        "U -1,0",
        "U 1,0",
        "V -1,1",
        "V 1,1 r270",
        "U 0,2",
        "V -1,2 r180",
        "V 1,2 r90",
        players=names,
    )
    assert g.scores == [9, 0]
    assert g.scored("cloister", final=False) == [9, 0]


# ---------------------------------------------------------------- deploy, score, return


def test_s000_deploy_score_and_return_in_one_turn_red_earns_4() -> None:
    """S000 "RETURNING SCORED FOLLOWERS": "It is possible for a player to deploy a follower,
    score a road, a city, or a cloister, and have the follower returned on the same turn (always
    in this order). Red earns 4 points. 1. Complete a road ... 2. Deploy a knight, thief, or
    monk. 3. Score ... 4. Return". Red's last tile A closes the 4-tile road and holds his
    thief.
    """
    g = play(
        "W -1,0", "U 1,0", "A 2,0 r90 road:W", players=["Red", "Blue", "Yellow"], finished=False
    )
    assert g.scored("road") == [0, 0, 4]
    assert g.state.supply[2] == 7
    kinds = [type(e).__name__ for e in g.events[-6:]]
    assert kinds.index("FollowerPlaced") < kinds.index("PointsScored")
    assert kinds.index("PointsScored") < kinds.index("FollowerReturned")


def test_s000_deploy_score_and_return_in_one_turn_red_earns_3() -> None:
    """S000 (same passage): "Red earns 3 points". Red closes a 3-tile road (L – D – X) with the
    tile that carries his new thief; the thief is back in his supply the same turn.
    """
    g = play("X 1,0", "L -1,0 road:E", players=["Blue", "Red"], finished=False)
    assert g.scored("road") == [0, 3]
    assert g.state.supply == [7, 7]


# ---------------------------------------------------------------- deploying followers


def test_s000_blue_can_only_deploy_a_farmer_next_to_a_knight() -> None:
    """S000 "Deploying followers": "Blue can only deploy a farmer as there is already a knight in
    a connected city segment". Red's knight sits in the corner city; Blue's cap continues it.
    """
    g = play("N 0,-1 r180 city:S", players=["Red", "Blue"], upcoming=["E"])
    state, _ = apply(g.state, PlaceTile(BLUE, 1, -1, 270))
    assert legal_follower_spots(state) == ["field:NNW"]


def test_s000_blue_may_use_only_the_small_field() -> None:
    """S000: "Blue can deploy his follower as a knight or a thief, but only as a farmer in the
    small field where the red arrow points. In the larger field area, there is already a farmer
    on a connected field segment." (S001 says the same.) Blue's D continues the road and
    Red's farmed field south of it.
    """
    g = play("U 1,0 field:SSE", players=["Red", "Blue"], upcoming=["D"])
    state, _ = apply(g.state, PlaceTile(BLUE, 2, 0, 0))
    assert sorted(legal_follower_spots(state)) == ["city:N", "field:ENE", "road:E"]


def test_s000_three_farms_joined_by_one_tile() -> None:
    """S000 "THE FARMS": "All 3 farmers have their own farms. The city and road segments separate
    the farms from each other. With the placement of the new land tile, the 3 players each have
    1 farmer on the farm. Note: the player who played the new land tile may not deploy a farmer
    because the connected field segments already have farmers." The cloister B joins the field
    south of D with the fields of two caps; afterwards each player scores the farm in full.
    """
    moves = ("L 1,0 r180", "L -1,0 r180 field:ESE", "E -1,1 field:ENE", "E 1,1 field:ENE")
    g = play(*moves, players=3, upcoming=["B"])
    state, _ = apply(g.state, PlaceTile(BLUE, 0, 1, 0))
    assert legal_follower_spots(state) == ["cloister"]
    done = play(*moves, "B 0,1", players=3)
    farms = done.points_events("farm")
    assert len(farms) == 3 and all(e.followers == (1, 1, 1) for e in farms)
    assert done.scores == [6, 6, 6]  # two completed cities (the L caps closed by the E caps)


def test_s001_two_farmers_in_one_field_through_a_diagonal_tile() -> None:
    """S001 player aid, "How can more than one follower occupy the same field?": "Turn 1: Blue
    puts a farmer in the field. Turn 2: Red places a tile diagonally adjacent to the one that
    Blue has just placed. Red can put his farmer in the illustrated field since both fields are
    not connected at that time. Turn 3: The two fields are now combined into a larger field.
    There are now two farmers in the same field.".
    """
    turn1_2 = ("E 0,-1 r180 field:NNW", "U 1,0 field:NNW")  # (0,-1) and (1,0) touch diagonally
    g = play(*turn1_2, players=["Blue", "Red"], upcoming=["V"])
    state, _ = apply(g.state, PlaceTile(0, 1, -1, 180))
    assert "field:NNW" not in legal_follower_spots(state)  # the joined field is occupied
    done = play(*turn1_2, "V 1,-1 r180", players=["Blue", "Red"])
    (farm_blue, farm_red) = done.points_events("farm")
    assert farm_blue.followers == (1, 1) and farm_blue.tiles == farm_red.tiles
    assert done.scores == [3, 3]  # both supply the completed city D + E


# ---------------------------------------------------------------- final scoring: incomplete


def test_s000_final_scoring_of_incomplete_features() -> None:
    """S000 "SCORING OF INCOMPLETE ROADS, CITIES, AND CLOISTERS": "Red earns 3 points for the
    incomplete road. Yellow earns 5 points for the incomplete cloister." and "Blue earns 3
    points for the incomplete city on the lower right. Green earns 8 points for the larger
    incomplete city on the left. Black earns nothing, as Green has more knights in the city
    than Black." Green's city: D, C, F, F, E = 5 tiles + 3 pennants, open to the west and east;
    Green's two knights and Black's one were joined by the C tile.
    """
    g = play(
        "U -1,0 road:E",  # Red: road U – D – U, open at both ends
        "E 0,1 r180 city:S",  # Blue: city E – F – N, open to the east
        "B -1,1 cloister",  # Yellow: 4 of 8 neighbours filled
        "F -1,-1 city:E",  # Green
        "V -1,-2 r90",
        "U 1,0",
        "G 0,2 r90",
        "N 0,3 r90",
        "E 0,-2 r180 city:S",  # Green
        "F 1,-1 city:E",  # Black
        "C 0,-1",  # joins Green, Green and Black
        players=5,
    )
    assert g.scores[RED] == 3
    assert g.scores[YELLOW] == 5
    assert g.scores[BLUE] == 3
    assert g.scores[GREEN] == 8
    assert g.scores[BLACK] == 0
    (green,) = [e for e in g.points_events("city") if e.seat == GREEN]
    assert green.followers == (0, 0, 0, 2, 1) and green.pennants == 3 and len(green.tiles) == 5


def test_s003_final_scoring_of_incomplete_features() -> None:
    """S003 final scoring: "Red scores 3 points for the incomplete road. Blue scores 4 points for
    the incomplete city. Yellow scores 4 points for the incomplete cloister: 1 point for the
    cloister tile and 3 points for the tiles that surround it." Blue's city: E – F – N, 3
    tiles + 1 pennant ("Shields earn the city player one point each").
    """
    g = play(
        "U -1,0 road:E",
        "E 0,1 r180 city:S",
        "B -1,-1 cloister",
        "U 1,0",
        "F 0,2 r90",
        "N 0,3 r90",
        "E 0,-1 r180",
        players=3,
    )
    assert g.scores == [3, 4, 4]
    assert all(e.final for e in g.points_events())


# ---------------------------------------------------------------- farms, modern scoring


def test_s000_farms_blue_6_red_3_incomplete_city_scores_nothing() -> None:
    """S000 "FARM SCORING": "Blue earns 6 points. Red earns 3 points. No farmer scores for the
    incomplete city." (S001: "Blue scores 6 points. Red scores 3 points. No one scores points
    for the incomplete city.") Blue's farm north of the road touches two completed cities; Red's
    farm south of it touches one completed city and one open city.
    """
    g = play(
        "U -1,0 field:SSE",
        "U 1,0 field:NNW",
        "E 0,-1 r180",
        "E 1,-1",
        "E 1,-2 r180",
        "E 0,1 r180",
        "D 0,2",
        "E 1,1 r180",
    )
    assert g.scores == [3, 6]
    (red,) = g.points_events("farm", final=True)[:1]
    assert red.seat == RED and red.cities == 1


def test_s000_farm_supplying_three_cities_blue_earns_9() -> None:
    """S000: "Blue earns 9 points." (S001: "Blue scores 9 points.") "A farm can supply (score)
    several cities if they border the farm." Blue's farm touches three completed cities.
    """
    g = play(
        "U 1,0 field:NNW",
        "U -1,0",
        "E 0,-1 r180",
        "E 1,-1",
        "E 1,-2 r180",
        "E -1,-1",
        "E -1,-2 r180",
        players=["Blue", "Red"],
    )
    assert g.scores == [9, 0]


FARMS_A_B = (
    "T 1,0 r90 field:WSW",  # Red: lower farm
    "U -1,0 field:NNW",  # Blue: upper farm
    "E 1,1 field:ENE",  # Yellow: lower farm (not yet joined)
    "E 2,0 r270 field:NNW",  # Red: lower farm (not yet joined); city A is the T's city
    "E 0,1 r180",  # joins the lower farm's parts
    "E 1,-1 r180",  # closes city A; its field joins the lower farm later
    "V 2,1 r270",
    "V 2,-1 r180",
    "E 0,2",  # closes city B
)


def test_s000_farm_majority_red_6_blue_3() -> None:
    """S000: "Red earns 6 points for supplying city A and city B, as he has 2 farmers in the
    lower farm to Yellow's 1. Blue also earns 3 points for city A, for his farmer in the upper
    farm." (S001: "Red owns the large field since he has the most farmers. He scores 6 points (3
    for each city, A and B). Blue owns the small field. He also scores 3 points for city A.").
    """
    g = play(*FARMS_A_B, players=["Red", "Blue", "Yellow"])
    assert g.scores == [6, 3, 0]
    lower = next(e for e in g.points_events("farm") if e.seat == RED)
    assert lower.followers == (2, 0, 1) and lower.cities == 2


def test_s000_farm_tie_red_and_yellow_6_each_blue_3() -> None:
    """S000: "In this example, Red and Yellow each earn 6 points for each of the two cities (A &
    B), as each has 2 farmers in the lower farm. Blue earns 3 points for city A for his farmer
    in the upper farm." (S001: "Red and Yellow both have 2 farmers and score 6 points each (3
    points each for cities A and B).").
    """
    moves = list(FARMS_A_B)
    moves[5] = "E 1,-1 r180 field:NNW"  # Yellow's second farmer
    g = play(*moves, players=["Red", "Blue", "Yellow"])
    assert g.scores == [6, 3, 6]


def test_s001_player_aid_fields_1_2_3() -> None:
    """S001 player aid, "More examples for scoring farmers": "Field 1: Blue is alone in Field 1.
    This field touches 2 completed cities (A and B). Blue scores 3 points for each city ... for
    a total of 6 points. Field 2: Red and Blue both have 1 farmer in Field 2. Both players score
    3 points per completed city (of which there are three: A, B and C). Thus, Red and Blue both
    score a total of 9 points for Field 2. Note: Cities A and B touch both Field 1 and Field 2
    ... The city in the lower left-hand corner is incomplete and is not worth any points. Field
    3: Yellow is the sole player to score Field 3 since he has more followers than Black. There
    are 4 completed cities touching Field 3, so Yellow scores 12 points.".

    Field 1: above the caps of A (D + E) and B (D + E). Field 2: the strip between the row of
    D tiles (cities: open one, A, B, C) and the road. Field 3: south of the road, four 2-tile
    cities; Yellow's two farmers and Black's one are joined by later tiles.
    """
    g = play(
        "D 1,0 field:ENE",  # Red, field 2
        "E 0,-1 r180 field:NNW",  # Blue, field 1 (closes city A)
        "I 0,1 r180",
        "E -1,1 r180 field:NNW",  # Black, field 3
        "K 0,2",
        "E 1,-1 r180",  # closes city B
        "B 1,2 field:NNW",  # Yellow, a part of field 3 not yet joined
        "J 2,2",
        "L -1,2",
        "D -1,0",  # the incomplete city of field 2
        "E 2,1 r180 field:NNW",  # Yellow, another unjoined part of field 3
        "B 3,1",
        "E 1,1 r270",  # joins field 3
        "D 3,0 field:ENE",  # Blue, a part of field 2 not yet joined
        "K 3,-1 r180",  # closes city C
        "U 2,0",  # joins field 2
        players=["Red", "Blue", "Yellow", "Black"],
    )
    by_seat = {(e.seat, e.points, e.cities) for e in g.points_events("farm")}
    assert by_seat == {(0, 9, 3), (1, 9, 3), (1, 6, 2), (2, 12, 4)}
    assert g.scores == [9, 15, 12, 0]


# ---------------------------------------------------------------- farms: S003, both scorings


@pytest.mark.parametrize(("rules", "expected"), [(ORIGINAL, [4, 0]), (MODERN, [3, 0])])
def test_s003_farm_example_1_complete_and_incomplete_city(
    rules: dict[str, str], expected: list[int]
) -> None:
    """S003 original farmer scoring: "Blue scores 4 points for the complete city. Blue scores no
    points for the incomplete city on the second tile from the left." Alternate scoring: "Most
    of the farmer scoring examples shown above work the same, except that reduced points are
    scored" (3).
    """
    g = play("D 1,0 field:ENE", "E 0,-1 r180", players=["Blue", "Red"], rules=rules)
    assert g.scores == expected


@pytest.mark.parametrize(("rules", "expected"), [(ORIGINAL, [8, 0]), (MODERN, [6, 0])])
def test_s003_farm_example_2_two_cities(rules: dict[str, str], expected: list[int]) -> None:
    """S003 original farmer scoring: "Blue scores 8 points." (two completed cities, 4 each);
    alternate scoring gives the reduced 3 per city.
    """
    g = play("D 1,0 field:ENE", "E 0,-1 r180", "E 1,-1 r180", players=["Blue", "Red"], rules=rules)
    assert g.scores == expected


@pytest.mark.parametrize(("rules", "expected"), [(ORIGINAL, [4, 0]), (MODERN, [6, 3])])
def test_s003_farm_example_3_original_vs_modern(rules: dict[str, str], expected: list[int]) -> None:
    """S003 original: "Blue scores 4 points and red scores nothing as blue has the most
    farmers." Alternate: "The third example scores differently, however. Blue scores 6 points
    for two farms and red scores 3 points for one farm. Each farm scores independently of the
    others." One city (D + T + two caps E) touches five separate farms; Blue has farmers in two
    of them (the T's little field and the east cap's field), Red in one (the west cap's).
    """
    g = play(
        "T 0,-1 r180 field:NNW",  # Blue
        "E -1,-1 r90 field:NNW",  # Red
        "E 1,-1 r270 field:NNW",  # Blue; closes the city
        players=["Blue", "Red"],
        rules=rules,
    )
    assert g.scores == expected


@pytest.mark.parametrize(("rules", "expected"), [(ORIGINAL, [8, 4]), (MODERN, [6, 3])])
def test_s003_farm_example_4_small_and_big_city(rules: dict[str, str], expected: list[int]) -> None:
    """S003 original: "For the small city, red and blue are tied and each score 4 points. For the
    big city, blue scores 4 points. Red has no farms adjacent to the big city." Alternate: the
    same with reduced points (Blue's farm supplies both cities: 6; Red's only the small: 3).
    Small city: D + E; big city: J + G + E; Blue's farm is the strip D–J between them.
    """
    g = play(
        "J 1,0 r90 field:NNW",  # Blue
        "E 0,-1 r180 field:NNW",  # Red; closes the small city
        "G 2,0",
        "E 3,0 r270",  # closes the big city
        players=["Blue", "Red"],
        rules=rules,
    )
    assert g.scores == expected


@pytest.mark.parametrize(("rules", "expected"), [(MODERN, [3, 0]), (ORIGINAL, [4, 0])])
def test_s003_two_farmers_beat_one_in_a_farm(rules: dict[str, str], expected: list[int]) -> None:
    """S003 alternate scoring: "The following examples demonstrates the scoring when more than one
    farmer is in a farm. Red scores 3 points for the farm, as he has two farmers compared to
    blue's single farmer." (Original: 4.) Red's two farmers and Blue's one are placed on three
    separate fields that the V and U tiles join; the farm supplies one completed city.
    """
    g = play(
        "I 0,1 r180 field:NNW",  # Red
        "E 1,1 r270 field:NNW",  # Blue; closes the city I(east cap) + E
        "G 0,2 r90 field:ENE",  # Red; diagonal to Blue's tile
        "V 1,2 r270",  # joins Blue's and Red's second field
        "U 1,0",  # joins the field south of D
        rules=rules,
    )
    assert g.scores == expected
    (farm,) = g.points_events("farm")
    assert farm.followers == (2, 1)


# ---------------------------------------------------------------- S003: the two-tile city


@pytest.mark.parametrize(("small_city", "expected"), [(True, 2), (False, 4)])
def test_s003_two_segment_city_scores_2(small_city: bool, expected: int) -> None:
    """S003 "Completed city": "Exception: When a completed city has just two segments, the player
    scores two points (not four). ... Red only scores 2 points for a 2 segment city". The rule
    is the ``small_city_two_points`` option; without it the city scores 4 (S000/S001).
    """
    g = play("E 0,-1 r180 city:S", rules={"small_city_two_points": small_city}, finished=False)
    assert g.scored("city") == [expected, 0]


def test_s003_three_tile_city_with_shield_still_scores_8() -> None:
    """S003 "Completed city": "Each shield on a city segment earns the player two bonus points
    ... Red scores 8 points" — the two-segment exception leaves bigger cities alone.
    """
    g = play(
        "M 0,-1 r180 city:S", "E 1,-1 r270", rules={"small_city_two_points": True}, finished=False
    )
    assert g.scored("city") == [8, 0]
