"""An independent, slow model of Carcassonne: Wheel of Fortune (RULES.md §6), for differential
tests against the engine.

It builds on :mod:`tests.engine.reference` (graph searches over the board, no union–find) and
shares nothing of the engine's Wheel of Fortune code or data: the board below is typed again
from RULES.md §6.2's per-cell table, the segments and crowns from §6.3, the pig, the six actions
and the crown scoring are written again from §6.4–§6.6, and the icon of a tile is read from its
id (``U.2`` carries ②, record.md). Only the land tiles' shapes come from the engine's catalogue
(their own transcription is checked in test_wheel_catalogue.py).
"""

from __future__ import annotations

from typing import Any

from .reference import HALF_NAMES, SIDE_NAMES, Node, Reference, Seg

#: RULES.md §6.2, the per-cell table as printed: cell | N | E | S | W | the eight half-edges.
BOARD_TABLE = """
(0,0) | C | inner | inner | F | cityA cityA farm1 w w farm1 farm1 farm1
(1,0) | F | inner | inner | inner | farm1 farm1 farm1 w w w w farm1
(2,0) | R | inner | inner | inner | farm1 farm2 farm2 w w w w farm1
(3,0) | F | F | inner | inner | farm2 farm2 farm2 farm2 farm2 w w farm2
(0,1) | inner | inner | inner | R | farm1 w w w w farm3 farm3 farm1
(3,1) | inner | F | inner | inner | w farm2 farm2 farm2 farm2 w w w
(0,2) | inner | inner | inner | F | farm3 w w w w farm3 farm3 farm3
(3,2) | inner | C | inner | inner | w farm2 cityB cityB farm2 w w w
(0,3) | inner | inner | C | C | farm3 w w farm3 cityC cityC cityC cityC
(1,3) | inner | inner | F | inner | w w w farm3 farm3 farm3 farm3 w
(2,3) | inner | inner | F | inner | w w w farm3 farm3 farm3 farm3 w
(3,3) | inner | F | R | inner | w farm2 farm2 farm2 farm2 farm3 farm3 w
(1,1) | inner | inner | inner | inner | w w w w w w w w
(2,1) | inner | inner | inner | inner | w w w w w w w w
(1,2) | inner | inner | inner | inner | w w w w w w w w
(2,2) | inner | inner | inner | inner | w w w w w w w w
"""
#: §6.2: "farm1 … touching cityA only; farm2 … cityB only; farm3 … cityC only".
SUPPLIES = {"farm1": "cityA", "farm2": "cityB", "farm3": "cityC"}
#: §6.3: clockwise from Fortune, with crown spaces.
WHEEL = [("fortune", 1), ("tax", 2), ("famine", 1), ("storm", 2), ("inquisition", 1), ("plague", 2)]


def board_cells() -> dict[tuple[int, int], tuple[str, list[Seg]]]:
    """The 16 board cells as (edge letters, segments), parsed from :data:`BOARD_TABLE`."""
    cells: dict[tuple[int, int], tuple[str, list[Seg]]] = {}
    for line in BOARD_TABLE.strip().splitlines():
        cell, n, e, s, w, halves = (part.strip() for part in line.split("|"))
        x, y = (int(v) for v in cell.strip("()").split(","))
        sides = [n, e, s, w]
        labels = halves.split()
        segs: list[Seg] = []
        city_side: dict[str, int] = {}
        for label in sorted({labels[2 * i] for i in range(4) if sides[i] == "C"}):
            on = frozenset(i for i in range(4) if sides[i] == "C" and labels[2 * i] == label)
            segs.append(Seg("city", on, frozenset(), 0, frozenset()))
            city_side[label] = min(on)
        for i in range(4):
            if sides[i] == "R":
                segs.append(Seg("road", frozenset({i}), frozenset(), 0, frozenset()))
        for farm in sorted({lab for lab in labels if lab.startswith("farm")}):
            halves_of = frozenset(h for h in range(8) if labels[h] == farm)
            city = SUPPLIES[farm]
            touches = frozenset({city_side[city]}) if city in city_side else frozenset()
            segs.append(Seg("field", frozenset(), halves_of, 0, touches))
        edges = "".join(side if side in "CRF" else "-" for side in sides)
        cells[(x, y)] = (edges, segs)
    return cells


def icon_of(tile: str) -> int:
    """The wheel icon of a tile id (``U.2`` → 2, ``U`` → 0)."""
    return int(tile.split(".")[1]) if "." in tile else 0


class WofReference(Reference):
    """A Wheel of Fortune game: the board, the pig, crown spaces, the six actions."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.board.clear()
        self.order.clear()
        for (x, y), (edges, segs) in board_cells().items():
            self.board[(x, y)] = (f"board{x}{y}", 0, edges, segs)
        self.pig = 0
        self.crowns: list[list[int]] = [[] for _ in WHEEL]

    def follower_spots(self, pos: tuple[int, int], seat: int) -> set[str]:
        """Land spots on the placed tile plus every free crown space (§6.4 step 2)."""
        out = super().follower_spots(pos, seat)
        if self.supply[seat]:
            out |= {
                f"crown:{name}"
                for (name, n), held in zip(WHEEL, self.crowns, strict=True)
                if len(held) < n
            }
        return out

    # ---------------------------------------------------------------- the wheel

    def groups(self, kind: str) -> list[tuple[set[Node], list[int]]]:
        """Features of ``kind`` holding followers, with followers per seat."""
        out: list[tuple[set[Node], list[int]]] = []
        for node in sorted(self.followers):
            if self.board[node[0]][3][node[1]].kind != kind or any(node in f for f, _ in out):
                continue
            nodes, _ = self.feature(node)
            counts = [0] * self.players
            for n in nodes:
                if n in self.followers:
                    counts[self.followers[n]] += 1
            out.append((nodes, counts))
        return out

    def completed_cities_of(self, farm: set[Node]) -> int:
        """Completed cities a farm supplies (each once)."""
        cities: set[frozenset[Node]] = set()
        for pos, i in farm:
            for side in self.board[pos][3][i].city_sides:
                nodes, closed = self.feature((pos, self.seg_on_side(pos, side)))
                if closed:
                    cities.add(frozenset(nodes))
        return len(cities)

    def spin(self, active: int, steps: int) -> str:
        """Move the pig and run the action of the segment it lands on (§6.4, §6.5); the crowns
        are scored by :meth:`score_crowns` (after the Plague's removals).
        """
        self.pig = (self.pig + steps) % len(WHEEL)
        name = WHEEL[self.pig][0]
        if name == "fortune":
            self.scores[active] += 3
        elif name == "tax":
            for nodes, counts in self.groups("city"):
                pennants = sum(self.board[p][3][j].pennants for p, j in nodes)
                for seat, k in enumerate(counts):
                    self.scores[seat] += k * (pennants + k)
        elif name == "famine":
            for nodes, counts in self.groups("field"):
                cities = self.completed_cities_of(nodes)
                for seat, k in enumerate(counts):
                    self.scores[seat] += k * cities
        elif name == "storm":
            for seat in range(self.players):
                self.scores[seat] += self.supply[seat]
        elif name == "inquisition":
            for node, seat in self.followers.items():
                if self.board[node[0]][3][node[1]].kind == "cloister":
                    self.scores[seat] += 2
        return name

    def plague(self, active: int, removals: list[dict[str, Any]]) -> None:
        """Each seat with a follower on land, from the active seat clockwise, takes one back,
        unscored (§6.5); checks the record's removals against that.
        """
        todo = list(removals)
        for k in range(self.players):
            seat = (active + k) % self.players
            mine = [n for n, s in self.followers.items() if s == seat]
            if not mine:
                continue
            item = todo.pop(0)
            assert item["seat"] == seat, (item, seat)
            pos = (item["at"][0], item["at"][1])
            node = (pos, self.spot_index(pos, item["follower"]))
            assert self.followers.get(node) == seat, item
            del self.followers[node]
            self.supply[seat] += 1
        assert not todo, todo

    def score_crowns(self) -> None:
        """§6.6: alone on one crown 3, alone on two 6, two followers 3 each; back to supply."""
        held = self.crowns[self.pig]
        each = 6 if len(held) == 1 and WHEEL[self.pig][1] == 2 else 3
        for seat in held:
            self.scores[seat] += each
            self.supply[seat] += 1
        self.crowns[self.pig] = []

    def deploy_crown(self, seat: int, segment: str) -> None:
        """A follower from supply onto a free crown space of ``segment``."""
        assert f"crown:{segment}" in self.follower_spots(self.order[-1], seat), segment
        self.crowns[[name for name, _ in WHEEL].index(segment)].append(seat)
        self.supply[seat] -= 1


def score_wof_record(doc: dict[str, Any]) -> list[list[int]]:
    """Replay a Wheel of Fortune record with the model, checking every move (tile, placement,
    follower, Plague removals, discards). Returns the scores after each record entry, then the
    final scores (after final scoring when ``finished``).
    """
    players = len(doc["players"])
    ref = WofReference(players)
    moves = list(doc["moves"])
    history: list[list[int]] = []
    seat = 0
    done = 0
    for tile in doc["draw_order"]:
        steps = icon_of(tile)
        landed = ref.spin(seat, steps) if steps else ""
        entry = moves[done] if done < len(moves) else None
        legal = ref.placements(tile)
        if landed == "plague" and ref.followers:
            if entry is None:
                break  # an unfinished record, stopped while this Plague is decided
            ref.plague(seat, list(entry.get("plague") or []))
        if steps:
            ref.score_crowns()
        if not legal:
            if landed == "plague":
                assert entry == {"discarded": tile, "plague": entry.get("plague")}, entry
                done += 1
                history.append(list(ref.scores))
            continue  # discarded; the same seat draws again
        if entry is None:
            break
        assert "discarded" not in entry, (done, entry)
        assert landed == "plague" or "plague" not in entry, entry
        done += 1
        x, y = entry["at"]
        assert entry["tile"] == tile, (done, entry, tile)
        assert (x, y, entry["rotation"]) in legal, (done, entry)
        ref.put(tile, x, y, entry["rotation"])
        follower = entry["follower"]
        if follower is not None and follower.startswith("crown:"):
            ref.deploy_crown(seat, follower[6:])
            follower = None
        ref.finish_turn(seat, follower)
        history.append(list(ref.scores))
        seat = (seat + 1) % players
    assert done == len(moves), (done, len(moves))
    if doc.get("finished", True):
        ref.final_scoring()
    history.append(list(ref.scores))
    return history


__all__ = ["HALF_NAMES", "SIDE_NAMES", "WofReference", "board_cells", "score_wof_record"]
