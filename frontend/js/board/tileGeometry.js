/**
 * Tile geometry from the catalogue (GET /api/catalogue): the drawing plan of every tile type.
 *
 * Every tile is drawn on a 100 × 100 square in *catalogue orientation*, then turned clockwise by
 * its rotation. Geometry comes only from the catalogue: the edge letters (N, E, S, W) and the
 * segments (city sides + pennants, road sides, cloister, field half-edges). Each feature is drawn
 * from a handful of canonical shapes (a city cap on one side, a city corner, a city band, a
 * three-sided city, a full city; straight and bent lines) turned to the sides it reaches; cities,
 * roads and cloisters get fixed follower anchors per shape (field anchors come from
 * ./tileFields.js). An expansion's own segment kinds and parts are planned by the expansion
 * (``tilePlan``, ../expansions/index.js), after the core planned the rest.
 *
 * Coordinates: x east, y south; sides N=0 E=1 S=2 W=3; half-edges NNW..WNW clockwise from the
 * north-west corner (see app/engine/tiles/__init__.py). Rotations are clockwise degrees.
 */

import { withHook } from '../expansions/index.js';

export const SIDES = ['N', 'E', 'S', 'W'];
export const HALVES = ['NNW', 'NNE', 'ENE', 'ESE', 'SSE', 'SSW', 'WSW', 'WNW'];

/** Points just inside each half-edge (catalogue orientation), used as flood-fill seeds. */
export const HALF_SEEDS = [[25, 1], [75, 1], [98, 25], [98, 75], [75, 98], [25, 98], [1, 75], [1, 25]];
/** Mid-points of the four sides. */
export const SIDE_MID = [[50, 0], [100, 50], [50, 100], [0, 50]];

export const ROAD_OUTER = 12;
export const ROAD_INNER = 7.5;

let catalogue = new Map();

/** Load the catalogue (the `tiles` array of GET /api/catalogue) and prepare every tile type. */
export function setCatalogue(tiles) {
  catalogue = new Map();
  for (const t of tiles) catalogue.set(t.id, prepare(t));
  return catalogue;
}

export function tileType(id) {
  return catalogue.get(id);
}

export function allTileTypes() {
  return [...catalogue.values()];
}

/** Turn point ``p`` by ``k`` quarter turns clockwise around the tile centre. */
export function rotPoint([x, y], k) {
  let px = x;
  let py = y;
  for (let i = 0; i < ((k % 4) + 4) % 4; i += 1) {
    const nx = 100 - py;
    py = px;
    px = nx;
  }
  return [px, py];
}

export const fmt = (n) => (Math.round(n * 100) / 100).toString();

/**
 * A tiny path builder: commands with points in canonical orientation, turned by ``k`` quarter
 * turns when serialised. ``cmds``: [["M", [x,y]], ["L", p], ["C", c1, c2, p], ["Q", c, p], ["Z"]].
 */
export function pathString(cmds, k) {
  return cmds
    .map(([op, ...pts]) => op + pts.map((p) => rotPoint(p, k).map(fmt).join(',')).join(' '))
    .join(' ');
}

// ---------------------------------------------------------------- canonical shapes

/** City shapes: {fill: cmds, walls: [cmds], anchor, pennant} in canonical orientation. */
function cityCap(depth) {
  const b = depth / 0.75;
  return {
    fill: [['M', [0, 0]], ['L', [100, 0]], ['C', [60, b], [40, b], [0, 0]], ['Z']],
    walls: [[['M', [100, 0]], ['C', [60, b], [40, b], [0, 0]]]],
    anchor: [50, depth * 0.45],
    pennant: [80, depth * 0.32],
  };
}

const CITY_CORNER = {
  // Sides N and W.
  fill: [['M', [0, 0]], ['L', [100, 0]], ['C', [58, 22], [22, 58], [0, 100]], ['Z']],
  walls: [[['M', [100, 0]], ['C', [58, 22], [22, 58], [0, 100]]]],
  anchor: [27, 27],
  pennant: [12, 13],
};

const CITY_BAND = {
  // Sides E and W.
  fill: [['M', [0, 0]], ['C', [40, 34], [60, 34], [100, 0]], ['L', [100, 100]],
    ['C', [60, 66], [40, 66], [0, 100]], ['Z']],
  walls: [
    [['M', [0, 0]], ['C', [40, 34], [60, 34], [100, 0]]],
    [['M', [100, 100]], ['C', [60, 66], [40, 66], [0, 100]]],
  ],
  anchor: [58, 50],
  pennant: [20, 50],
};

const CITY_THREE = {
  // Sides N, E and W (south open).
  fill: [['M', [0, 0]], ['L', [100, 0]], ['L', [100, 100]], ['C', [60, 60], [40, 60], [0, 100]],
    ['Z']],
  walls: [[['M', [100, 100]], ['C', [60, 60], [40, 60], [0, 100]]]],
  anchor: [50, 42],
  pennant: [50, 15],
};

const CITY_FULL = {
  fill: [['M', [0, 0]], ['L', [100, 0]], ['L', [100, 100]], ['L', [0, 100]], ['Z']],
  walls: [],
  anchor: [50, 56],
  pennant: [50, 22],
};

/** The shape and quarter turns for a city reaching ``sides`` (indices). */
function cityShape(sides, deep) {
  const set = new Set(sides);
  if (sides.length === 4) return { shape: CITY_FULL, k: 0 };
  if (sides.length === 3) {
    const missing = [0, 1, 2, 3].find((s) => !set.has(s));
    return { shape: CITY_THREE, k: (missing + 2) % 4 };
  }
  if (sides.length === 2) {
    const [a, b] = sides;
    if ((a + 2) % 4 === b) return { shape: CITY_BAND, k: a % 2 === 1 ? 0 : 1 };
    // Adjacent sides {s, s+1}: the canonical corner covers {W, N} = {3, 0}.
    const first = (b - a + 4) % 4 === 1 ? a : b;
    return { shape: CITY_CORNER, k: (first + 1) % 4 };
  }
  return { shape: cityCap(deep ? 46 : 26), k: sides[0] };
}

// ---------------------------------------------------------------- preparation

/** A cap whose two neighbouring half-edges belong to different fields must reach the middle of
 * the tile to keep them apart (R4: city, then river; TB-CR: city, then a road stub). */
function capIsDeep(s, fieldOfHalf) {
  if (s.sides.length !== 1) return false;
  const side = s.sideIdx[0];
  const left = fieldOfHalf[(2 * side + 7) % 8];
  const right = fieldOfHalf[(2 * side + 2) % 8];
  return left >= 0 && right >= 0 && left !== right;
}

/**
 * The path of a line (a road, or an expansion's line) reaching ``sides`` (indices): from one side
 * to the middle, straight across, or bent round the middle between two neighbouring sides.
 */
export function lineCmds(sides) {
  if (sides.length === 1) return [['M', [50, 0]], ['L', [50, 50]]].map(([op, p]) => [op, rotPoint(p, sides[0])]);
  const [a, b] = sides;
  if ((a + 2) % 4 === b) return [['M', SIDE_MID[a]], ['L', SIDE_MID[b]]];
  return [['M', SIDE_MID[a]], ['Q', [50, 50], SIDE_MID[b]]];
}

export function sideIndex(name) {
  return SIDES.indexOf(name);
}

export function halfIndex(name) {
  return HALVES.indexOf(name);
}

/**
 * Work out the drawing plan of a catalogue tile: shapes, road paths, buildings and follower
 * anchors; then every registered expansion adds its own (``tilePlan``). Returns the catalogue
 * entry extended with ``plan``.
 */
function prepare(entry) {
  const segs = entry.segments.map((s, i) => ({
    ...s,
    index: i,
    sideIdx: s.sides.map(sideIndex),
    halfIdx: s.halves.map(halfIndex),
  }));
  const edges = entry.edges.split('');
  const singleRoads = segs.filter((s) => s.kind === 'road' && s.sides.length === 1);
  const junction = singleRoads.length >= 3;
  // A tile of cities, roads and fields alone (no cloister, nothing of an expansion's own).
  const plain = segs.every((s) => ['city', 'road', 'field'].includes(s.kind));
  const fieldOfHalf = new Array(8).fill(-1);
  for (const s of segs) if (s.kind === 'field') for (const h of s.halfIdx) fieldOfHalf[h] = s.index;

  const plan = { cities: [], roads: [], cloister: null, junction: null, pennants: [], anchors: {} };

  for (const s of segs) {
    if (s.kind === 'city') {
      // A cap whose two neighbouring half-edges belong to different fields must reach the
      // middle of the tile to keep them apart (R4: city, then river).
      const { shape, k } = cityShape(s.sideIdx, capIsDeep(s, fieldOfHalf));
      plan.cities.push({ seg: s.index, fill: shape.fill, walls: shape.walls, k });
      plan.anchors[s.index] = rotPoint(shape.anchor, k);
      if (s.pennants) plan.pennants.push(rotPoint(shape.pennant, k));
    } else if (s.kind === 'road') {
      let cmds = lineCmds(s.sideIdx);
      let anchor;
      if (s.sides.length === 1) {
        const side = s.sideIdx[0];
        const city = segs.find((c) => c.kind === 'city');
        if (!junction && plain && city) {
          // A stub that ends at the city: it runs under the city's walls (S, T, and the
          // Wheel of Fortune's IC-CFR, IC-RCc, IC-CcR, TB-CR, KS-RC, KS-CRrR).
          const { shape, k } = cityShape(city.sideIdx, capIsDeep(city, fieldOfHalf));
          cmds = [['M', SIDE_MID[side]], ['L', [50, 50]], ['L', rotPoint(shape.anchor, k)]];
        }
        anchor = rotPoint([50, 17], side);
      } else {
        const [a, b] = s.sideIdx;
        const pa = SIDE_MID[a];
        const pb = SIDE_MID[b];
        anchor = (a + 2) % 4 === b ? [50, 50]
          : [0.25 * pa[0] + 0.5 * 50 + 0.25 * pb[0], 0.25 * pa[1] + 0.5 * 50 + 0.25 * pb[1]];
      }
      plan.roads.push({ seg: s.index, cmds });
      plan.anchors[s.index] = anchor;
    } else if (s.kind === 'cloister') {
      plan.cloister = { seg: s.index, at: [50, 50] };
      plan.anchors[s.index] = plan.cloister.at;
    }
  }
  if (junction) plan.junction = [50, 50];

  const tile = { ...entry, segs, plan, edgesList: edges };
  tile.fieldInfo = null; // filled lazily by analyseFields()
  for (const x of withHook('tilePlan')) x.tilePlan(tile);
  return tile;
}
