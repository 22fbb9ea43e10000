/**
 * Playing a turn: choosing a cell and a rotation, placing, deploying, passing, the Plague choice,
 * and sending the action (socket first, REST as the fallback, one client action id per action so
 * a retry never applies twice).
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { toast } from '../dom.js';
import { cellKey } from '../board.js';
import { t } from '../i18n.js';

/** The pointer is over cell (x, y) (x null: left the board): preview the tile there. */
export function hoverCell(m, x, y) {
  if (!m.myTurn() || m.state().phase !== 'place_tile') return;
  const key = x === null ? null : cellKey(x, y);
  if (key === m.ui.hover) return;
  m.ui.hover = key && m.legalCells().has(key) ? key : null;
  if (!m.ui.selected) {
    m.renderInteraction();
    const hint = m.dom.tray.querySelector('.tray-hint');
    if (hint) {
      hint.textContent = m.ui.hover && !m.fits(m.ui.hover, m.ui.rotation)
        ? t('match.noFit')
        : t('match.chooseSquare', { n: m.legalCells().size });
    }
  }
}

/** Choose cell (x, y) for the drawn tile (again: rotate it); the first rotation that fits. */
export function selectCell(m, x, y) {
  if (!m.myTurn() || m.state().phase !== 'place_tile' || m.ui.pending) return;
  const key = cellKey(x, y);
  const cells = m.legalCells();
  if (!cells.has(key)) return;
  if (m.ui.selected === key) {
    rotate(m, 1);
    return;
  }
  m.ui.selected = key;
  m.ui.cursor = key;
  if (!m.fits(key, m.ui.rotation)) m.ui.rotation = m.nextFit(key, m.ui.rotation, 1);
  m.renderInteraction();
  m.renderTray();
}

/** Rotate the drawn tile by ``dir`` quarter turns (±1), among the fitting ones once a cell is chosen. */
export function rotate(m, dir) {
  if (!m.myTurn() || m.state().phase !== 'place_tile' || m.ui.pending) return;
  if (m.ui.selected) {
    const next = m.nextFit(m.ui.selected, m.ui.rotation + dir * 90, dir);
    // Only one way fits: the tray says so in place (no popup over the board, every time).
    m.ui.onlyWayNudge = next === m.ui.rotation && m.legalCells().get(m.ui.selected).length === 1;
    m.ui.rotation = next;
  } else {
    m.ui.rotation = (((m.ui.rotation + dir * 90) % 360) + 360) % 360;
  }
  m.renderInteraction();
  m.renderTray();
  const only = m.ui.onlyWayNudge && m.dom.tray.querySelector('.tray-only-way');
  if (only) only.classList.add('nudge');
  m.ui.onlyWayNudge = false;
}

/** Forget the chosen cell. */
export function cancelSelection(m) {
  m.ui.selected = null;
  m.renderInteraction();
  m.renderTray();
}

/** Place the drawn tile on the chosen cell in the current rotation. */
export function confirmPlacement(m) {
  const key = m.ui.selected;
  if (!key || !m.fits(key, m.ui.rotation)) return;
  const [x, y] = key.split(',').map(Number);
  sendAction(m, { type: 'place_tile', at: [x, y], rotation: m.ui.rotation });
}

/** Deploy on ``spot`` (a follower target) or, during the Plague, take back the follower ``spot`` names. */
export function pickSpot(m, spot) {
  const s = m.state();
  if (spot.startsWith('plague:') && m.myTurn() && s.phase === 'plague' && !m.ui.pending) {
    const [, xy, ...rest] = spot.split(':');
    const [x, y] = xy.split(',').map(Number);
    sendAction(m, { type: 'plague', at: [x, y], spot: rest.join(':') });
    return;
  }
  if (!m.myTurn() || s.phase !== 'deploy' || m.ui.pending) return;
  if (!(s.legal_spots || []).includes(spot)) return;
  sendAction(m, { type: 'place_follower', spot });
}

/** No follower: end the turn. */
export function pass(m) {
  if (!m.myTurn() || m.state().phase !== 'deploy' || m.ui.pending) return;
  sendAction(m, { type: 'pass' });
}

/** Send action ``d`` (socket, REST after 6 s without an answer); the tray shows "Sending…" meanwhile. */
export function sendAction(m, d) {
  m.actionSeq += 1;
  const id = `c-${session.player()?.id?.slice?.(0, 6) || 'x'}-${Date.now().toString(36)}-${m.actionSeq}`;
  m.ui.pending = { id, d, v: m.version };
  const frame = { t: 'action', v: m.version, id, d };
  const viaSocket = m.socket && m.socket.send(frame);
  clearTimeout(m.ui.pendingTimer);
  // No answer on the socket in time (or no socket): the same action over REST; the client
  // action id makes the server return the first result instead of applying it twice.
  m.ui.pendingTimer = setTimeout(() => sendRest(m, frame), viaSocket ? 6000 : 0);
  m.renderInteraction();
  m.renderTray();
}

/** The same action frame over REST (the client action id makes a repeat harmless). */
export async function sendRest(m, frame) {
  if (!m.ui.pending || m.ui.pending.id !== frame.id) return;
  try {
    await api.postAction(m.matchId, { v: frame.v, id: frame.id, d: frame.d }, m.code);
    if (m.ui.pending && m.ui.pending.id === frame.id) await m.resync();
  } catch (err) {
    if (m.ui.pending && m.ui.pending.id === frame.id) {
      clearPending(m);
      toast(api.friendly(err), 'error');
      if (err.code === 'stale_version' || err.code === 'wrong_phase' || err.code === 'not_your_turn') m.resync();
      else m.render();
    }
  }
}

/** No action is in flight any more. */
export function clearPending(m) {
  clearTimeout(m.ui.pendingTimer);
  m.ui.pending = null;
}
