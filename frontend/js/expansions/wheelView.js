/**
 * Carcassonne: Wheel of Fortune — the wheel drawn on the board, as SVG.
 *
 * The wheel board covers the 4×4 cells the view names in ``wheel.cells`` (x 0..3, y 0..3): its
 * land (three cities, three roads, three farms) is drawn by tiles.js as the cells ``WHEEL-xy``;
 * this module adds the board's edge and, over the middle, the wheel with its six segments clockwise from Fortune at the
 * top (labels along the rim, an emblem each), the crown spaces of each segment (a follower in
 * its player's colour and emblem shape when taken) and the pig riding the rim over the current
 * segment. When the pig moves it runs clockwise over the segments it passes, one hop each.
 *
 * World units as in board.js (a tile is 100 × 100). Elements carry data attributes for tests and
 * assistive tech: ``[data-segment]`` per segment (``.pig-here`` on the pig's),
 * ``[data-crown="tax:0"]`` per crown space (``data-occupant`` = seat when taken) and
 * ``.wheel-pig[data-segment]`` (the segment the pig is on, set as soon as it starts moving).
 */

import { svgEl as el } from '../board/tiles.js';
import { WHEEL_R } from './wheelTiles.js';
import { meepleMarkup, colourOf, COLOURS } from '../board/pieces.js';
import { t, has, lang } from '../i18n.js';

/** Each segment's colours; its name and what it does come from the catalogue (``wheel.*``). */
const SEGMENT_COLOURS = {
  fortune: { fill: '#f7df8e', deep: '#d9a520' },
  tax: { fill: '#e7cfa0', deep: '#a8773a' },
  famine: { fill: '#d9d49a', deep: '#8c8a3a' },
  storm: { fill: '#b9cfe2', deep: '#4f7597' },
  inquisition: { fill: '#dcc3dc', deep: '#80507e' },
  plague: { fill: '#c9d3b4', deep: '#5d6b45' },
};

/** The Wheel of Fortune's six ways to score: five segments and the crowns (its end table shows them all). */
export const CATEGORIES = ['fortune', 'tax', 'famine', 'storm', 'inquisition', 'crown'];

/** ``{fill, deep, label, effect}`` per segment, the words in the current language. */
export const SEGMENT_INFO = Object.fromEntries(Object.entries(SEGMENT_COLOURS).map(([name, colours]) => [name, {
  ...colours,
  get label() { return t(`wheel.${name}`); },
  get effect() { return t(`wheel.effect.${name}`); },
}]));

/** A segment's name in the current language ("Tax", "Steuern", "Impôt"); ``crown``: "Crowns". */
export function segmentLabel(name) {
  if (name && has(`wheel.${name}`)) return t(`wheel.${name}`);
  return name ? name[0].toUpperCase() + name.slice(1) : '';
}

/** What a segment does, in words ("each monk scores 2 points"). */
export function segmentEffect(name) {
  return name && has(`wheel.effect.${name}`) ? t(`wheel.effect.${name}`) : '';
}

const T = 100;
const DEG = Math.PI / 180;
const HOP_MS = 380;

/** An emblem for each segment, about 30 units across, centred on (0, 0). */
function glyph(name, ink) {
  switch (name) {
    case 'fortune': // a sun of coins
      return `<g fill="#f2c318" stroke="${ink}" stroke-width="1.6">` +
        [0, 45, 90, 135, 180, 225, 270, 315].map((a) => `<path d="M0,-15 L3,-9 L-3,-9 Z" transform="rotate(${a})"/>`).join('') +
        `<circle r="8.5"/></g><text y="3.6" text-anchor="middle" font-size="10" font-weight="800" fill="${ink}">3</text>`;
    case 'tax': // a money bag
      return `<path d="M-4,-11 L4,-11 L2,-7 C10,-3 12,4 10,8 C8,12 -8,12 -10,8 C-12,4 -10,-3 -2,-7 Z" fill="#c99a4c" stroke="${ink}" stroke-width="1.6" stroke-linejoin="round"/>` +
        `<path d="M-5,-7.5 H5" stroke="${ink}" stroke-width="1.6"/><text y="6" text-anchor="middle" font-size="10" font-weight="800" fill="${ink}">$</text>`;
    case 'famine': // an empty bowl and a broken ear of wheat
      return `<path d="M-12,0 H12 C11,8 6,11 0,11 C-6,11 -11,8 -12,0 Z" fill="#b8925a" stroke="${ink}" stroke-width="1.6"/>` +
        `<path d="M2,-2 L7,-14" stroke="${ink}" stroke-width="1.5"/>` +
        [0, 1, 2].map((i) => `<ellipse cx="${3.6 + i * 1.5}" cy="${-6 - i * 3.4}" rx="1.5" ry="2.6" fill="#e0c56a" stroke="${ink}" stroke-width="0.8" transform="rotate(22 ${3.6 + i * 1.5} ${-6 - i * 3.4})"/>`).join('');
    case 'storm': // a cloud with lightning
      return `<path d="M-11,3 C-15,3 -15,-5 -9,-5 C-9,-11 -1,-13 2,-8 C5,-12 12,-9 11,-4 C15,-4 15,3 11,3 Z" fill="#eef3f8" stroke="${ink}" stroke-width="1.6" stroke-linejoin="round"/>` +
        `<path d="M-1,3 L-5,10 L0,9 L-3,16 L5,6 L0,7 L3,3 Z" fill="#f2c318" stroke="${ink}" stroke-width="1" stroke-linejoin="round"/>`;
    case 'inquisition': // a monk's hood with a cross
      return `<path d="M0,-13 C8,-13 11,-4 11,4 L13,12 H-13 L-11,4 C-11,-4 -8,-13 0,-13 Z" fill="#6e4a6c" stroke="${ink}" stroke-width="1.6" stroke-linejoin="round"/>` +
        '<ellipse cx="0" cy="-2" rx="5.5" ry="6.5" fill="#2c1d2b"/>' +
        '<path d="M-1.3,4 H1.3 V6.5 H3.8 V9 H1.3 V12 H-1.3 V9 H-3.8 V6.5 H-1.3 Z" fill="#f3e4c0"/>';
    case 'plague': // a rat
      return `<path d="M-12,4 C-12,-4 -4,-8 3,-6 C7,-5 10,-2 12,2 L15,3 L11,5 C8,7 -6,8 -12,4 Z" fill="#8a8076" stroke="${ink}" stroke-width="1.5" stroke-linejoin="round"/>` +
        `<circle cx="2" cy="-6" r="3" fill="#b3a89c" stroke="${ink}" stroke-width="1"/><circle cx="8" cy="-0.5" r="1.2" fill="${ink}"/>` +
        `<path d="M-12,4 C-17,5 -17,11 -12,12" fill="none" stroke="${ink}" stroke-width="1.3" stroke-linecap="round"/>`;
    default:
      return `<circle r="8" fill="${ink}"/>`;
  }
}

/** The pig seen from above, walking east (clockwise at the top of the wheel), about 46 × 26. */
function pigMarkup() {
  return '<g class="pig-body">' +
    '<ellipse cx="1" cy="3" rx="20" ry="11" fill="rgba(0,0,0,0.3)"/>' +
    '<path d="M-17,0 c-4,-1 -6,3 -3,4 c3,1 2,-4 -1,-3" fill="none" stroke="#a44d66" stroke-width="1.6" stroke-linecap="round"/>' +
    '<ellipse cx="-2" cy="0" rx="16" ry="11" fill="#f5a9bd" stroke="#a44d66" stroke-width="2"/>' +
    '<path d="M-10,-6 q6,-3 12,0" fill="none" stroke="#fbd3de" stroke-width="2.2" stroke-linecap="round"/>' +
    '<path d="M10,-8 l3,-6 l4,6 Z M10,8 l3,6 l4,-6 Z" fill="#e98aa4" stroke="#a44d66" stroke-width="1.4" stroke-linejoin="round"/>' +
    '<circle cx="14" cy="0" r="8.5" fill="#f5a9bd" stroke="#a44d66" stroke-width="2"/>' +
    '<circle cx="15.5" cy="-3.6" r="1.5" fill="#3a2530"/><circle cx="15.5" cy="3.6" r="1.5" fill="#3a2530"/>' +
    '<ellipse cx="22" cy="0" rx="3.6" ry="4.6" fill="#f8c3d0" stroke="#a44d66" stroke-width="1.6"/>' +
    '<circle cx="22.6" cy="-1.5" r="0.9" fill="#a44d66"/><circle cx="22.6" cy="1.5" r="0.9" fill="#a44d66"/>' +
    `</g><title>${t('wheel.pig')}</title>`;
}

/** A crown space: a gold disc with a crown, about 26 units across. */
function crownSpaceMarkup() {
  return '<circle r="12.5" fill="#fff7d6" stroke="#a67c12" stroke-width="2.2"/>' +
    '<path d="M-7,4.5 L-7,-3.5 L-3.5,-0.5 L0,-6 L3.5,-0.5 L7,-3.5 L7,4.5 Z" fill="#d9a520" stroke="#7d5c0a" stroke-width="1" stroke-linejoin="round"/>';
}

export class WheelView {
  /** ``layer``: the <g> to draw in (board world units). */
  constructor(layer) {
    this.layer = layer;
    this.signature = null;
    this.pigIndex = null;
    this.anim = null;
  }

  destroy() {
    cancelAnimationFrame(this.anim);
  }

  /**
   * Show ``wheel`` (the view's ``wheel``); ``colours``: seat → colour name. ``steps``: how
   * many segments the pig just moved (from PigMoved events), to animate a full turn right.
   */
  update(wheel, colours, { steps = null, animate = true } = {}) {
    if (!wheel || !wheel.cells || !wheel.cells.length) {
      this.clear();
      return;
    }
    const sig = JSON.stringify([wheel.cells, wheel.segments.map((s) => [s.name, s.crowns])]);
    if (sig !== this.signature) {
      this.build(wheel);
      this.signature = sig;
      this.pigIndex = null;
    }
    this.names = wheel.segments.map((s) => s.name);
    const index = Math.max(0, this.names.indexOf(wheel.pig));
    for (const g of this.layer.querySelectorAll('.wheel-seg')) {
      const here = g.dataset.segment === wheel.pig;
      g.classList.toggle('pig-here', here);
      g.setAttribute('aria-current', here ? 'true' : 'false');
    }
    this.setCrowns(wheel, colours);
    this.movePig(index, steps, animate);
  }

  clear() {
    cancelAnimationFrame(this.anim);
    while (this.layer.firstChild) this.layer.firstChild.remove();
    this.signature = null;
    this.pigIndex = null;
    this.geometry = null;
  }

  // ------------------------------------------------------------------ geometry

  /** The angle (radians, 0 = east, clockwise) of the middle of segment ``i``. */
  midAngle(i) {
    return (-90 + (i * 360) / this.n) * DEG;
  }

  polar(angle, r) {
    const { cx, cy } = this.geometry;
    return [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
  }

  /** Where the crown spaces of segment ``i`` are (world units). */
  crownPoints(i, count) {
    const { r } = this.geometry;
    const mid = this.midAngle(i);
    const out = [];
    for (let k = 0; k < count; k += 1) {
      const spread = count > 1 ? (k - (count - 1) / 2) * (22 * DEG) : 0;
      out.push(this.polar(mid + spread, r * 0.47));
    }
    return out;
  }

  /** World point of the free crown space of ``segment`` (null when full or unknown). */
  freeCrown(segment) {
    const c = this.crowns && this.crowns[segment];
    return c ? c.free : null;
  }

  /** World point in the middle of ``segment`` (for floating points). */
  segmentPoint(segment) {
    if (!this.geometry) return null;
    const i = this.names ? this.names.indexOf(segment) : -1;
    if (i < 0) return [this.geometry.cx, this.geometry.cy];
    return this.polar(this.midAngle(i), this.geometry.r * 0.62);
  }

  // ------------------------------------------------------------------ drawing

  build(wheel) {
    this.clear();
    const xs = wheel.cells.map((c) => c[0]);
    const ys = wheel.cells.map((c) => c[1]);
    const x0 = Math.min(...xs) * T;
    const y0 = Math.min(...ys) * T;
    const w = (Math.max(...xs) + 1) * T - x0;
    const hgt = (Math.max(...ys) + 1) * T - y0;
    const cx = x0 + w / 2;
    const cy = y0 + hgt / 2;
    // The wheel sits on the board's rim of radius WHEEL_R (wheelTiles.js), inside the ring of land.
    const r = Math.min(Math.min(w, hgt) / 2 - 30, WHEEL_R - 12);
    this.geometry = { cx, cy, r };
    this.n = wheel.segments.length;
    const n = this.n;
    const L = this.layer;
    const uid = `wh${Math.random().toString(36).slice(2, 7)}`;

    // The plate: the board's edge round its cells (whose cities, roads and farms show, drawn
    // by tiles.js like any land), a path round the wheel.
    const plate = el('g', { class: 'wheel-plate', 'aria-hidden': 'true' });
    plate.appendChild(el('rect', { x: x0 + 1, y: y0 + 1, width: w - 2, height: hgt - 2, rx: 10, fill: 'none',
      stroke: 'rgba(60, 45, 20, 0.45)', 'stroke-width': 2.5 }));
    plate.appendChild(el('circle', { cx, cy, r: r + 12, fill: '#d8c59a', stroke: '#b59c68', 'stroke-width': 2 }));
    plate.appendChild(el('circle', { cx, cy: cy + 4, r: r + 6, fill: 'rgba(0,0,0,0.35)' }));
    L.appendChild(plate);

    // Segments.
    const segs = el('g', { class: 'wheel-segments', role: 'list', 'aria-label': t('wheel.name') });
    const defs = el('defs');
    segs.appendChild(defs);
    this.crowns = {};
    wheel.segments.forEach((seg, i) => {
      const info = SEGMENT_INFO[seg.name] || { fill: '#ddd', deep: '#777' };
      const mid = this.midAngle(i);
      const a0 = mid - Math.PI / n;
      const a1 = mid + Math.PI / n;
      const [ox0, oy0] = this.polar(a0, r);
      const [ox1, oy1] = this.polar(a1, r);
      const hub = r * 0.2;
      const [ix0, iy0] = this.polar(a0, hub);
      const [ix1, iy1] = this.polar(a1, hub);
      const g = el('g', { class: 'wheel-seg', 'data-segment': seg.name, role: 'listitem' });
      const gradId = `${uid}-g${i}`;
      const grad = el('radialGradient', { id: gradId, cx, cy, r, gradientUnits: 'userSpaceOnUse' });
      grad.appendChild(el('stop', { offset: '0.2', 'stop-color': '#fffaf0' }));
      grad.appendChild(el('stop', { offset: '1', 'stop-color': info.fill }));
      defs.appendChild(grad);
      g.appendChild(el('path', { class: 'wheel-seg-fill',
        d: `M${ix0},${iy0} L${ox0},${oy0} A${r},${r} 0 0 1 ${ox1},${oy1} L${ix1},${iy1} A${hub},${hub} 0 0 0 ${ix0},${iy0} Z`,
        fill: `url(#${gradId})`, stroke: '#5e4327', 'stroke-width': 2 }));
      // The label along the rim (reads left to right at the top, flipped at the bottom).
      const lr = r * 0.83;
      const bottom = Math.sin(mid) > 0.35;
      const [lx0, ly0] = this.polar(bottom ? a1 : a0, lr);
      const [lx1, ly1] = this.polar(bottom ? a0 : a1, lr);
      const pathId = `${uid}-l${i}`;
      defs.appendChild(el('path', { id: pathId, d: `M${lx0},${ly0} A${lr},${lr} 0 0 ${bottom ? 0 : 1} ${lx1},${ly1}` }));
      const text = el('text', { class: 'wheel-label', fill: info.deep, dy: bottom ? 10 : 0 });
      const tp = el('textPath', { href: `#${pathId}`, startOffset: '50%', 'text-anchor': 'middle' });
      tp.textContent = segmentLabel(seg.name).toLocaleUpperCase(lang());
      text.appendChild(tp);
      g.appendChild(text);
      const [gx, gy] = this.polar(mid, r * 0.66);
      g.insertAdjacentHTML('beforeend', `<g class="wheel-glyph" transform="translate(${gx.toFixed(1)},${gy.toFixed(1)}) scale(1.05)">${glyph(seg.name, '#3d2b18')}</g>`);
      const spaces = this.crownPoints(i, seg.crowns);
      const crownGroup = el('g', { class: 'wheel-crowns' });
      spaces.forEach(([px, py], k) => {
        const c = el('g', { class: 'crown-space', 'data-crown': `${seg.name}:${k}`,
          transform: `translate(${px.toFixed(1)},${py.toFixed(1)})` });
        c.innerHTML = crownSpaceMarkup();
        crownGroup.appendChild(c);
      });
      g.appendChild(crownGroup);
      this.crowns[seg.name] = { points: spaces, free: spaces[0] || null };
      const title = el('title');
      title.textContent = t('wheel.segmentTitle', { seg: segmentLabel(seg.name), effect: segmentEffect(seg.name),
        crowns: seg.crowns ? t('wheel.crownSpaces', { n: seg.crowns }) : t('wheel.noCrownSpace') });
      g.appendChild(title);
      segs.appendChild(g);
    });
    L.appendChild(segs);

    // Rim with studs, spokes between segments, hub.
    const rim = el('g', { class: 'wheel-rim', 'aria-hidden': 'true' });
    rim.appendChild(el('circle', { cx, cy, r: r + 4, fill: 'none', stroke: '#6d4c2b', 'stroke-width': 10 }));
    rim.appendChild(el('circle', { cx, cy, r: r + 4, fill: 'none', stroke: '#9a7148', 'stroke-width': 4 }));
    for (let i = 0; i < n; i += 1) {
      const a = this.midAngle(i) + Math.PI / n;
      const [sx, sy] = this.polar(a, r * 0.2);
      const [ex, ey] = this.polar(a, r + 4);
      rim.appendChild(el('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: '#6d4c2b', 'stroke-width': 4.5, 'stroke-linecap': 'round' }));
      const [bx, by] = this.polar(a, r + 4);
      rim.appendChild(el('circle', { cx: bx, cy: by, r: 4, fill: '#e0c27a', stroke: '#5e4327', 'stroke-width': 1.2 }));
    }
    rim.appendChild(el('circle', { cx, cy, r: r * 0.2, fill: '#7a5531', stroke: '#4a321b', 'stroke-width': 2.5 }));
    rim.appendChild(el('circle', { cx, cy, r: r * 0.1, fill: '#c99a4c', stroke: '#4a321b', 'stroke-width': 2 }));
    L.appendChild(rim);

    this.occupantLayer = el('g', { class: 'wheel-occupants' });
    L.appendChild(this.occupantLayer);
    this.pig = el('g', { class: 'wheel-pig', role: 'img', 'aria-label': t('wheel.pig') });
    this.pigInner = el('g', { class: 'wheel-pig-inner' });
    this.pigInner.innerHTML = pigMarkup();
    this.pig.appendChild(this.pigInner);
    L.appendChild(this.pig);
  }

  setCrowns(wheel, colours) {
    const layer = this.occupantLayer;
    while (layer.firstChild) layer.firstChild.remove();
    wheel.segments.forEach((seg) => {
      const spot = this.crowns[seg.name];
      if (!spot) return;
      spot.points.forEach(([px, py], k) => {
        const node = this.layer.querySelector(`[data-crown="${seg.name}:${k}"]`);
        const who = seg.occupants[k];
        if (node) {
          if (who === undefined) node.removeAttribute('data-occupant');
          else node.setAttribute('data-occupant', String(who));
        }
        if (who === undefined) return;
        const c = colourOf(colours[who]);
        const g = el('g', { class: 'crown-follower', 'data-crown-follower': `${seg.name}:${k}`, 'data-seat': who });
        g.innerHTML = meepleMarkup(colours[who], { x: px, y: py - 5, scale: 1.25 });
        const title = el('title');
        title.textContent = t('wheel.crownFollower', { colour: COLOURS[colours[who]] ? COLOURS[colours[who]].label : c.label, seg: segmentLabel(seg.name) });
        g.appendChild(title);
        layer.appendChild(g);
      });
      spot.free = spot.points[seg.occupants.length] || null;
    });
  }

  /** Put the pig on segment ``index``; hop clockwise over ``steps`` segments when it moved. */
  movePig(index, steps, animate) {
    const name = this.names[index];
    const seg = 360 / this.n;
    this.pig.dataset.segment = name;
    this.pig.setAttribute('aria-label', t('wheel.pigOn', { seg: segmentLabel(name) }));
    const from = this.pigIndex;
    this.pigIndex = index;
    if (from === index && !steps) {
      if (!this.anim) this.placePig(index * seg, 0); // nothing moved (a running hop goes on)
      return;
    }
    const reduce = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (from === null || !animate || reduce) {
      cancelAnimationFrame(this.anim);
      this.anim = null;
      this.placePig(index * seg, 0);
      return;
    }
    cancelAnimationFrame(this.anim);
    const startDeg = this.shownDeg ?? from * seg;
    let total = (((index * seg - startDeg) % 360) + 360) % 360;
    if (steps && steps * seg > total + seg / 2) total += 360; // all the way round
    if (total < 1) total = 360;
    const count = Math.max(1, Math.round(total / seg));
    const start = performance.now();
    const dur = HOP_MS * count;
    this.pig.classList.add('moving');
    const step = (now) => {
      const f = Math.min(1, (now - start) / dur);
      // Each hop eases in and out, and the pig grows a little mid-hop (a jump seen from above).
      const hopT = f * count;
      const k = Math.min(count - 1, Math.floor(hopT));
      const local = f >= 1 ? 1 : hopT - k;
      const eased = local < 0.5 ? 2 * local * local : 1 - (-2 * local + 2) ** 2 / 2;
      this.placePig(startDeg + (k + eased) * (total / count), f >= 1 ? 0 : Math.sin(Math.PI * local));
      if (f < 1) {
        this.anim = requestAnimationFrame(step);
      } else {
        this.anim = null;
        this.placePig(index * seg, 0);
        this.pig.classList.remove('moving');
        const landed = this.layer.querySelector(`.wheel-seg[data-segment="${name}"]`);
        if (landed) {
          landed.classList.add('just-landed');
          setTimeout(() => landed.classList.remove('just-landed'), 1600);
        }
        this.pig.dispatchEvent(new CustomEvent('pig-landed', { bubbles: true, detail: { segment: name } }));
      }
    };
    this.anim = requestAnimationFrame(step);
  }

  /** Draw the pig at ``deg`` clockwise from the top, on the rim; ``lift`` (0..1) mid-hop. */
  placePig(deg, lift) {
    const { cx, cy, r } = this.geometry;
    this.shownDeg = ((deg % 360) + 360) % 360;
    this.pig.setAttribute('transform', `rotate(${this.shownDeg.toFixed(2)} ${cx} ${cy})`);
    const scale = 1.05 * (1 + 0.28 * lift);
    this.pigInner.setAttribute('transform', `translate(${cx},${(cy - r - 3).toFixed(2)}) scale(${scale.toFixed(3)})`);
  }
}
