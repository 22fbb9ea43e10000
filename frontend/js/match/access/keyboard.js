/**
 * Keyboard play: arrows move between legal cells (or follower targets), R rotates, Enter
 * previews/places/confirms, N = no follower, Esc cancels, + / − zoom, C centres, T turns the
 * text board (./textBoard.js) on or off.
 */

import { cellKey } from '../../board/board.js';
import { playableCells } from '../ui.js';
import { phaseOf } from '../../expansions/index.js';

/** Move the keyboard cursor to the nearest legal cell in direction (dx, dy). */
export function moveCursor(m, dx, dy) {
  const cells = [...playableCells(m).keys()].map((k) => k.split(',').map(Number));
  if (!cells.length) return;
  let from = m.ui.cursor ? m.ui.cursor.split(',').map(Number) : null;
  if (!from) {
    const anchor = m.model.lastPlaced ? m.model.lastPlaced.at : [0, 0];
    cells.sort((a, b) => Math.hypot(a[0] - anchor[0], a[1] - anchor[1]) - Math.hypot(b[0] - anchor[0], b[1] - anchor[1]));
    m.ui.cursor = cellKey(...cells[0]);
  } else {
    let best = null;
    let bestScore = Infinity;
    for (const c of cells) {
      const along = (c[0] - from[0]) * dx + (c[1] - from[1]) * dy;
      const across = Math.abs((c[0] - from[0]) * dy) + Math.abs((c[1] - from[1]) * dx);
      if (along <= 0) continue;
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = c;
      }
    }
    if (best) m.ui.cursor = cellKey(...best);
  }
  from = m.ui.cursor.split(',').map(Number);
  m.ui.hover = m.ui.selected ? m.ui.hover : m.ui.cursor;
  m.board.reveal(from[0], from[1]);
  m.hooks.renderInteraction();
}

/** Focus the next (``dir`` = 1) or previous follower target. */
export function cycleSpot(m, dir) {
  const s = m.model.state();
  const phase = phaseOf(m.model, s.phase);
  const spots = phase && phase.spots ? phase.spots(m) : (s.legal_spots || []);
  if (!spots.length) return;
  const i = spots.indexOf(m.ui.spotFocus);
  m.ui.spotFocus = spots[(i + dir + spots.length) % spots.length];
  m.hooks.renderInteraction();
}

/** The document keydown handler (ignored in inputs, dialogs and with modifier keys). */
export function onKey(m, e) {
  if (!m.alive) return;
  const tag = (e.target && e.target.tagName) || '';
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag)) return;
  if (m.dom.endLayer.firstChild || m.ui.covered) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const s = m.model.state();
  if (!s) return;
  const key = e.key;
  const onButton = tag === 'BUTTON' || tag === 'A';
  if (key === '+' || key === '=') { m.board.zoomBy(1.25); e.preventDefault(); return; }
  if (key === '-' || key === '_') { m.board.zoomBy(0.8); e.preventDefault(); return; }
  if (key === 'c' || key === 'C') { m.board.centre(); return; }
  if (key === 't' || key === 'T') { m.hooks.toggleTextBoard(); e.preventDefault(); return; }
  // In the text board its own lists and buttons take the keys (./textBoard.js).
  if (m.dom.textBoard && m.dom.textBoard.contains(e.target)) return;
  if (!m.model.myTurn() || m.ui.pending) return;
  if (s.phase === 'place_tile') {
    if (key === 'r' || key === 'R') { m.ui.keyboard = m.ui.keyboard || !!m.ui.cursor; m.hooks.rotate(e.shiftKey ? -1 : 1); e.preventDefault(); return; }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[key]) {
      m.ui.keyboard = true;
      e.preventDefault();
      if (m.ui.selected) { m.ui.selected = null; m.hooks.renderTray(); }
      moveCursor(m, ...dirs[key]);
      return;
    }
    if (key === 'Enter' && !onButton) {
      e.preventDefault();
      if (m.ui.selected) m.hooks.confirmPlacement();
      else if (m.ui.cursor) {
        const [x, y] = m.ui.cursor.split(',').map(Number);
        m.hooks.selectCell(x, y);
      } else {
        m.ui.keyboard = true;
        moveCursor(m, 1, 0);
      }
      return;
    }
    if (key === 'Escape') { m.hooks.cancelSelection(); return; }
  } else if (s.phase === 'deploy' || phaseOf(m.model, s.phase)) {
    if (['ArrowLeft', 'ArrowUp'].includes(key)) { m.ui.keyboard = true; cycleSpot(m, -1); e.preventDefault(); return; }
    if (['ArrowRight', 'ArrowDown'].includes(key)) { m.ui.keyboard = true; cycleSpot(m, 1); e.preventDefault(); return; }
    if (key === 'Enter' && !onButton) {
      e.preventDefault();
      if (m.ui.spotFocus) m.hooks.pickSpot(m.ui.spotFocus);
      else { m.ui.keyboard = true; cycleSpot(m, 1); }
      return;
    }
    if ((key === 'n' || key === 'N') && s.phase === 'deploy') { m.hooks.pass(); }
  }
}
