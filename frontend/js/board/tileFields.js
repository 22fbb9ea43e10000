/**
 * Fields of the tile art: follower anchors of field segments and the check that the art separates
 * exactly the fields the catalogue lists.
 *
 * The tile's barriers (cities, roads, buildings, an expansion's own: ``tileBarriers``) are rasterised on a canvas, flood-filled
 * from every half-edge, and each field's anchor is the point farthest from any barrier.
 * `checkFields` is used by the tile guide and the browser tests. Coordinates as in
 * ./tileGeometry.js.
 */

import {
  HALF_SEEDS, ROAD_OUTER, allTileTypes, halfIndex, pathString, rotPoint, sideIndex, tileType,
} from './tileGeometry.js';
import { withHook } from '../expansions/index.js';

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
  for (const r of plan.roads) {
    ctx.lineWidth = ROAD_OUTER;
    ctx.stroke(new Path2D(pathString(r.cmds, 0)));
  }
  const own = (layer) => { for (const x of withHook('tileBarriers')) x.tileBarriers(ctx, tile, layer); };
  own('over');
  if (plan.cloister) {
    const [x, y] = plan.cloister.at;
    ctx.fillRect(x - 14, y - 15, 28, 28);
  }
  if (plan.junction) ctx.fillRect(41, 41, 18, 18);
  own('top');
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
  for (const t of allTileTypes()) {
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
  const tile = tileType(tileId);
  if (!tile) return [50, 50];
  const seg = segmentForSpot(tile, spot, rotation);
  if (!seg) return [50, 50];
  let p = tile.plan.anchors[seg.index];
  if (!p) p = analyseFields(tile).anchors[seg.index];
  return rotPoint(p || [50, 50], rotation / 90);
}
