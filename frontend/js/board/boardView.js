/**
 * The board's viewport and pointer input: pan (drag), zoom (wheel, pinch, buttons), automatic
 * framing ("centre"), focusing a cell or a group of cells, and clicks/hovers on cells, follower
 * spots and the tile preview dispatched to the handlers. ``Board`` (./board.js) extends it with
 * what is drawn.
 *
 * World units: one tile is ``T`` × ``T`` (100); cell (x, y) covers [100x, 100x + 100] ×
 * [100y, 100y + 100] (x east, y south, as on the wire). The view is ``{cx, cy, scale}``: the
 * world point in the middle of the SVG and screen pixels per world unit.
 */

export const T = 100;
const MIN_SCALE = 0.12;
const MAX_SCALE = 3.2;

/** ``"x,y"`` → ``[x, y]`` (numbers). */
export function parseKey(key) {
  const [x, y] = key.split(',').map(Number);
  return [x, y];
}

export class BoardView {
  /**
   * ``host``: the element the ``svg`` fills (the caller appends it). ``handlers``:
   * onCellClick(x, y), onCellHover(x, y | null), onSpotClick(spot), onPreviewClick(),
   * onViewChange(). Call ``start()`` once the subclass has set up what ``cellKeys`` reads.
   */
  constructor(host, svg, handlers = {}) {
    this.host = host;
    this.svg = svg;
    this.handlers = handlers;
    this.view = { cx: 50, cy: 50, scale: 0.9 };
    this.auto = true;
    this.pointers = new Map();
    this.gesture = null;
    this.dragged = false;
    this.size = { w: 800, h: 600 };
  }

  /** Follow the host's size and the pointer, and frame the board once. */
  start() {
    this.resizeObserver = new ResizeObserver(() => this.onResize());
    this.resizeObserver.observe(this.host);
    this.bindPointer();
    this.onResize();
  }

  /** Stop following the host's size and any running animation. */
  stopView() {
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.anim);
  }

  /** The ``"x,y"`` keys of every cell automatic framing must show (the subclass's tiles). */
  cellKeys() {
    return [];
  }

  /** Called after every change of the view (the subclass rescales what depends on zoom). */
  viewChanged() {}

  // ------------------------------------------------------------------ view

  onResize() {
    const r = this.host.getBoundingClientRect();
    this.size = { w: Math.max(50, r.width), h: Math.max(50, r.height) };
    if (this.focus && this.focus.cells) this.focusBox(this.focus.cells, this.focus.minPx, false, true);
    else if (this.focus) this.setView(this.focus, false);
    else if (this.auto) this.fit(false);
    else this.applyView();
  }

  applyView() {
    const { cx, cy, scale } = this.view;
    const w = this.size.w / scale;
    const h = this.size.h / scale;
    this.svg.setAttribute('viewBox', `${cx - w / 2} ${cy - h / 2} ${w} ${h}`);
    this.svg.style.setProperty('--px', String(1 / scale));
    this.viewChanged();
    if (this.handlers.onViewChange) this.handlers.onViewChange();
  }

  setView(v, animate = true) {
    const target = {
      cx: v.cx ?? this.view.cx,
      cy: v.cy ?? this.view.cy,
      scale: Math.min(MAX_SCALE, Math.max(MIN_SCALE, v.scale ?? this.view.scale)),
    };
    cancelAnimationFrame(this.anim);
    const reduce = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (!animate || reduce) {
      this.view = target;
      this.applyView();
      return;
    }
    const from = { ...this.view };
    const start = performance.now();
    const dur = 260;
    const step = (now) => {
      const t = Math.min(1, (now - start) / dur);
      const e = 1 - (1 - t) ** 3;
      this.view = {
        cx: from.cx + (target.cx - from.cx) * e,
        cy: from.cy + (target.cy - from.cy) * e,
        scale: from.scale * (target.scale / from.scale) ** e,
      };
      this.applyView();
      if (t < 1) this.anim = requestAnimationFrame(step);
    };
    this.anim = requestAnimationFrame(step);
  }

  /** Show every tile and legal cell, as large as fits (at most ~150 px per tile). */
  fit(animate = true) {
    this.focus = null;
    const keys = this.cellKeys();
    if (!keys.length) keys.push('0,0');
    let minX = Infinity; let minY = Infinity; let maxX = -Infinity; let maxY = -Infinity;
    for (const k of keys) {
      const [x, y] = parseKey(k);
      minX = Math.min(minX, x); minY = Math.min(minY, y);
      maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    }
    // Keep clear of the zoom buttons on the right edge.
    const inset = { left: 14, right: this.size.w > 500 ? 66 : 58, top: 14, bottom: 14 };
    const availW = Math.max(60, this.size.w - inset.left - inset.right);
    const availH = Math.max(60, this.size.h - inset.top - inset.bottom);
    const wCells = maxX - minX + 1.3;
    const hCells = maxY - minY + 1.3;
    const scale = Math.min(availW / (wCells * T), availH / (hCells * T), 1.5);
    const shiftX = (inset.right - inset.left) / 2 / scale;
    const shiftY = (inset.bottom - inset.top) / 2 / scale;
    this.setView({ cx: ((minX + maxX + 1) / 2) * T + shiftX, cy: ((minY + maxY + 1) / 2) * T + shiftY, scale }, animate);
  }

  /** The "centre" button: back to automatic framing. */
  centre() {
    this.auto = true;
    this.fit(true);
  }

  zoomBy(factor, clientX, clientY) {
    this.auto = false;
    this.focus = null;
    cancelAnimationFrame(this.anim);
    const rect = this.svg.getBoundingClientRect();
    const px = clientX ?? rect.left + rect.width / 2;
    const py = clientY ?? rect.top + rect.height / 2;
    const [wx, wy] = this.clientToWorld(px, py);
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.view.scale * factor));
    // Keep the world point under the cursor fixed.
    const ox = (px - rect.left - rect.width / 2) / scale;
    const oy = (py - rect.top - rect.height / 2) / scale;
    this.setView({ cx: wx - ox, cy: wy - oy, scale }, false);
  }

  panBy(dxPx, dyPx) {
    this.auto = false;
    this.setView({ cx: this.view.cx - dxPx / this.view.scale, cy: this.view.cy - dyPx / this.view.scale }, false);
  }

  clientToWorld(clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    const { cx, cy, scale } = this.view;
    return [cx + (clientX - rect.left - rect.width / 2) / scale, cy + (clientY - rect.top - rect.height / 2) / scale];
  }

  /**
   * Bring cell (x, y) close enough to pick a follower spot on it: at least ``minPx`` pixels
   * per tile, centred. Automatic framing resumes with the next tile when it was on.
   */
  focusCell(x, y, minPx = 190) {
    const tilePx = this.view.scale * T;
    const rect = this.svg.getBoundingClientRect();
    const fitsPx = Math.min(rect.width, rect.height) * 0.8;
    const want = Math.min(minPx, fitsPx);
    if (tilePx >= want * 0.95) {
      this.reveal(x, y);
      return;
    }
    // Remembered so a resize (the tray changing height) keeps the tile in the middle.
    this.focus = { cx: x * T + T / 2, cy: y * T + T / 2, scale: want / T };
    this.setView(this.focus);
  }

  /**
   * Frame all of ``cells`` ([[x, y], ...]) if that still gives at least ``minPx`` pixels per
   * tile (e.g. the tile just placed and the wheel, to pick a follower spot or a crown space);
   * returns false, changing nothing, when they do not fit that large.
   */
  focusBox(cells, minPx = 150, animate = true, resized = false) {
    if (!cells.length) return false;
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const rect = this.svg.getBoundingClientRect();
    const cols = Math.max(...xs) - Math.min(...xs) + 1.2;
    const rows = Math.max(...ys) - Math.min(...ys) + 1.2;
    const scale = Math.min(rect.width / (cols * T), rect.height / (rows * T), 2.2);
    // After a resize (the tray grew) the box is kept in view even if it gets a little smaller.
    if (scale * T < minPx && !resized) return false;
    // Remembered so a resize (the tray changing height) frames the same cells again.
    this.focus = { cx: ((Math.min(...xs) + Math.max(...xs) + 1) / 2) * T,
      cy: ((Math.min(...ys) + Math.max(...ys) + 1) / 2) * T, scale, cells, minPx };
    this.setView(this.focus, animate);
    return true;
  }

  /** Make sure cell (x, y) is on screen (keyboard navigation). */
  reveal(x, y) {
    const rect = this.svg.getBoundingClientRect();
    const { cx, cy, scale } = this.view;
    const halfW = rect.width / 2 / scale;
    const halfH = rect.height / 2 / scale;
    const mx = x * T + T / 2;
    const my = y * T + T / 2;
    if (Math.abs(mx - cx) > halfW - T * 0.6 || Math.abs(my - cy) > halfH - T * 0.6) {
      this.setView({ cx: mx, cy: my });
    }
  }

  // ------------------------------------------------------------------ input

  bindPointer() {
    const svg = this.svg;
    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== undefined && e.button > 0 && e.pointerType === 'mouse') return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 1) {
        this.dragged = false;
        this.gesture = { kind: 'pan', x: e.clientX, y: e.clientY, cx: this.view.cx, cy: this.view.cy, id: e.pointerId };
      } else if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        this.gesture = { kind: 'pinch', d: Math.hypot(a.x - b.x, a.y - b.y), scale: this.view.scale,
          mid: [(a.x + b.x) / 2, (a.y + b.y) / 2], cx: this.view.cx, cy: this.view.cy };
        this.dragged = true;
      }
    });
    svg.addEventListener('pointermove', (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const g = this.gesture;
      if (!g) return;
      if (g.kind === 'pan' && e.pointerId === g.id) {
        const dx = e.clientX - g.x;
        const dy = e.clientY - g.y;
        if (!this.dragged && Math.hypot(dx, dy) < 6) return;
        if (!this.dragged) {
          this.dragged = true;
          svg.classList.add('dragging');
          try { svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
        }
        this.auto = false;
        this.focus = null;
        this.setView({ cx: g.cx - dx / this.view.scale, cy: g.cy - dy / this.view.scale }, false);
      } else if (g.kind === 'pinch' && this.pointers.size >= 2) {
        const [a, b] = [...this.pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, g.scale * (d / Math.max(1, g.d))));
        const rect = svg.getBoundingClientRect();
        // World point under the starting midpoint stays under the current midpoint.
        const wx = g.cx + (g.mid[0] - rect.left - rect.width / 2) / g.scale;
        const wy = g.cy + (g.mid[1] - rect.top - rect.height / 2) / g.scale;
        const mid = [(a.x + b.x) / 2, (a.y + b.y) / 2];
        this.auto = false;
        this.setView({ cx: wx - (mid[0] - rect.left - rect.width / 2) / scale,
          cy: wy - (mid[1] - rect.top - rect.height / 2) / scale, scale }, false);
      }
    });
    const end = (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size === 0) {
        this.gesture = null;
        svg.classList.remove('dragging');
      } else if (this.pointers.size === 1) {
        const [[id, p]] = [...this.pointers.entries()];
        this.gesture = { kind: 'pan', x: p.x, y: p.y, cx: this.view.cx, cy: this.view.cy, id };
      }
    };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
    svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const factor = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0016));
      this.zoomBy(factor, e.clientX, e.clientY);
    }, { passive: false });
    svg.addEventListener('click', (e) => {
      if (this.dragged) {
        this.dragged = false;
        return;
      }
      const spot = e.target.closest('[data-spot]');
      if (spot && this.handlers.onSpotClick) {
        this.handlers.onSpotClick(spot.dataset.spot);
        return;
      }
      const preview = e.target.closest('.preview.selected');
      if (preview && this.handlers.onPreviewClick) {
        this.handlers.onPreviewClick();
        return;
      }
      const cell = e.target.closest('[data-cell]');
      if (cell && this.handlers.onCellClick) {
        const [x, y] = parseKey(cell.dataset.cell);
        this.handlers.onCellClick(x, y);
      }
    });
    svg.addEventListener('pointerover', (e) => {
      if (e.pointerType !== 'mouse' || this.gesture?.kind === 'pinch' || this.dragged) return;
      const cell = e.target.closest('[data-cell]');
      if (cell && this.handlers.onCellHover) {
        const [x, y] = parseKey(cell.dataset.cell);
        this.handlers.onCellHover(x, y);
      }
    });
    svg.addEventListener('pointerleave', () => {
      if (this.handlers.onCellHover) this.handlers.onCellHover(null, null);
    });
  }
}
