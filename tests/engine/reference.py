"""A slow, independent reference implementation of the rules, for differential tests.

It shares only the raw tile data with the engine (``TileType.edges`` and ``TileType.segments``,
the transcription of RULES.md §2 and §5.1): rotation, feature tracking (plain graph searches over
the board every time, no union–find, no frontier), placement legality, the River rules and all
scoring are written again from RULES.md, as directly as possible. Tests drive the engine and this
model side by side through random games and compare legal placements, legal follower spots,
discards and scores after every turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.engine.tiles import TILE_TYPES

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
HALF_NAMES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
DELTA = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
# RULES.md §1.2: my NNW meets the north tile's SSW, my NNE its SSE, my ENE the east tile's WNW...
MEETS = {0: 5, 1: 4, 2: 7, 3: 6, 4: 1, 5: 0, 6: 3, 7: 2}
RING = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]

Pos = tuple[int, int]
Node = tuple[Pos, int]  # (cell, segment index on that tile)


@dataclass(frozen=True)
class Seg:
    """A segment in board orientation."""

    kind: str  # city road river field cloister
    sides: frozenset[int]
    halves: frozenset[int]
    pennants: int
    city_sides: frozenset[int]  # for fields: sides of the city segments touched on this tile

    @property
    def spot(self) -> str:
        """Canonical follower spot: first side / half-edge clockwise from N / NNW."""
        if self.kind == "cloister":
            return "cloister"
        if self.kind == "field":
            return "field:" + HALF_NAMES[min(self.halves)]
        return f"{self.kind}:{SIDE_NAMES[min(self.sides)]}"

    def names(self) -> set[str]:
        """Every accepted spot name for this segment."""
        if self.kind == "cloister":
            return {"cloister"}
        if self.kind == "field":
            return {"field:" + HALF_NAMES[h] for h in self.halves}
        return {f"{self.kind}:{SIDE_NAMES[s]}" for s in self.sides}


def tile_segments(tile: str, rotation: int) -> tuple[str, list[Seg]]:
    """(edges N,E,S,W as letters, segments) of ``tile`` turned ``rotation`` degrees clockwise."""
    t = TILE_TYPES[tile]
    k = rotation // 90
    edges = ["?"] * 4
    for side, letter in enumerate(t.edges):
        edges[(side + k) % 4] = letter
    segs: list[Seg] = []
    for spec in t.segments:
        kind, _, rest = spec.partition(":")
        if kind == "cloister":
            segs.append(Seg(kind, frozenset(), frozenset(), 0, frozenset()))
        elif kind == "field":
            halves_text, _, cities_text = rest.partition(">")
            halves = frozenset((HALF_NAMES.index(h) + 2 * k) % 8 for h in halves_text.split())
            cities = frozenset((SIDE_NAMES.index(c) + k) % 4 for c in cities_text.split(",") if c)
            segs.append(Seg(kind, frozenset(), halves, 0, cities))
        else:
            sides = frozenset((SIDE_NAMES.index(c) + k) % 4 for c in rest if c != "+")
            segs.append(Seg(kind, sides, frozenset(), rest.count("+"), frozenset()))
    return "".join(edges), segs


class Reference:
    """One game's board, followers and scores, recomputed from scratch on every question."""

    def __init__(
        self,
        players: int,
        river: bool = False,
        farm_scoring: str = "modern",
        small_city: bool = False,
    ) -> None:
        self.players = players
        self.river = river
        self.farm_scoring = farm_scoring
        self.small_city = small_city
        self.board: dict[Pos, tuple[str, int, str, list[Seg]]] = {}
        self.order: list[Pos] = []
        self.followers: dict[Node, int] = {}
        self.supply = [7] * players
        self.scores = [0] * players
        self.put("R1" if river else "D", 0, 0, 0)

    # ---------------------------------------------------------------- geometry

    def put(self, tile: str, x: int, y: int, rotation: int) -> None:
        """Put a tile down without any check."""
        edges, segs = tile_segments(tile, rotation)
        self.board[(x, y)] = (tile, rotation, edges, segs)
        self.order.append((x, y))

    def seg_on_side(self, pos: Pos, side: int) -> int:
        """Index of the city/road/river segment reaching ``side`` of the tile at ``pos``."""
        for i, seg in enumerate(self.board[pos][3]):
            if side in seg.sides:
                return i
        raise AssertionError((pos, side))

    def seg_on_half(self, pos: Pos, half: int) -> int:
        """Index of the field segment owning half-edge ``half`` of the tile at ``pos``."""
        for i, seg in enumerate(self.board[pos][3]):
            if half in seg.halves:
                return i
        raise AssertionError((pos, half))

    def feature(self, start: Node) -> tuple[set[Node], bool]:
        """All segments joined to ``start`` and whether the feature is complete (closed).

        Roads, cities and rivers join across shared sides; fields across shared half-edges.
        Fields are never "complete" (returns False).
        """
        seen = {start}
        todo = [start]
        closed = True
        while todo:
            pos, i = todo.pop()
            seg = self.board[pos][3][i]
            links: list[Node] = []
            if seg.kind in ("city", "road", "river"):
                for side in seg.sides:
                    dx, dy = DELTA[side]
                    nb = (pos[0] + dx, pos[1] + dy)
                    if nb not in self.board:
                        closed = False
                        continue
                    links.append((nb, self.seg_on_side(nb, (side + 2) % 4)))
            elif seg.kind == "field":
                closed = False
                for half in seg.halves:
                    dx, dy = DELTA[half // 2]
                    nb = (pos[0] + dx, pos[1] + dy)
                    if nb in self.board:
                        links.append((nb, self.seg_on_half(nb, MEETS[half])))
            for node in links:
                if node not in seen:
                    seen.add(node)
                    todo.append(node)
        if self.board[start[0]][3][start[1]].kind == "cloister":
            closed = self.cloister_neighbours(start[0]) == 8
        return seen, closed

    def cloister_neighbours(self, pos: Pos) -> int:
        """Filled cells among the 8 around ``pos`` (diagonals included)."""
        return sum((pos[0] + dx, pos[1] + dy) in self.board for dx, dy in RING)

    # ---------------------------------------------------------------- placement

    def empty_neighbours(self) -> set[Pos]:
        """Empty cells sharing a full edge with a placed tile."""
        out: set[Pos] = set()
        for x, y in self.board:
            for dx, dy in DELTA.values():
                if (x + dx, y + dy) not in self.board:
                    out.add((x + dx, y + dy))
        return out

    def river_path(self) -> list[tuple[Pos, int, int]]:
        """The river from the spring: (cell, side entered, side left) per tile after the spring."""
        path: list[tuple[Pos, int, int]] = []
        pos: Pos = (0, 0)
        out_side = E
        while True:
            dx, dy = DELTA[out_side]
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt not in self.board:
                return path
            in_side = (out_side + 2) % 4
            river = [s for s in self.board[nxt][3] if s.kind == "river"]
            assert river and in_side in river[0].sides
            others = [s for s in river[0].sides if s != in_side]
            if not others:  # the lake
                path.append((nxt, in_side, -1))
                return path
            path.append((nxt, in_side, others[0]))
            pos, out_side = nxt, others[0]

    @staticmethod
    def bend(in_side: int, out_side: int) -> str:
        """'right', 'left' or '' for a river that enters through ``in_side``, leaves ``out``."""
        heading = (in_side + 2) % 4
        if out_side == (heading + 1) % 4:
            return "right"
        if out_side == (heading + 3) % 4:
            return "left"
        return ""

    def placements(self, tile: str) -> set[tuple[int, int, int]]:
        """Every legal (x, y, rotation) for ``tile`` (RULES.md §3.2b, §5.2)."""
        out: set[tuple[int, int, int]] = set()
        is_river = TILE_TYPES[tile].river
        river_end: tuple[Pos, int] | None = None
        last_bend = ""
        if is_river:
            if not self.river:
                return out
            path = self.river_path()
            if path and path[-1][2] == -1:
                return out  # the lake closed the river
            last_pos, last_out = (path[-1][0], path[-1][2]) if path else ((0, 0), E)
            dx, dy = DELTA[last_out]
            river_end = ((last_pos[0] + dx, last_pos[1] + dy), (last_out + 2) % 4)
            bends = [self.bend(i, o) for _, i, o in path if o >= 0]
            bends = [b for b in bends if b]
            last_bend = bends[-1] if bends else ""
        for x, y in self.empty_neighbours():
            if river_end is not None and (x, y) != river_end[0]:
                continue
            for rotation in (0, 90, 180, 270):
                edges, segs = tile_segments(tile, rotation)
                ok = True
                for side in range(4):
                    dx, dy = DELTA[side]
                    nb = self.board.get((x + dx, y + dy))
                    if nb is not None and nb[2][(side + 2) % 4] != edges[side]:
                        ok = False
                if not ok:
                    continue
                if river_end is not None:
                    river = next(s for s in segs if s.kind == "river")
                    if river_end[1] not in river.sides:
                        continue
                    others = [s for s in river.sides if s != river_end[1]]
                    if others and last_bend and self.bend(river_end[1], others[0]) == last_bend:
                        continue
                out.add((x, y, rotation))
        return out

    # ---------------------------------------------------------------- followers

    def follower_spots(self, pos: Pos, seat: int) -> set[str]:
        """Canonical spots on the tile at ``pos`` where ``seat`` may deploy (RULES.md §3.2d)."""
        if self.supply[seat] == 0:
            return set()
        out: set[str] = set()
        for i, seg in enumerate(self.board[pos][3]):
            if seg.kind == "river":
                continue
            nodes, _ = self.feature((pos, i))
            if not any(n in self.followers for n in nodes):
                out.add(seg.spot)
        return out

    def spot_index(self, pos: Pos, spot: str) -> int:
        """The segment a spot name refers to."""
        for i, seg in enumerate(self.board[pos][3]):
            if spot in seg.names() and seg.kind != "river":
                return i
        raise AssertionError(spot)

    # ---------------------------------------------------------------- scoring

    def majority(self, nodes: set[Node]) -> list[int]:
        """Seats with the most followers on ``nodes`` (ties all count); [] when none."""
        counts = [0] * self.players
        for n in nodes:
            if n in self.followers:
                counts[self.followers[n]] += 1
        top = max(counts)
        return [s for s, c in enumerate(counts) if c == top] if top else []

    def _return(self, nodes: set[Node]) -> None:
        for n in list(nodes):
            if n in self.followers:
                self.supply[self.followers.pop(n)] += 1

    def play_turn(
        self, seat: int, tile: str, x: int, y: int, rotation: int, spot: str | None
    ) -> None:
        """Place, deploy, score what the tile completed, return those followers."""
        self.put(tile, x, y, rotation)
        self.finish_turn(seat, spot)

    def finish_turn(self, seat: int, spot: str | None) -> None:
        """After :meth:`put`: deploy on the last tile, score what it completed, return those
        followers (RULES.md §3.2d–e).
        """
        pos = self.order[-1]
        x, y = pos
        if spot is not None:
            i = self.spot_index(pos, spot)
            assert spot.split(":")[0] in ("city", "road", "field", "cloister")
            assert self.board[pos][3][i].spot in self.follower_spots(pos, seat)
            self.followers[(pos, i)] = seat
            self.supply[seat] -= 1
        done: list[set[Node]] = []
        for i, seg in enumerate(self.board[pos][3]):
            if seg.kind not in ("city", "road"):
                continue
            nodes, closed = self.feature((pos, i))
            if not closed or any(nodes == d for d in done):
                continue
            done.append(nodes)
            tiles = {p for p, _ in nodes}
            if seg.kind == "road":
                points = len(tiles)
            else:
                pennants = sum(self.board[p][3][j].pennants for p, j in nodes)
                points = 2 * len(tiles) + 2 * pennants
                if self.small_city and len(tiles) == 2:
                    points = 2 + 2 * pennants
            for s in self.majority(nodes):
                self.scores[s] += points
            self._return(nodes)
        for dx, dy in [(0, 0)] + RING:
            cell = (x + dx, y + dy)
            if cell not in self.board:
                continue
            for i, seg in enumerate(self.board[cell][3]):
                if seg.kind == "cloister" and self.cloister_neighbours(cell) == 8:
                    node = (cell, i)
                    if node in self.followers:
                        self.scores[self.followers[node]] += 9
                        self._return({node})

    def final_scoring(self) -> None:
        """Incomplete roads, cities, cloisters, then farms (RULES.md §4.2–§4.4)."""
        scored: list[set[Node]] = []
        farms: list[set[Node]] = []
        for node in sorted(self.followers):
            if any(node in f for f in scored + farms):
                continue
            seg = self.board[node[0]][3][node[1]]
            nodes, _ = self.feature(node)
            if seg.kind == "field":
                farms.append(nodes)
                continue
            scored.append(nodes)
            tiles = {p for p, _ in nodes}
            if seg.kind == "road":
                points = len(tiles)
            elif seg.kind == "city":
                points = len(tiles) + sum(self.board[p][3][j].pennants for p, j in nodes)
            else:
                points = 1 + self.cloister_neighbours(node[0])
            for s in self.majority(nodes):
                self.scores[s] += points
        # Completed cities each farm supplies, as frozensets of nodes.
        supplied: list[set[frozenset[Node]]] = []
        for farm in farms:
            cities: set[frozenset[Node]] = set()
            for pos, i in farm:
                seg = self.board[pos][3][i]
                for side in seg.city_sides:
                    nodes, closed = self.feature((pos, self.seg_on_side(pos, side)))
                    if closed:
                        cities.add(frozenset(nodes))
            supplied.append(cities)
        if self.farm_scoring == "modern":
            for farm, cities in zip(farms, supplied, strict=True):
                for s in self.majority(farm):
                    self.scores[s] += 3 * len(cities)
        else:
            all_cities = set().union(*supplied) if supplied else set()
            for city in all_cities:
                around: set[Node] = set()
                for farm, cities in zip(farms, supplied, strict=True):
                    if city in cities:
                        around |= farm
                for s in self.majority(around):
                    self.scores[s] += 4


def score_record(doc: dict[str, Any]) -> list[int]:
    """Replay a ``carcassonne-record/1`` document (base game and River) with the reference
    model: discards found by its own exhaustive search, every move checked against its own
    legal placements and follower spots. Returns the scores (final scores if finished).
    """
    rules = doc.get("rules") or {}
    players = len(doc["players"])
    ref = Reference(
        players,
        river=bool(rules.get("river", False)),
        farm_scoring=rules.get("farm_scoring", "modern"),
        small_city=bool(rules.get("small_city_two_points", False)),
    )
    moves = list(doc["moves"])
    seat = 0
    done = 0
    for tile in doc["draw_order"]:
        legal = ref.placements(tile)
        if not legal:
            continue  # discarded; the same seat draws again
        if done == len(moves):
            break  # an unfinished record
        move = moves[done]
        done += 1
        x, y = move["at"]
        assert move["tile"] == tile, (done, move, tile)
        assert (x, y, move["rotation"]) in legal, (done, move)
        ref.play_turn(seat, tile, x, y, move["rotation"], move["follower"])
        seat = (seat + 1) % players
    assert done == len(moves)
    if doc.get("finished", True):
        ref.final_scoring()
    return ref.scores
