/**
 * The board: an SVG of placed tiles and followers; glowing legal cells, a tile preview,
 * follower targets, scoring highlights and floating "+N" labels. Pan, zoom, framing and pointer
 * input come from ``BoardView`` (./boardView.js), which it extends.
 *
 * World units: one tile is 100 × 100; cell (x, y) covers [100x, 100x + 100] × [100y, 100y + 100]
 * (x east, y south, as on the wire). The board knows nothing about the server: the match screen
 * tells it what to show and receives clicks through callbacks. The expansions draw their own
 * layers (``boardLayers``, ``drawPosition``, ``spotPoint``: ../expansions/index.js), keeping
 * what they draw with in ``board.own``.
 */

import { svgEl as el, tileArt, spotPoint, ensureDefs } from './tiles.js';
import { meepleMarkup, colourOf, roleIconMarkup, roleOfSpot, roleA, roleName, placeName } from './pieces.js';
import { FeatureHighlight } from './featureHighlight.js';
import { BoardView, T, parseKey } from './boardView.js';
import { withHook } from '../expansions/index.js';
import { t } from '../i18n.js';

export const cellKey = (x, y) => `${x},${y}`;

function spotKind(spot) {
  return spot === 'cloister' ? 'cloister' : spot.split(':')[0];
}

export class Board extends BoardView {
  /**
   * ``host``: the element to fill. ``handlers``: onCellClick(x, y), onCellHover(x, y | null),
   * onSpotClick(spot), onPreviewClick(), onViewChange().
   */
  constructor(host, handlers = {}) {
    ensureDefs();
    const svg = el('svg', { class: 'board-svg', id: 'board', tabindex: '0', role: 'application',
      'aria-label': t('match.boardLabel') });
    super(host, svg, handlers);
    this.world = el('g', { class: 'world' });
    this.layers = {};
    // The expansions' own layers lie over the tiles, under the last moves' outlines.
    const own = withHook('boardLayers').flatMap((x) => x.boardLayers);
    for (const name of ['legal', 'tiles', ...own, 'lastmove', 'holes', 'feature', 'highlight', 'ghost', 'preview',
      'followers', 'marks', 'targets', 'cursor', 'floaters']) {
      this.layers[name] = el('g', { class: `layer-${name}` });
      this.world.appendChild(this.layers[name]);
    }
    this.svg.appendChild(this.world);
    host.appendChild(this.svg);
    /** What the expansions draw on this board with, by expansion id (``destroy()`` if it has one). */
    this.own = {};

    this.tiles = new Map(); // key → {tile, rotation, node}
    this.legal = new Map();
    this.targets = null;
    // The feature highlight (a player aid): hovering a follower, or any segment of a placed
    // tile, outlines its whole feature.
    this.featureHighlight = new FeatureHighlight(this);
    this.start();
  }

  destroy() {
    this.stopView();
    for (const part of Object.values(this.own)) if (part.destroy) part.destroy();
    this.svg.remove();
  }

  cellKeys() {
    return [...this.tiles.keys(), ...this.legal.keys()];
  }

  viewChanged() {
    if (this.targets) this.rescaleTargets();
    if (this.followerData && Math.abs(this.followerScale() - this.followerScaleShown) > 0.1) {
      this.setFollowers(...this.followerData);
    }
  }

  // ------------------------------------------------------------------ tiles and followers

  /** ``board``: the view's ``[{at: [x, y], tile, rotation}]``. New tiles fade in. */
  setTiles(board, { animate = true } = {}) {
    const seen = new Set();
    let grew = false;
    for (const t of board) {
      const key = cellKey(t.at[0], t.at[1]);
      seen.add(key);
      const cur = this.tiles.get(key);
      if (cur && cur.tile === t.tile && cur.rotation === t.rotation) continue;
      if (cur) cur.node.remove();
      const node = el('g', { class: `tile${animate && this.tiles.size ? ' new' : ''}`,
        'data-tile-at': key, 'data-tile': t.tile, 'data-rotation': t.rotation,
        transform: `translate(${t.at[0] * T},${t.at[1] * T})` });
      node.appendChild(tileArt(t.tile, t.rotation));
      node.appendChild(el('rect', { class: 'tile-edge', x: 0, y: 0, width: T, height: T }));
      this.layers.tiles.appendChild(node);
      this.tiles.set(key, { tile: t.tile, rotation: t.rotation, node });
      grew = true;
    }
    for (const [key, cur] of this.tiles) {
      if (!seen.has(key)) {
        cur.node.remove();
        this.tiles.delete(key);
      }
    }
    if (grew && this.auto) this.fit(true);
  }

  /** Outline the last placed tile in its player's colour. */
  setLastMove(at, colour) {
    const layer = this.layers.lastmove;
    while (layer.firstChild) layer.firstChild.remove();
    if (!at) return;
    const c = colourOf(colour);
    layer.appendChild(el('rect', { class: 'last-move', x: at[0] * T + 1.5, y: at[1] * T + 1.5,
      width: T - 3, height: T - 3, rx: 3, stroke: c.fill }));
  }

  /**
   * Outline each player's last tile: ``moves`` is ``[{at: [x, y], colour, latest}]``; the
   * ``latest`` one (the move just made) is drawn solid, the others dashed.
   */
  setLastMoves(moves) {
    const layer = this.layers.lastmove;
    while (layer.firstChild) layer.firstChild.remove();
    for (const { at, colour, latest } of moves) {
      if (!at) continue;
      const c = colourOf(colour);
      layer.appendChild(el('rect', { class: `last-move${latest ? ' latest' : ' earlier'}`, x: at[0] * T + 1.5, y: at[1] * T + 1.5,
        width: T - 3, height: T - 3, rx: 3, stroke: c.fill, 'data-last-move': `${at[0]},${at[1]}` }));
    }
  }

  /** ``followers``: the view's ``[{seat, at, spot, role}]``; ``colours``: seat → colour name. */
  setFollowers(followers, colours) {
    this.followerData = [followers, colours];
    this.followerScaleShown = this.followerScale();
    const layer = this.layers.followers;
    while (layer.firstChild) layer.firstChild.remove();
    for (const f of followers) {
      const key = cellKey(f.at[0], f.at[1]);
      const placed = this.tiles.get(key);
      const [px, py] = placed ? spotPoint(placed.tile, f.spot, placed.rotation) : [50, 50];
      const g = el('g', { class: `follower role-${f.role}`, 'data-follower': `${key} ${f.spot}`,
        'data-seat': f.seat, transform: `translate(${f.at[0] * T + px},${f.at[1] * T + py})` });
      g.innerHTML = meepleMarkup(colours[f.seat], { lying: f.role === 'farmer', scale: this.followerScale() });
      const title = el('title');
      title.textContent = `${roleName(f.role) || t('role.follower')} (${colourOf(colours[f.seat]).label})`;
      g.appendChild(title);
      layer.appendChild(g);
    }
  }

  /** Followers keep a readable size when the board is zoomed far out. */
  followerScale() {
    return Math.min(1.8, Math.max(1.05, 12 / (24 * this.view.scale)));
  }

  // ------------------------------------------------------------------ placing a tile

  /** ``cells``: Map "x,y" → [rotations that fit]. */
  setLegal(cells) {
    const signature = [...cells].map(([k, r]) => `${k}:${r.join('/')}`).join(' ');
    if (signature === this.legalSignature) return;
    this.legalSignature = signature;
    this.legal = cells;
    const layer = this.layers.legal;
    while (layer.firstChild) layer.firstChild.remove();
    for (const [key, rots] of cells) {
      const [x, y] = parseKey(key);
      const g = el('g', { class: 'legal-cell', 'data-cell': key, 'data-rotations': rots.join(','),
        transform: `translate(${x * T},${y * T})` });
      g.appendChild(el('rect', { class: 'legal-glow', x: 3, y: 3, width: T - 6, height: T - 6, rx: 8 }));
      g.appendChild(el('rect', { class: 'legal-hit', x: 0, y: 0, width: T, height: T }));
      layer.appendChild(g);
    }
    if (cells.size && this.auto) this.fit(true);
  }

  /**
   * Show ``tile`` at (x, y) turned ``rotation``. ``fits``: the rotation is legal there;
   * ``selected``: the player chose this cell and is about to confirm.
   */
  showPreview(x, y, tile, rotation, { fits = true, selected = false } = {}) {
    const layer = this.layers.preview;
    while (layer.firstChild) layer.firstChild.remove();
    const g = el('g', { class: `preview ${fits ? 'fits' : 'nofit'}${selected ? ' selected' : ''}`,
      'data-preview': cellKey(x, y), 'data-rotation': rotation,
      transform: `translate(${x * T},${y * T})` });
    g.appendChild(tileArt(tile, rotation));
    g.appendChild(el('rect', { class: 'preview-edge', x: 0, y: 0, width: T, height: T }));
    if (!fits) {
      g.appendChild(el('rect', { class: 'nofit-veil', x: 0, y: 0, width: T, height: T }));
      g.appendChild(el('path', { class: 'nofit-cross', d: 'M35,35 L65,65 M65,35 L35,65' }));
    }
    layer.appendChild(g);
  }

  clearPreview() {
    const layer = this.layers.preview;
    while (layer.firstChild) layer.firstChild.remove();
  }

  setCursor(x, y) {
    const layer = this.layers.cursor;
    while (layer.firstChild) layer.firstChild.remove();
    if (x === null || x === undefined) return;
    layer.appendChild(el('rect', { class: 'kbd-cursor', x: x * T - 3, y: y * T - 3, width: T + 6,
      height: T + 6, rx: 10 }));
  }

  // ------------------------------------------------------------------ deploying a follower

  /**
   * Targets for ``spots`` on the tile at ``at`` (or an expansion's spots off the tile); ``focus``: the
   * spot picked by keyboard. Targets keep at least ~26 px across whatever the zoom.
   */
  setTargets(at, spots, colour, focus = null) {
    if (!at && !spots) {
      this.targets = null;
    } else {
      const items = (spots || []).map((spot) => {
        const p = this.spotWorld(at, spot);
        return p ? { id: spot, wx: p[0], wy: p[1], role: roleOfSpot(spot), kind: spotKind(spot) } : null;
      }).filter(Boolean);
      this.targets = { items, colour, focus };
    }
    this.renderTargets();
  }

  /**
   * Targets on followers already on the board: ``items`` [{id, at: [x, y], spot, label}] — an
   * expansion's choice among them (the Wheel of Fortune's Plague: the follower to take back).
   * ``art(it, c, scale, focused)`` → a target's node, ``it``: ``{id, wx, wy, role, kind, label}``
   * at world point (wx, wy), ``c``: ``colourOf(colour)``.
   */
  setTargetList(items, colour, focus = null, art = null) {
    this.targets = {
      items: items.map((it) => {
        const p = this.spotWorld(it.at, it.spot) || [it.at[0] * T + 50, it.at[1] * T + 50];
        return { id: it.id, wx: p[0], wy: p[1], role: roleOfSpot(it.spot), kind: spotKind(it.spot),
          label: it.label };
      }),
      colour,
      focus,
      art,
    };
    this.renderTargets();
  }

  /**
   * Marks that are not buttons: ``items`` [{at, spot}] glow softly (everyone else's view of the
   * followers an expansion's decision is about) as ``<g class="{className}">``, or none.
   */
  setMarks(items, colour, className = 'board-mark') {
    const layer = this.layers.marks;
    const signature = items ? `${colour}|${items.map((it) => `${it.at}:${it.spot}`).join(' ')}` : '';
    if (signature === this.marksSignature) return;
    this.marksSignature = signature;
    while (layer.firstChild) layer.firstChild.remove();
    if (!items) return;
    const c = colourOf(colour);
    for (const it of items) {
      const p = this.spotWorld(it.at, it.spot) || [it.at[0] * T + 50, it.at[1] * T + 50];
      const g = el('g', { class: className, 'data-mark': `${it.at[0]},${it.at[1]} ${it.spot}`,
        transform: `translate(${p[0]},${p[1]})` });
      g.appendChild(el('circle', { r: 17, fill: 'none', stroke: c.fill, 'stroke-width': 3, 'stroke-dasharray': '5 4' }));
      layer.appendChild(g);
    }
  }

  /** World position of a follower spot: on the tile at ``at``, or an expansion's (``spotPoint``). */
  spotWorld(at, spot) {
    const owner = withHook('ownsSpot').find((x) => x.ownsSpot(spot));
    if (owner) return owner.spotPoint ? owner.spotPoint(this, spot) : null;
    if (!at) return null;
    const t = this.tiles.get(cellKey(at[0], at[1]));
    if (!t) return null;
    const [px, py] = spotPoint(t.tile, spot, t.rotation);
    return [at[0] * T + px, at[1] * T + py];
  }

  targetScale() {
    return Math.max(1, 13 / (10.5 * this.view.scale));
  }

  /** On zoom, only the targets' size changes (no new elements: clicks stay on them). */
  rescaleTargets() {
    const s = this.targetScale();
    for (const g of this.layers.targets.children) {
      g.setAttribute('transform', `translate(${g.dataset.wx},${g.dataset.wy}) scale(${s})`);
    }
  }

  renderTargets() {
    const layer = this.layers.targets;
    while (layer.firstChild) layer.firstChild.remove();
    if (!this.targets) return;
    const { items, colour, focus, art } = this.targets;
    const c = colourOf(colour);
    const s = this.targetScale();
    if (art) {
      for (const it of items) layer.appendChild(art(it, c, s, focus === it.id));
      return;
    }
    for (const it of items) {
      const g = el('g', { 'data-wx': it.wx, 'data-wy': it.wy, class: `target${focus === it.id ? ' focused' : ''}`, 'data-spot': it.id,
        role: 'button', 'aria-label': t('match.spotTitle', { role: roleName(it.role) || t('role.follower'), place: placeName(it.kind) || '' }).trim(),
        transform: `translate(${it.wx},${it.wy}) scale(${s})` });
      g.innerHTML = `<circle class="target-ring" r="10.5" fill="#fffdf5" stroke="${c.fill}" stroke-width="2.6"/>` +
        `<g transform="scale(0.95)">${roleIconMarkup(it.role)}</g>`;
      const title = el('title');
      title.textContent = t('match.placeRole', { role: roleA(it.role), place: placeName(it.kind) || '' }).replace(/\s+/g, ' ').trim();
      g.appendChild(title);
      layer.appendChild(g);
    }
  }

  // ------------------------------------------------------------------ the expansions' layers

  /**
   * The expansions' own layers for ``position`` outside a match (a replay's step; the match
   * screen draws them with the ``drawBoard`` hook): ``drawPosition`` of every registered one.
   */
  drawExpansions(position, colours, opts = {}) {
    for (const x of withHook('drawPosition')) x.drawPosition(this, position, colours, opts);
  }

  // ------------------------------------------------------------------ player aids

  /** Mark ``cells`` ([[x, y]]) as impossible holes: empty cells no tile still to come fits. */
  setHoles(cells) {
    const signature = cells.map((c) => c.join(',')).join(' ');
    if (signature === this.holesSignature) return;
    this.holesSignature = signature;
    const layer = this.layers.holes;
    while (layer.firstChild) layer.firstChild.remove();
    for (const [x, y] of cells) {
      const g = el('g', { class: 'impossible-hole', 'data-hole': cellKey(x, y), transform: `translate(${x * T},${y * T})` });
      g.appendChild(el('rect', { x: 4, y: 4, width: T - 8, height: T - 8, rx: 6 }));
      g.appendChild(el('path', { d: 'M30,30 L70,70 M70,30 L30,70' }));
      const title = el('title');
      title.textContent = t('aids.holeTitle');
      g.appendChild(title);
      layer.appendChild(g);
    }
  }

  /** The feature highlight's data (see ./featureHighlight.js); ``colours``: seat → colour name. */
  setFeatures(features, colours) {
    this.featureHighlight.set(features, colours);
  }

  /** A ghost of ``tile`` at (x, y) turned ``rotation`` (the replay's suggested move); null: none. */
  setGhost(x, y, tile, rotation) {
    const layer = this.layers.ghost;
    while (layer.firstChild) layer.firstChild.remove();
    if (x === null || x === undefined || !tile) return;
    const g = el('g', { class: 'ghost-tile', 'data-ghost': cellKey(x, y), 'data-rotation': rotation,
      transform: `translate(${x * T},${y * T})` });
    g.appendChild(tileArt(tile, rotation));
    g.appendChild(el('rect', { class: 'ghost-edge', x: 1, y: 1, width: T - 2, height: T - 2, rx: 4 }));
    layer.appendChild(g);
  }

  // ------------------------------------------------------------------ scoring effects

  /** Glow over ``cells`` ([[x, y], ...]) for a moment, in ``colour`` (a CSS colour). */
  highlight(cells, colour = '#ffe36e', ms = 2600) {
    const g = el('g', { class: 'highlight' });
    for (const [x, y] of cells) {
      if (!this.tiles.has(cellKey(x, y))) continue;
      g.appendChild(el('rect', { x: x * T + 2, y: y * T + 2, width: T - 4, height: T - 4, rx: 6,
        fill: colour, stroke: colour }));
    }
    this.layers.highlight.appendChild(g);
    setTimeout(() => g.remove(), ms);
  }

  /** A floating "+N" with a caption, rising from the middle of ``cells``. */
  floatText(cells, text, caption, colour) {
    const pts = cells.filter(([x, y]) => this.tiles.has(cellKey(x, y)));
    if (!pts.length) return;
    const mx = (pts.reduce((a, p) => a + p[0], 0) / pts.length) * T + T / 2;
    const my = (pts.reduce((a, p) => a + p[1], 0) / pts.length) * T + T / 2;
    this.floatAt(mx, my, text, caption, colour);
  }

  /** A floating "+N" with a caption rising from world point (mx, my). */
  floatAt(mx, my, text, caption, colour) {
    const c = colourOf(colour);
    const s = Math.max(1, 1 / (this.view.scale * 1.1));
    const g = el('g', { class: 'floater', transform: `translate(${mx},${my}) scale(${s})` });
    const inner = el('g', { class: 'floater-inner' });
    const big = el('text', { class: 'floater-points', 'text-anchor': 'middle', y: 0, fill: c.fill,
      stroke: '#fff' });
    big.textContent = text;
    inner.appendChild(big);
    if (caption) {
      const small = el('text', { class: 'floater-caption', 'text-anchor': 'middle', y: 17 });
      small.textContent = caption;
      inner.appendChild(small);
    }
    g.appendChild(inner);
    this.layers.floaters.appendChild(g);
    setTimeout(() => g.remove(), 2900);
  }
}
