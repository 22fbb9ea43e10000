"""The worked example of docs/RECORD.md."""

from app.engine import replay

RECORD = {
    "format": "carcassonne-record/1",
    "rules": {
        "tileset": "base",
        "river": False,
        "farm_scoring": "modern",
        "small_city_two_points": False,
    },
    "players": ["Ann", "Ben"],
    "finished": True,
    "draw_order": ["V", "O", "P", "E", "X"],
    "moves": [
        {"tile": "V", "at": [1, 0], "rotation": 90, "follower": "road:W"},
        {"tile": "O", "at": [0, -1], "rotation": 180, "follower": "city:S"},
        {"tile": "P", "at": [1, -1], "rotation": 0, "follower": "field:SSW"},
        {"tile": "E", "at": [1, -2], "rotation": 180, "follower": None},
        {"tile": "X", "at": [2, -1], "rotation": 0, "follower": "road:N"},
    ],
    "result": {"scores": [8, 10]},
}


def test_record_md_example_replays_to_ann_8_ben_10() -> None:
    """record.md: Ann 8 (road 4, stub 1, farm 3), Ben 10 (city of 4 tiles, 1 pennant)."""
    state, _ = replay(RECORD)
    assert state.scores == [8, 10]
    assert state.winners == (1,)
