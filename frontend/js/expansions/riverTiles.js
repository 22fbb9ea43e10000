/**
 * The River's tiles on the board: the water, its spring and lake, the bridges where a road
 * crosses it, and a cloister on its bank (``tilePlan``, ``tileArt``, ``tileBarriers`` in
 * ``index.js``). Geometry as in ``../board/tileGeometry.js``: a 100 × 100 tile in catalogue
 * orientation, sides N=0 E=1 S=2 W=3, turned ``k`` quarter turns clockwise.
 */

import { ROAD_OUTER, lineCmds, pathString, rotPoint } from '../board/tileGeometry.js';
import { svgEl as el, roadsArt } from '../board/tiles.js';

export const RIVER_WIDTH = 17;

/** True when road segment ``s`` runs straight across the straight river segment ``river``. */
function crosses(s, river) {
  if (s.sideIdx.length !== 2 || river.sideIdx.length !== 2) return false;
  const straight = (ss) => (ss[0] + 2) % 4 === ss[1];
  return straight(s.sideIdx) && straight(river.sideIdx) && s.sideIdx[0] % 2 !== river.sideIdx[0] % 2;
}

/**
 * The river's parts of ``tile.plan``: ``rivers`` [{seg, cmds, sides}], ``pond`` (where a river
 * ends on the tile: the spring of the first river tile, else the lake), ``bridges`` (the roads
 * crossing the water, taken from ``plan.roads``: drawn over it, their followers off the bridge);
 * a cloister sits on the bank, away from the roads.
 */
export function tilePlan(tile) {
  const rivers = tile.segs.filter((s) => s.kind === 'river');
  if (!rivers.length) return;
  const { plan } = tile;
  plan.rivers = [];
  for (const s of rivers) {
    plan.rivers.push({ seg: s.index, cmds: lineCmds(s.sideIdx), sides: s.sideIdx });
    if (s.sides.length === 1) plan.pond = { at: [50, 50], lake: tile.id !== 'R1' };
  }
  plan.bridges = plan.roads.filter((r) => crosses(tile.segs[r.seg], rivers[0]));
  plan.roads = plan.roads.filter((r) => !plan.bridges.includes(r));
  for (const b of plan.bridges) {
    plan.anchors[b.seg] = rotPoint([22, 50], tile.segs[b.seg].sideIdx[0] % 2 === 1 ? 0 : 1);
  }
  if (plan.cloister) {
    const fieldSides = [0, 1, 2, 3].filter((s) => tile.edgesList[s] === 'F');
    const at = rotPoint([50, 25], fieldSides.length ? fieldSides[0] : 0);
    plan.cloister.at = at;
    plan.anchors[plan.cloister.seg] = at;
  }
}

/** The water over the cities, then the bridges over the water. */
export function tileArt(tile, k, layer) {
  const { plan } = tile;
  if (layer !== 'over' || !plan.rivers) return null;
  const R = (cmds) => pathString(cmds, k);
  const out = [];
  for (const r of plan.rivers) {
    out.push(el('path', { d: R(r.cmds), fill: 'none', stroke: '#2f6e9e',
      'stroke-width': RIVER_WIDTH + 2, 'stroke-linecap': 'butt' }));
    out.push(el('path', { d: R(r.cmds), fill: 'none', stroke: 'url(#grad-water)',
      'stroke-width': RIVER_WIDTH - 1, 'stroke-linecap': 'butt' }));
    out.push(el('path', { d: R(r.cmds), fill: 'none', stroke: '#bfe3f7',
      'stroke-width': 1.4, 'stroke-dasharray': '6 7', 'stroke-linecap': 'round', opacity: 0.9 }));
  }
  if (plan.pond) {
    const [px, py] = plan.pond.at;
    const lake = plan.pond.lake;
    out.push(el('ellipse', { cx: px, cy: py, rx: lake ? 21 : 12, ry: lake ? 16 : 10,
      fill: 'url(#grad-water)', stroke: '#2f6e9e', 'stroke-width': 2,
      transform: `rotate(${(k * 90) % 180} 50 50)` }));
    if (!lake) {
      // The spring: rocks around the source.
      for (const [dx, dy] of [[-11, -6], [-12, 5], [-3, 10], [2, -10]]) {
        const [rx, ry] = rotPoint([50 + dx, 50 + dy], k);
        out.push(el('circle', { cx: rx, cy: ry, r: 3.2, fill: '#9a9a90', stroke: '#6b6b62',
          'stroke-width': 0.8 }));
      }
    } else {
      out.push(el('ellipse', { cx: px - 4, cy: py - 3, rx: 7, ry: 3, fill: '#bfe3f7',
        opacity: 0.7 }));
    }
  }
  if (plan.bridges.length) {
    out.push(roadsArt(plan.bridges, k));
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
        out.push(el('line', { x1: a1, y1: b1, x2: a2, y2: b2, stroke: '#6b4a2b',
          'stroke-width': 2.4, 'stroke-linecap': 'round' }));
      }
    }
  }
  return out;
}

/** The bridges' roads, the water and the pond part the fields. */
export function tileBarriers(ctx, tile, layer) {
  const { plan } = tile;
  if (layer !== 'over' || !plan.rivers) return;
  for (const r of plan.bridges) {
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
}
