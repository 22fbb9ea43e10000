/**
 * Tile art drawn from the catalogue's geometry (./tileGeometry.js), as SVG: the landscape, the
 * cities with their walls and pennants, roads and cloisters, and the expansions' own parts
 * (``tileArt``, ../expansions/index.js); decorations stay upright while the landscape turns.
 *
 * This module (with ./tileGeometry.js and ./tileFields.js, re-exported here) only draws; it never
 * talks to the server.
 */

import { ROAD_INNER, ROAD_OUTER, fmt, pathString, rotPoint, tileType } from './tileGeometry.js';
import { withHook } from '../expansions/index.js';

export {
  HALVES, SIDES, allTileTypes, rotPoint, setCatalogue, tileType,
} from './tileGeometry.js';
export { analyseFields, checkFields, segmentForSpot, spotPoint } from './tileFields.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

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

/** A <g class="roads"> of the roads ``list`` ([{cmds}]) turned ``k`` quarter turns. */
export function roadsArt(list, k) {
  const rg = el('g', { class: 'roads' });
  for (const r of list) {
    const d = pathString(r.cmds, k);
    rg.appendChild(el('path', { d, fill: 'none', stroke: '#8a7656',
      'stroke-width': ROAD_OUTER, 'stroke-linecap': 'butt' }));
    rg.appendChild(el('path', { d, fill: 'none', stroke: '#f3ead2',
      'stroke-width': ROAD_INNER, 'stroke-linecap': 'butt' }));
    rg.appendChild(el('path', { d, fill: 'none', stroke: '#e1d3b0',
      'stroke-width': 1.2, 'stroke-dasharray': '3 5', 'stroke-linecap': 'butt' }));
  }
  return rg;
}

/**
 * A <g> with the art of ``tileId`` turned ``rotation`` degrees, in a 0..100 box. Decorations
 * (cloister, pennant shields, houses) stay upright; the landscape turns.
 */
export function tileArt(tileId, rotation = 0) {
  const tile = tileType(tileId);
  const k = (rotation / 90) % 4;
  const g = el('g', { class: 'tile-art', 'data-art': tileId });
  g.appendChild(el('rect', { x: 0, y: 0, width: 100, height: 100, fill: 'url(#pat-grass)' }));
  if (!tile) {
    g.appendChild(el('text', { x: 50, y: 56, 'text-anchor': 'middle', 'font-size': 20 }, []))
      .textContent = tileId;
    return g;
  }
  const { plan } = tile;
  // The expansions' parts of the tile on ``layer`` (see ../expansions/index.js, ``tileArt``).
  const own = (layer) => {
    for (const x of withHook('tileArt')) for (const node of x.tileArt(tile, k, layer) || []) g.appendChild(node);
  };
  // Roads under everything they end in.
  g.appendChild(roadsArt(plan.roads, k));
  own('under');
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
  own('over');
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
  own('top');
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
