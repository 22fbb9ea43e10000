/**
 * The Wheel of Fortune's tiles: the board's cells ``WHEEL-xy`` (their roads end at the wheel, and
 * the wheel's ground covers the middle of the 4 × 4 board) and the wheel icon of a tile that
 * turns the wheel (``tilePlan``, ``tileArt``, ``tileBarriers`` in ``index.js``). The wheel
 * itself, its crowns and the pig are drawn over the board by ``wheelView.js``. Geometry as in
 * ``../board/tileGeometry.js``.
 */

import { SIDE_MID, fmt, rotPoint } from '../board/tileGeometry.js';
import { svgEl as el } from '../board/tiles.js';
import { t } from '../i18n.js';

/** Radius of the wheel on the board, in tile units: every half-edge RULES.md §6.2 marks as
 * wheel lies inside it, every board field's half-edge outside (the closest are 161 and 175). */
export const WHEEL_R = 168;

const ICON_COLOURS = { 1: '#c8412b', 2: '#2f6fc8', 3: '#7a4aa8' };

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

/**
 * A board cell (``WHEEL-xy``): ``plan.wheel``, the wheel's disc round the board's centre in this
 * cell's coordinates; a road with one side runs from it towards the wheel's centre (inside the
 * disc that covers the middle of the board), cut at the cell's border.
 */
export function tilePlan(tile) {
  if (!tile.board) return;
  const wheel = { cx: 200 - 100 * Number(tile.id[6]), cy: 200 - 100 * Number(tile.id[7]), r: WHEEL_R };
  tile.plan.wheel = wheel;
  for (const r of tile.plan.roads) {
    const { sideIdx } = tile.segs[r.seg];
    if (sideIdx.length === 1) r.cmds = [['M', SIDE_MID[sideIdx[0]]], ['L', towardsWheel(SIDE_MID[sideIdx[0]], wheel)]];
  }
}

/** The wheel's ground under a board cell's cities; the wheel icon on top, always upright. */
export function tileArt(tile, k, layer) {
  const { plan } = tile;
  if (layer === 'under' && plan.wheel) {
    // The wheel's rim over the board cell (wheelView.js paints the wheel itself on top).
    const [cx, cy] = rotPoint([plan.wheel.cx, plan.wheel.cy], k);
    return [el('circle', { class: 'wheel-ground', cx, cy, r: plan.wheel.r,
      fill: '#d8c79c', stroke: '#7a5f3a', 'stroke-width': 3 })];
  }
  if (layer !== 'top' || !tile.icon) return null;
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
  const num = el('text', { y: 4, 'text-anchor': 'middle', 'font-size': 11.5, 'font-weight': 800,
    fill: '#fff' });
  num.textContent = String(tile.icon);
  ig.appendChild(num);
  const title = el('title');
  title.textContent = t('wheel.iconTitle', { n: tile.icon });
  ig.appendChild(title);
  return [ig];
}

/** The wheel's disc parts a board cell's fields from the wheel's. */
export function tileBarriers(ctx, tile, layer) {
  const { plan } = tile;
  if (layer !== 'top' || !plan.wheel) return;
  ctx.beginPath();
  ctx.arc(plan.wheel.cx, plan.wheel.cy, plan.wheel.r, 0, Math.PI * 2);
  ctx.fill();
}
