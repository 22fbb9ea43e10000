/**
 * The feature highlight (a player aid, docs/API.md § Aids) on the board: hovering a follower, or
 * any segment of a placed tile, outlines the whole feature — its tiles, a dot on each of its
 * segments, its owners' colour and what it is worth now. The features come from the server
 * (every feature of the board, as ``[x, y, spot]`` parts); the segment under the pointer is the
 * one whose follower spot is nearest, within the tile's cell.
 *
 * World units as in ./board.js (one tile 100 × 100, cell (x, y) at [100x, 100y]).
 */

import { svgEl as el, spotPoint } from './tiles.js';
import { colourOf } from './pieces.js';
import { T } from './boardView.js';
import { t } from '../i18n.js';

const cellKey = (x, y) => `${x},${y}`;

export class FeatureHighlight {
  /** ``board``: the Board (its svg, layers.feature, tiles, clientToWorld, gesture state). */
  constructor(board) {
    this.board = board;
    this.features = [];
    this.featureParts = new Map(); // "x,y" → [{spot, feature}]
    this.featureShown = null;
    board.layers.followers.addEventListener('pointerover', (e) => {
      const g = e.target.closest && e.target.closest('[data-follower]');
      if (g) this.showFeatureOf(g.dataset.follower);
    });
    board.layers.followers.addEventListener('pointerout', () => this.showFeatureOf(null));
    board.svg.addEventListener('pointermove', (e) => this.hoverSegment(e));
    board.svg.addEventListener('pointerleave', () => this.showFeatureOf(null));
  }

  /**
   * The board's features (the aid's ``features``: [{kind, parts: [[x, y, spot]], tiles,
   * followers: [{seat, at, spot}], owners, value, complete}]); ``colours``: seat → colour name.
   */
  set(features, colours) {
    this.features = features || [];
    this.featureColours = colours;
    this.featureParts = new Map();
    for (const f of this.features) {
      for (const [x, y, spot] of f.parts || []) {
        const key = cellKey(x, y);
        if (!this.featureParts.has(key)) this.featureParts.set(key, []);
        this.featureParts.get(key).push({ spot, feature: f });
      }
    }
    this.board.svg.classList.toggle('has-features', this.features.length > 0);
    if (this.featureShown) {
      // The same feature in the new data (it may have grown or changed its value).
      const [x, y, spot] = this.featureShown.parts[0];
      const part = (this.featureParts.get(cellKey(x, y)) || []).find((p) => p.spot === spot);
      this.showFeature(part ? part.feature : null);
    }
  }

  /**
   * The segment under the pointer: in the placed tile's cell, the part whose follower spot is
   * nearest (a cheap hit test: spots sit inside their segments). Followers have their own hover.
   */
  hoverSegment(e) {
    if (!this.features.length || this.board.dragged || this.board.gesture?.kind === 'pinch') return;
    if (e.target.closest && e.target.closest('[data-follower]')) return;
    const [wx, wy] = this.board.clientToWorld(e.clientX, e.clientY);
    const x = Math.floor(wx / T);
    const y = Math.floor(wy / T);
    const placed = this.board.tiles.get(cellKey(x, y));
    const parts = placed ? this.featureParts.get(cellKey(x, y)) : null;
    if (!parts) {
      this.showFeature(null);
      return;
    }
    let best = null;
    let bestD = Infinity;
    for (const part of parts) {
      const [px, py] = spotPoint(placed.tile, part.spot, placed.rotation);
      const d = Math.hypot(wx - (x * T + px), wy - (y * T + py));
      if (d < bestD) [best, bestD] = [part.feature, d];
    }
    if (best !== this.featureShown) this.showFeature(best);
  }

  /** Outline the feature of the follower ``key`` ("x,y spot"); null: none. */
  showFeatureOf(key) {
    if (!key) {
      this.showFeature(null);
      return;
    }
    const [cell, spot] = key.split(' ');
    const part = (this.featureParts.get(cell) || []).find((p) => p.spot === spot);
    this.showFeature(part ? part.feature : null);
  }

  /**
   * Outline feature ``f`` (an entry of ``setFeatures``): its tiles in its first owner's colour
   * (a neutral yellow when unoccupied), a dot on each of its segments, its value; null: none.
   */
  showFeature(f) {
    const layer = this.board.layers.feature;
    while (layer.firstChild) layer.firstChild.remove();
    this.featureShown = f;
    delete this.board.svg.dataset.feature;
    delete this.board.svg.dataset.featureOwners;
    if (!f) return;
    // Unoccupied: a bright ink for the outline (the board is dark around the tiles), a dark
    // one for the value's text (it has a white halo).
    const owned = f.owners.length > 0;
    const colour = owned ? colourOf((this.featureColours || [])[f.owners[0]]).fill : '#ffd84a';
    for (const [x, y] of f.tiles) {
      layer.appendChild(el('rect', { class: 'feature-cell', x: x * T + 3, y: y * T + 3, width: T - 6, height: T - 6, rx: 5,
        stroke: colour }));
    }
    for (const [x, y, spot] of f.parts || []) {
      const placed = this.board.tiles.get(cellKey(x, y));
      if (!placed) continue;
      const [px, py] = spotPoint(placed.tile, spot, placed.rotation);
      layer.appendChild(el('circle', { class: 'feature-part', cx: x * T + px, cy: y * T + py, r: 6, fill: colour }));
    }
    this.board.svg.dataset.feature = `${f.kind}:${f.value}`;
    this.board.svg.dataset.featureOwners = f.owners.join(',');
    const [x, y] = f.tiles[0];
    const label = el('text', { class: 'feature-value', x: x * T + 50, y: y * T + 18, 'text-anchor': 'middle',
      fill: owned ? colour : '#3b3226' });
    label.textContent = t('aids.featureValue', { kind: t(`aids.kind.${f.kind}`), n: f.value });
    layer.appendChild(label);
  }
}
