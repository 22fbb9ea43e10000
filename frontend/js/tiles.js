/**
 * Tile art drawn from the catalogue's geometry (GET /api/catalogue), as SVG.
 *
 * Every tile is drawn on a 100 × 100 square in *catalogue orientation*, then turned clockwise by
 * its rotation. Geometry comes only from the catalogue: the edge letters (N, E, S, W) and the
 * segments (city sides + pennants, road sides, river sides, cloister, field half-edges). Each
 * feature is drawn from a handful of canonical shapes (a city cap on one side, a city corner, a
 * city band, a three-sided city, a full city; straight and bent roads and rivers) turned to the
 * sides it reaches.
 *
 * Follower spots: cities, roads and cloisters have fixed anchor points per shape; field anchors
 * are found by rasterising the tile's barriers (cities, roads, river, buildings) on a canvas,
 * flood-filling from every half-edge and taking the point of each field farthest from any
 * barrier. The same flood fill checks that the art separates exactly the fields the catalogue
 * lists (see `checkFields`, used by the tile guide and the browser tests).
 *
 * Coordinates: x east, y south; sides N=0 E=1 S=2 W=3; half-edges NNW..WNW clockwise from the
 * north-west corner (see app/engine/tiles.py). Rotations are clockwise degrees.
 *
 * This module only draws; it never talks to the server.
 */

export const SIDES = ['N', 'E', 'S', 'W'];
export const HALVES = ['NNW', 'NNE', 'ENE', 'ESE', 'SSE', 'SSW', 'WSW', 'WNW'];
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Points just inside each half-edge (catalogue orientation), used as flood-fill seeds. */
const HALF_SEEDS = [[25, 1], [75, 1], [98, 25], [98, 75], [75, 98], [25, 98], [1, 75], [1, 25]];
/** Mid-points of the four sides. */
const SIDE_MID = [[50, 0], [100, 50], [50, 100], [0, 50]];

const ROAD_OUTER = 12;
const ROAD_INNER = 7.5;
const RIVER_WIDTH = 17;

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

const fmt = (n) => (Math.round(n * 100) / 100).toString();

/**
 * A tiny path builder: commands with points in canonical orientation, turned by ``k`` quarter
 * turns when serialised. ``cmds``: [["M", [x,y]], ["L", p], ["C", c1, c2, p], ["Q", c, p], ["Z"]].
 */
function pathString(cmds, k) {
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

/** Radius of the wheel on the board, in tile units: every half-edge RULES.md §6.2 marks as
 * wheel lies inside it, every board field's half-edge outside (the closest are 161 and 175). */
export const WHEEL_R = 168;

/** A cap whose two neighbouring half-edges belong to different fields must reach the middle of
 * the tile to keep them apart (R4: city, then river; TB-CR: city, then a road stub). */
function capIsDeep(s, fieldOfHalf) {
  if (s.sides.length !== 1) return false;
  const side = s.sideIdx[0];
  const left = fieldOfHalf[(2 * side + 7) % 8];
  const right = fieldOfHalf[(2 * side + 2) % 8];
  return left >= 0 && right >= 0 && left !== right;
}

/** From ``p`` towards the wheel's centre, to well inside the wheel, cut at the tile border. */
function towardsWheel(p, wheel) {
  const dx = wheel.cx - p[0];
  const dy = wheel.cy - p[1];
  const len = Math.hypot(dx, dy);
  let t = (len - wheel.r + 24) / len;
  for (const [v, d] of [[p[0], dx], [p[1], dy]]) {
    if (v + t * d < 0) t = Math.min(t, -v / d);
    if (v + t * d > 100) t = Math.min(t, (100 - v) / d);
  }
  return [p[0] + t * dx, p[1] + t * dy];
}

/** True when road segment ``s`` runs straight across a straight river (a bridge). */
function crossesRiver(s, segs) {
  if (s.kind !== 'road' || s.sideIdx.length !== 2) return false;
  const river = segs.find((r) => r.kind === 'river');
  if (!river || river.sideIdx.length !== 2) return false;
  const straight = (ss) => (ss[0] + 2) % 4 === ss[1];
  return straight(s.sideIdx) && straight(river.sideIdx) && s.sideIdx[0] % 2 !== river.sideIdx[0] % 2;
}

function sideIndex(name) {
  return SIDES.indexOf(name);
}

function halfIndex(name) {
  return HALVES.indexOf(name);
}

/**
 * Work out the drawing plan of a catalogue tile: shapes, road and river paths, buildings and
 * follower anchors. Returns the catalogue entry extended with ``plan``.
 */
function prepare(entry) {
  const segs = entry.segments.map((s, i) => ({
    ...s,
    index: i,
    sideIdx: s.sides.map(sideIndex),
    halfIdx: s.halves.map(halfIndex),
  }));
  const edges = entry.edges.split('');
  const hasRiver = segs.some((s) => s.kind === 'river');
  const cloister = segs.find((s) => s.kind === 'cloister');
  const singleRoads = segs.filter((s) => s.kind === 'road' && s.sides.length === 1);
  const junction = singleRoads.length >= 3;
  const fieldOfHalf = new Array(8).fill(-1);
  for (const s of segs) if (s.kind === 'field') for (const h of s.halfIdx) fieldOfHalf[h] = s.index;

  // The cloister sits in the middle, or on the bank of a river away from roads.
  let cloisterAt = [50, 50];
  if (cloister && hasRiver) {
    const fieldSides = [0, 1, 2, 3].filter((s) => edges[s] === 'F');
    const side = fieldSides.length ? fieldSides[0] : 0;
    cloisterAt = rotPoint([50, 25], side);
  }

  // A Wheel of Fortune board cell (``WHEEL-xy``): the wheel covers the middle of the 4 × 4
  // board, a disc round the board's centre in this cell's coordinates.
  const wheel = entry.board
    ? { cx: 200 - 100 * Number(entry.id[6]), cy: 200 - 100 * Number(entry.id[7]), r: WHEEL_R }
    : null;
  const plan = { cities: [], roads: [], bridges: [], rivers: [], cloister: null, junction: null,
    pennants: [], anchors: {}, wheel };

  for (const s of segs) {
    if (s.kind === 'city') {
      // A cap whose two neighbouring half-edges belong to different fields must reach the
      // middle of the tile to keep them apart (R4: city, then river).
      const { shape, k } = cityShape(s.sideIdx, capIsDeep(s, fieldOfHalf));
      plan.cities.push({ seg: s.index, fill: shape.fill, walls: shape.walls, k });
      plan.anchors[s.index] = rotPoint(shape.anchor, k);
      if (s.pennants) plan.pennants.push(rotPoint(shape.pennant, k));
    } else if (s.kind === 'road' || s.kind === 'river') {
      const isRiver = s.kind === 'river';
      let cmds;
      let anchor;
      if (s.sides.length === 1) {
        const side = s.sideIdx[0];
        const city = segs.find((c) => c.kind === 'city');
        if (wheel && !isRiver) {
          // A board road ends at the wheel: it runs from its side towards the wheel's centre
          // (inside the disc that covers the middle of the board), cut at the cell's border.
          cmds = [['M', SIDE_MID[side]], ['L', towardsWheel(SIDE_MID[side], wheel)]];
        } else if (!isRiver && !junction && !cloister && !hasRiver && city) {
          // A stub that ends at the city: it runs under the city's walls (S, T, and the
          // Wheel of Fortune's IC-CFR, IC-RCc, IC-CcR, TB-CR, KS-RC, KS-CRrR).
          const { shape, k } = cityShape(city.sideIdx, capIsDeep(city, fieldOfHalf));
          cmds = [['M', SIDE_MID[side]], ['L', [50, 50]], ['L', rotPoint(shape.anchor, k)]];
        } else {
          cmds = [['M', [50, 0]], ['L', [50, 50]]].map(([op, p]) => [op, rotPoint(p, side)]);
        }
        anchor = rotPoint([50, 17], side);
        // A river that ends on the tile: the spring (the first river tile) or the lake.
        if (isRiver) plan.pond = { at: [50, 50], lake: entry.id !== 'R1' };
      } else {
        const [a, b] = s.sideIdx;
        const pa = SIDE_MID[a];
        const pb = SIDE_MID[b];
        if ((a + 2) % 4 === b) {
          cmds = [['M', pa], ['L', pb]];
          // A road crossing a river keeps its follower off the bridge.
          anchor = !isRiver && crossesRiver(s, segs) ? rotPoint([22, 50], a % 2 === 1 ? 0 : 1)
            : [50, 50];
        } else {
          cmds = [['M', pa], ['Q', [50, 50], pb]];
          anchor = [0.25 * pa[0] + 0.5 * 50 + 0.25 * pb[0], 0.25 * pa[1] + 0.5 * 50 + 0.25 * pb[1]];
        }
      }
      if (isRiver) plan.rivers.push({ seg: s.index, cmds, sides: s.sideIdx });
      else if (crossesRiver(s, segs)) plan.bridges.push({ seg: s.index, cmds });
      else plan.roads.push({ seg: s.index, cmds });
      if (!isRiver) plan.anchors[s.index] = anchor;
    } else if (s.kind === 'cloister') {
      plan.cloister = { seg: s.index, at: cloisterAt };
      plan.anchors[s.index] = cloisterAt;
    }
  }
  if (junction) plan.junction = [50, 50];

  const tile = { ...entry, segs, plan, edgesList: edges };
  tile.fieldInfo = null; // filled lazily by analyseFields()
  return tile;
}

// ---------------------------------------------------------------- raster analysis

/** Draw the barriers of a tile (catalogue orientation) on a 2D canvas context at 1 px/unit. */
function drawBarriers(ctx, tile, scale) {
  const { plan } = tile;
  ctx.save();
  ctx.scale(scale, scale);
  ctx.fillStyle = '#000';
  ctx.strokeStyle = '#000';
  for (const c of plan.cities) ctx.fill(new Path2D(pathString(c.fill, c.k)));
  ctx.lineCap = 'butt';
  for (const r of [...plan.roads, ...plan.bridges]) {
    ctx.lineWidth = ROAD_OUTER;
    ctx.stroke(new Path2D(pathString(r.cmds, 0)));
  }
  for (const r of plan.rivers) {
    ctx.lineWidth = RIVER_WIDTH;
    ctx.stroke(new Path2D(pathString(r.cmds, 0)));
  }
  if (plan.pond) {
    ctx.beginPath();
    ctx.ellipse(50, 50, plan.pond.lake ? 20 : 12, plan.pond.lake ? 15 : 10, 0, 0, Math.PI * 2);
    ctx.fill();
  }
  if (plan.cloister) {
    const [x, y] = plan.cloister.at;
    ctx.fillRect(x - 14, y - 15, 28, 28);
  }
  if (plan.junction) ctx.fillRect(41, 41, 18, 18);
  if (plan.wheel) {
    ctx.beginPath();
    ctx.arc(plan.wheel.cx, plan.wheel.cy, plan.wheel.r, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/**
 * Flood-fill the tile's open ground from each half-edge. Returns {labels: Int32Array(R*R),
 * fieldOfLabel: Map(label → segment index | -2 for "several"), halfLabel: [8 labels],
 * mismatches: [strings], anchors: {segment index: [x, y]}} (anchors in catalogue orientation).
 */
export function analyseFields(tile) {
  if (tile.fieldInfo) return tile.fieldInfo;
  const R = 100;
  const canvas = document.createElement('canvas');
  canvas.width = R;
  canvas.height = R;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, R, R);
  drawBarriers(ctx, tile, R / 100);
  // Other follower spots count as barriers for field anchors so targets do not overlap.
  const data = ctx.getImageData(0, 0, R, R).data;
  const blocked = new Uint8Array(R * R);
  for (let i = 0; i < R * R; i += 1) blocked[i] = data[i * 4] < 160 ? 1 : 0;

  const labels = new Int32Array(R * R).fill(-1);
  const halfLabel = new Array(8).fill(-1);
  let next = 0;
  const queue = new Int32Array(R * R);
  const fill = (sx, sy) => {
    const start = sy * R + sx;
    if (blocked[start]) return -1;
    if (labels[start] >= 0) return labels[start];
    const label = next;
    next += 1;
    let head = 0;
    let tail = 0;
    queue[tail] = start;
    tail += 1;
    labels[start] = label;
    while (head < tail) {
      const p = queue[head];
      head += 1;
      const x = p % R;
      const y = (p - x) / R;
      const nbs = [x > 0 ? p - 1 : -1, x < R - 1 ? p + 1 : -1, y > 0 ? p - R : -1,
        y < R - 1 ? p + R : -1];
      for (const q of nbs) {
        if (q >= 0 && !blocked[q] && labels[q] < 0) {
          labels[q] = label;
          queue[tail] = q;
          tail += 1;
        }
      }
    }
    return label;
  };
  for (let h = 0; h < 8; h += 1) {
    const [x, y] = HALF_SEEDS[h];
    halfLabel[h] = fill(Math.min(R - 1, Math.round((x * R) / 100)),
      Math.min(R - 1, Math.round((y * R) / 100)));
  }

  const mismatches = [];
  const fieldSegs = tile.segs.filter((s) => s.kind === 'field');
  const labelOwner = new Map();
  for (const f of fieldSegs) {
    const ls = new Set(f.halfIdx.map((h) => halfLabel[h]));
    if (ls.has(-1)) mismatches.push(`${f.name}: a half-edge is covered by a barrier`);
    if (ls.size > 1) mismatches.push(`${f.name}: drawn as ${ls.size} separate fields`);
    for (const l of ls) {
      if (l < 0) continue;
      if (labelOwner.has(l) && labelOwner.get(l) !== f.index) {
        mismatches.push(`${f.name} and ${tile.segs[labelOwner.get(l)].name} are drawn joined`);
      }
      labelOwner.set(l, f.index);
    }
  }

  // Distance from barriers (and, more weakly, from the tile border and other anchors).
  const dist = new Float32Array(R * R).fill(1e9);
  const others = Object.values(tile.plan.anchors);
  for (let y = 0; y < R; y += 1) {
    for (let x = 0; x < R; x += 1) {
      const i = y * R + x;
      if (blocked[i]) {
        dist[i] = 0;
        continue;
      }
      const border = Math.min(x, y, R - 1 - x, R - 1 - y) + 5;
      let d = border;
      for (const [ax, ay] of others) d = Math.min(d, Math.hypot(x - ax, y - ay) - 8);
      dist[i] = d;
    }
  }
  // Two-pass chamfer transform for the barrier distance.
  const D1 = 1;
  const D2 = Math.SQRT2;
  for (let y = 0; y < R; y += 1) {
    for (let x = 0; x < R; x += 1) {
      const i = y * R + x;
      if (x > 0) dist[i] = Math.min(dist[i], dist[i - 1] + D1);
      if (y > 0) dist[i] = Math.min(dist[i], dist[i - R] + D1);
      if (x > 0 && y > 0) dist[i] = Math.min(dist[i], dist[i - R - 1] + D2);
      if (x < R - 1 && y > 0) dist[i] = Math.min(dist[i], dist[i - R + 1] + D2);
    }
  }
  for (let y = R - 1; y >= 0; y -= 1) {
    for (let x = R - 1; x >= 0; x -= 1) {
      const i = y * R + x;
      if (x < R - 1) dist[i] = Math.min(dist[i], dist[i + 1] + D1);
      if (y < R - 1) dist[i] = Math.min(dist[i], dist[i + R] + D1);
      if (x < R - 1 && y < R - 1) dist[i] = Math.min(dist[i], dist[i + R + 1] + D2);
      if (x > 0 && y < R - 1) dist[i] = Math.min(dist[i], dist[i + R - 1] + D2);
    }
  }
  const anchors = {};
  for (const f of fieldSegs) {
    const mine = new Set(f.halfIdx.map((h) => halfLabel[h]).filter((l) => l >= 0));
    let best = -1;
    let bestD = -Infinity;
    for (let i = 0; i < R * R; i += 1) {
      if (mine.has(labels[i]) && dist[i] > bestD) {
        bestD = dist[i];
        best = i;
      }
    }
    if (best >= 0) anchors[f.index] = [((best % R) + 0.5) * (100 / R), (Math.floor(best / R) + 0.5) * (100 / R)];
    else {
      // Fall back to the average of the half-edge seeds.
      const pts = f.halfIdx.map((h) => HALF_SEEDS[h]);
      anchors[f.index] = [pts.reduce((a, p) => a + p[0], 0) / pts.length,
        pts.reduce((a, p) => a + p[1], 0) / pts.length];
    }
  }
  tile.fieldInfo = { mismatches, anchors, halfLabel };
  return tile.fieldInfo;
}

/** Every mismatch between the art and the catalogue's fields, over all tile types. */
export function checkFields() {
  const out = {};
  for (const t of catalogue.values()) {
    const { mismatches } = analyseFields(t);
    if (mismatches.length) out[t.id] = mismatches;
  }
  return out;
}

// ---------------------------------------------------------------- spots

/** The catalogue segment a board-orientation spot names, for a tile turned ``rotation``. */
export function segmentForSpot(tile, spot, rotation) {
  const k = rotation / 90;
  if (spot === 'cloister') return tile.segs.find((s) => s.kind === 'cloister');
  const [kind, where] = spot.split(':');
  if (kind === 'field') {
    const h = (halfIndex(where) - 2 * k + 16) % 8;
    return tile.segs.find((s) => s.kind === 'field' && s.halfIdx.includes(h));
  }
  const side = (sideIndex(where) - k + 8) % 4;
  return tile.segs.find((s) => s.kind === kind && s.sideIdx.includes(side));
}

/** Where a follower on ``spot`` stands, in tile units (0..100), board orientation. */
export function spotPoint(tileId, spot, rotation) {
  const tile = catalogue.get(tileId);
  if (!tile) return [50, 50];
  const seg = segmentForSpot(tile, spot, rotation);
  if (!seg) return [50, 50];
  let p = tile.plan.anchors[seg.index];
  if (!p) p = analyseFields(tile).anchors[seg.index];
  return rotPoint(p || [50, 50], rotation / 90);
}

// ---------------------------------------------------------------- SVG

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const c of children) if (c) node.appendChild(c);
  return node;
}

export { el as svgEl };

/** Shared <defs>: textures for fields and cities, drop shadow. Insert once per document. */
export function ensureDefs() {
  if (document.getElementById('carc-defs')) return;
  const svg = el('svg', { id: 'carc-defs', width: 0, height: 0, 'aria-hidden': 'true' });
  svg.style.position = 'absolute';
  svg.innerHTML = `
    <defs>
      <pattern id="pat-grass" width="22" height="22" patternUnits="userSpaceOnUse">
        <rect width="22" height="22" fill="#8fbf5a"/>
        <path d="M3 6 l1.5 -3 M5 7 l0.5 -3.2 M14 16 l1.5 -3 M16 17 l0.5 -3.2 M18 5 l-1 -2.6"
              stroke="#76a846" stroke-width="1.1" stroke-linecap="round"/>
        <circle cx="10" cy="11" r="0.9" fill="#a9d173"/>
        <circle cx="20" cy="19" r="0.8" fill="#a9d173"/>
      </pattern>
      <pattern id="pat-city" width="24" height="20" patternUnits="userSpaceOnUse">
        <rect width="24" height="20" fill="#e4c993"/>
        <rect x="2" y="5.5" width="7" height="5" fill="#f3e4c0" stroke="#a7885a" stroke-width="0.5"/>
        <path d="M1.2,6 L5.5,2.2 L9.8,6 Z" fill="#c4623f"/>
        <rect x="14" y="15" width="7" height="5" fill="#f3e4c0" stroke="#a7885a" stroke-width="0.5"/>
        <path d="M13.2,15.5 L17.5,11.7 L21.8,15.5 Z" fill="#b55536"/>
        <rect x="15" y="3" width="5" height="4" fill="#eddcb4" stroke="#a7885a" stroke-width="0.4"/>
        <path d="M14.4,3.4 L17.5,1 L20.6,3.4 Z" fill="#9e4d33"/>
        <rect x="3" y="15" width="5" height="3.6" fill="#eddcb4" stroke="#a7885a" stroke-width="0.4"/>
        <path d="M2.4,15.3 L5.5,13 L8.6,15.3 Z" fill="#a95236"/>
      </pattern>
      <linearGradient id="grad-water" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#5db2e6"/><stop offset="1" stop-color="#3d8ccc"/>
      </linearGradient>
      <filter id="f-shadow" x="-30%" y="-30%" width="160%" height="160%">
        <feDropShadow dx="0" dy="1.5" stdDeviation="1.6" flood-color="#000" flood-opacity="0.45"/>
      </filter>
      <filter id="f-glow" x="-50%" y="-50%" width="200%" height="200%">
        <feGaussianBlur stdDeviation="4" result="b"/>
        <feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge>
      </filter>
    </defs>`;
  document.body.prepend(svg);
}

function shieldPath(x, y, s = 1) {
  const w = 7 * s;
  const h = 9 * s;
  return `M${fmt(x - w)},${fmt(y - h)} L${fmt(x + w)},${fmt(y - h)} L${fmt(x + w)},${fmt(y)} ` +
    `Q${fmt(x + w)},${fmt(y + h * 0.75)} ${fmt(x)},${fmt(y + h)} ` +
    `Q${fmt(x - w)},${fmt(y + h * 0.75)} ${fmt(x - w)},${fmt(y)} Z`;
}

const ICON_COLOURS = { 1: '#c8412b', 2: '#2f6fc8', 3: '#7a4aa8' };

/**
 * A <g> with the art of ``tileId`` turned ``rotation`` degrees, in a 0..100 box. Decorations
 * (cloister, pennant shields, houses) stay upright; the landscape turns.
 */
export function tileArt(tileId, rotation = 0) {
  const tile = catalogue.get(tileId);
  const k = (rotation / 90) % 4;
  const g = el('g', { class: 'tile-art', 'data-art': tileId });
  g.appendChild(el('rect', { x: 0, y: 0, width: 100, height: 100, fill: 'url(#pat-grass)' }));
  if (!tile) {
    g.appendChild(el('text', { x: 50, y: 56, 'text-anchor': 'middle', 'font-size': 20 }, []))
      .textContent = tileId;
    return g;
  }
  const { plan } = tile;
  const R = (cmds) => pathString(cmds, k);
  // Roads under everything they end in; rivers over cities; bridges over rivers.
  const roadGroup = (list) => {
    const rg = el('g', { class: 'roads' });
    for (const r of list) {
      rg.appendChild(el('path', { d: R(r.cmds), fill: 'none', stroke: '#8a7656',
        'stroke-width': ROAD_OUTER, 'stroke-linecap': 'butt' }));
      rg.appendChild(el('path', { d: R(r.cmds), fill: 'none', stroke: '#f3ead2',
        'stroke-width': ROAD_INNER, 'stroke-linecap': 'butt' }));
      rg.appendChild(el('path', { d: R(r.cmds), fill: 'none', stroke: '#e1d3b0',
        'stroke-width': 1.2, 'stroke-dasharray': '3 5', 'stroke-linecap': 'butt' }));
    }
    return rg;
  };
  g.appendChild(roadGroup(plan.roads));
  if (plan.wheel) {
    // The wheel's rim over the board cell (wheel.js paints the wheel itself on top).
    const [cx, cy] = rotPoint([plan.wheel.cx, plan.wheel.cy], k);
    g.appendChild(el('circle', { class: 'wheel-ground', cx, cy, r: plan.wheel.r,
      fill: '#d8c79c', stroke: '#7a5f3a', 'stroke-width': 3 }));
  }
  for (const c of plan.cities) {
    const kk = (c.k + k) % 4;
    g.appendChild(el('path', { d: pathString(c.fill, kk), fill: 'url(#pat-city)' }));
    for (const w of c.walls) {
      // The wall: a dark outline, pale stone, then battlements.
      g.appendChild(el('path', { d: pathString(w, kk), fill: 'none', stroke: '#5e4a33',
        'stroke-width': 6.4, 'stroke-linecap': 'round' }));
      g.appendChild(el('path', { d: pathString(w, kk), fill: 'none', stroke: '#cdb98f',
        'stroke-width': 3.6, 'stroke-linecap': 'round' }));
      g.appendChild(el('path', { d: pathString(w, kk), fill: 'none', stroke: '#8d7654',
        'stroke-width': 3.6, 'stroke-dasharray': '3.2 2.4', 'stroke-linecap': 'butt' }));
    }
  }
  for (const r of plan.rivers) {
    g.appendChild(el('path', { d: R(r.cmds), fill: 'none', stroke: '#2f6e9e',
      'stroke-width': RIVER_WIDTH + 2, 'stroke-linecap': 'butt' }));
    g.appendChild(el('path', { d: R(r.cmds), fill: 'none', stroke: 'url(#grad-water)',
      'stroke-width': RIVER_WIDTH - 1, 'stroke-linecap': 'butt' }));
    g.appendChild(el('path', { d: R(r.cmds), fill: 'none', stroke: '#bfe3f7',
      'stroke-width': 1.4, 'stroke-dasharray': '6 7', 'stroke-linecap': 'round', opacity: 0.9 }));
  }
  if (plan.pond) {
    const [px, py] = plan.pond.at;
    const lake = plan.pond.lake;
    g.appendChild(el('ellipse', { cx: px, cy: py, rx: lake ? 21 : 12, ry: lake ? 16 : 10,
      fill: 'url(#grad-water)', stroke: '#2f6e9e', 'stroke-width': 2,
      transform: `rotate(${(k * 90) % 180} 50 50)` }));
    if (!lake) {
      // The spring: rocks around the source.
      for (const [dx, dy] of [[-11, -6], [-12, 5], [-3, 10], [2, -10]]) {
        const [rx, ry] = rotPoint([50 + dx, 50 + dy], k);
        g.appendChild(el('circle', { cx: rx, cy: ry, r: 3.2, fill: '#9a9a90', stroke: '#6b6b62',
          'stroke-width': 0.8 }));
      }
    } else {
      g.appendChild(el('ellipse', { cx: px - 4, cy: py - 3, rx: 7, ry: 3, fill: '#bfe3f7',
        opacity: 0.7 }));
    }
  }
  if (plan.bridges.length) {
    g.appendChild(roadGroup(plan.bridges));
    for (let i = 0; i < plan.bridges.length; i += 1) {
      // Railings where the road crosses the water.
      const river = plan.rivers[0];
      if (!river) continue;
      const vertical = river.sides.includes(0) || river.sides.includes(2);
      const horizontalRiver = !vertical;
      const [cx, cy] = [50, 50];
      const rails = horizontalRiver
        ? [[cx - 7.5, cy - 11, cx - 7.5, cy + 11], [cx + 7.5, cy - 11, cx + 7.5, cy + 11]]
        : [[cx - 11, cy - 7.5, cx + 11, cy - 7.5], [cx - 11, cy + 7.5, cx + 11, cy + 7.5]];
      for (const [x1, y1, x2, y2] of rails) {
        const [a1, b1] = rotPoint([x1, y1], k);
        const [a2, b2] = rotPoint([x2, y2], k);
        g.appendChild(el('line', { x1: a1, y1: b1, x2: a2, y2: b2, stroke: '#6b4a2b',
          'stroke-width': 2.4, 'stroke-linecap': 'round' }));
      }
    }
  }
  if (plan.junction) {
    const [x, y] = plan.junction;
    g.appendChild(house(x, y, 1));
  }
  if (plan.cloister) {
    const [x, y] = rotPoint(plan.cloister.at, k);
    g.appendChild(cloisterArt(x, y));
  }
  for (const p of plan.pennants) {
    const [x, y] = rotPoint(p, k);
    const sg = el('g', { class: 'pennant' });
    sg.appendChild(el('path', { d: shieldPath(x, y), fill: '#2c57a0', stroke: '#f5f0e0',
      'stroke-width': 1.6 }));
    sg.appendChild(el('path', { d: `M${x - 4},${y - 5} L${x},${y + 1} L${x + 4},${y - 5}`,
      fill: 'none', stroke: '#f5f0e0', 'stroke-width': 1.8 }));
    g.appendChild(sg);
  }
  if (tile.icon) {
    // The Wheel of Fortune icon: a little coloured wheel with its number, always upright.
    const [x, y] = [86, 86];
    const ig = el('g', { class: 'wheel-icon', 'data-icon': tile.icon,
      transform: `translate(${x},${y})` });
    ig.appendChild(el('circle', { r: 9.5, fill: ICON_COLOURS[tile.icon] || '#999', stroke: '#fff',
      'stroke-width': 1.8 }));
    for (let i = 0; i < 6; i += 1) {
      const a = (i * Math.PI) / 3;
      ig.appendChild(el('line', { x1: fmt(6.3 * Math.cos(a)), y1: fmt(6.3 * Math.sin(a)),
        x2: fmt(9.2 * Math.cos(a)), y2: fmt(9.2 * Math.sin(a)), stroke: 'rgba(255,255,255,0.75)',
        'stroke-width': 1.3 }));
    }
    const t = el('text', { y: 4, 'text-anchor': 'middle', 'font-size': 11.5, 'font-weight': 800,
      fill: '#fff' });
    t.textContent = String(tile.icon);
    ig.appendChild(t);
    const title = el('title');
    title.textContent = `Wheel icon ${tile.icon}: the pig moves ${tile.icon} segment${tile.icon > 1 ? 's' : ''}`;
    ig.appendChild(title);
    g.appendChild(ig);
  }
  return g;
}

function house(x, y, s) {
  const g = el('g', { class: 'house' });
  g.appendChild(el('rect', { x: x - 7 * s, y: y - 3 * s, width: 14 * s, height: 10 * s,
    fill: '#efe2c4', stroke: '#6d5234', 'stroke-width': 1.2 }));
  g.appendChild(el('path', { d: `M${x - 9 * s},${y - 2 * s} L${x},${y - 10 * s} L${x + 9 * s},${y - 2 * s} Z`,
    fill: '#b4483a', stroke: '#6d3426', 'stroke-width': 1.1 }));
  g.appendChild(el('rect', { x: x - 2 * s, y: y + 2 * s, width: 4 * s, height: 5 * s,
    fill: '#6d5234' }));
  return g;
}

function cloisterArt(x, y) {
  const g = el('g', { class: 'cloister' });
  // Garden wall, church, tower with a cross.
  g.appendChild(el('rect', { x: x - 15, y: y - 13, width: 30, height: 27, rx: 4,
    fill: '#a9c97e', stroke: '#7d8f5a', 'stroke-width': 1.2 }));
  g.appendChild(el('rect', { x: x - 11, y: y - 3, width: 18, height: 13, fill: '#f1e6cc',
    stroke: '#6d5234', 'stroke-width': 1.2 }));
  g.appendChild(el('path', { d: `M${x - 13},${y - 2} L${x - 2},${y - 11} L${x + 9},${y - 2} Z`,
    fill: '#b4483a', stroke: '#6d3426', 'stroke-width': 1.1 }));
  g.appendChild(el('rect', { x: x + 5, y: y - 9, width: 6, height: 19, fill: '#e9dcc0',
    stroke: '#6d5234', 'stroke-width': 1.1 }));
  g.appendChild(el('path', { d: `M${x + 8},${y - 16} v6 M${x + 5.5},${y - 13.5} h5`,
    stroke: '#5a3d22', 'stroke-width': 1.5 }));
  g.appendChild(el('path', { d: `M${x - 4},${y + 10} v-5 a2 2 0 0 1 4 0 v5 Z`, fill: '#6d5234' }));
  return g;
}

/** A standalone <svg> showing one tile (for the tray, the tile guide, previews). */
export function tileSvg(tileId, rotation = 0, size = 96, extraClass = '') {
  ensureDefs();
  const svg = el('svg', { viewBox: '-2 -2 104 104', width: size, height: size,
    class: `tile-svg ${extraClass}`.trim(), role: 'img', 'aria-label': `Tile ${tileId}` });
  svg.appendChild(tileArt(tileId, rotation));
  svg.appendChild(el('rect', { x: 0, y: 0, width: 100, height: 100, fill: 'none',
    stroke: 'rgba(40,30,15,0.55)', 'stroke-width': 1.5 }));
  return svg;
}
