/**
 * Playing a turn: choosing a cell and a rotation, placing, deploying, passing, an expansion
 * phase's choice (the Plague's), and sending the action (socket first, REST as the fallback, one client action id per action so
 * a retry never applies twice).
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { toast } from '../dom.js';
import { cellKey } from '../board/board.js';
import { t } from '../i18n.js';
import { playableCells, fits, nextFit } from './ui.js';
import { phaseOf } from '../expansions/index.js';

/** The pointer is over cell (x, y) (x null: left the board): preview the tile there. */
export function hoverCell(m, x, y) {
  if (!m.model.myTurn() || m.model.state().phase !== 'place_tile') return;
  const key = x === null ? null : cellKey(x, y);
  if (key === m.ui.hover) return;
  m.ui.hover = key && playableCells(m).has(key) ? key : null;
  if (!m.ui.selected) {
    m.hooks.renderInteraction();
    const hint = m.dom.tray.querySelector('.tray-hint');
    if (hint) {
      hint.textContent = m.ui.hover && !fits(m, m.ui.hover, m.ui.rotation)
        ? t('match.noFit')
        : t('match.chooseSquare', { n: playableCells(m).size });
    }
  }
}

/** Choose cell (x, y) for the drawn tile (again: rotate it); the first rotation that fits. */
export function selectCell(m, x, y) {
  if (!m.model.myTurn() || m.model.state().phase !== 'place_tile' || m.ui.pending) return;
  const key = cellKey(x, y);
  const cells = playableCells(m);
  if (!cells.has(key)) return;
  if (m.ui.selected === key) {
    rotate(m, 1);
    return;
  }
  m.ui.selected = key;
  m.ui.cursor = key;
  if (!fits(m, key, m.ui.rotation)) m.ui.rotation = nextFit(m, key, m.ui.rotation, 1);
  m.hooks.renderInteraction();
  m.hooks.renderTray();
}

/** Rotate the drawn tile by ``dir`` quarter turns (±1), among the fitting ones once a cell is chosen. */
export function rotate(m, dir) {
  if (!m.model.myTurn() || m.model.state().phase !== 'place_tile' || m.ui.pending) return;
  if (m.ui.selected) {
    const next = nextFit(m, m.ui.selected, m.ui.rotation + dir * 90, dir);
    // Only one way fits: the tray says so in place (no popup over the board, every time).
    m.ui.onlyWayNudge = next === m.ui.rotation && playableCells(m).get(m.ui.selected).length === 1;
    m.ui.rotation = next;
  } else {
    m.ui.rotation = (((m.ui.rotation + dir * 90) % 360) + 360) % 360;
  }
  m.hooks.renderInteraction();
  m.hooks.renderTray();
  const only = m.ui.onlyWayNudge && m.dom.tray.querySelector('.tray-only-way');
  if (only) only.classList.add('nudge');
  m.ui.onlyWayNudge = false;
}

/** Forget the chosen cell. */
export function cancelSelection(m) {
  m.ui.selected = null;
  m.hooks.renderInteraction();
  m.hooks.renderTray();
}

/** Place the drawn tile on the chosen cell in the current rotation. */
export function confirmPlacement(m) {
  const key = m.ui.selected;
  if (!key || !fits(m, key, m.ui.rotation)) return;
  const [x, y] = key.split(',').map(Number);
  sendAction(m, { type: 'place_tile', at: [x, y], rotation: m.ui.rotation });
}

/**
 * Deploy on ``spot`` (a follower target) or, in an expansion's phase, send the action its target
 * ``spot`` names (the Plague: take back that follower).
 */
export function pickSpot(m, spot) {
  const s = m.model.state();
  const phase = phaseOf(m.model, s.phase);
  const action = phase && phase.pick && m.model.myTurn() && !m.ui.pending ? phase.pick(m, spot) : null;
  if (action) {
    sendAction(m, action);
    return;
  }
  if (!m.model.myTurn() || s.phase !== 'deploy' || m.ui.pending) return;
  if (!(s.legal_spots || []).includes(spot)) return;
  sendAction(m, { type: 'place_follower', spot });
}

/** No follower: end the turn. */
export function pass(m) {
  if (!m.model.myTurn() || m.model.state().phase !== 'deploy' || m.ui.pending) return;
  sendAction(m, { type: 'pass' });
}

/** How many times one action is sent again after a ``rate_limited`` refusal before giving up. */
const MAX_RETRIES = 5;
/** Milliseconds without an answer on the socket before the action goes over REST. */
const SOCKET_ANSWER_MS = 6000;

/** Send action ``d`` (socket, REST after 6 s without an answer); the tray shows "Sending…" meanwhile. */
export function sendAction(m, d) {
  m.ui.actionSeq += 1;
  const id = `c-${session.player()?.id?.slice?.(0, 6) || 'x'}-${Date.now().toString(36)}-${m.ui.actionSeq}`;
  const frame = { t: 'action', v: m.model.version, id, d };
  m.ui.pending = { id, d, v: m.model.version, frame, retries: 0 };
  sendFrame(m, frame);
  m.hooks.renderInteraction();
  m.hooks.renderTray();
}

/** Send the pending action's ``frame`` on the socket, with REST as the fallback. */
function sendFrame(m, frame) {
  // Another person on this device (hot-seat): their action goes with their token, over REST.
  if (m.model.tokenFor(m.model.you())) {
    clearTimeout(m.ui.pendingTimer);
    m.ui.pendingTimer = setTimeout(() => sendRest(m, frame), 0);
    return;
  }
  const viaSocket = m.socket && m.socket.send(frame);
  clearTimeout(m.ui.pendingTimer);
  // No answer on the socket in time (or no socket): the same action over REST; the client
  // action id makes the server return the first result instead of applying it twice.
  m.ui.pendingTimer = setTimeout(() => sendRest(m, frame), viaSocket ? SOCKET_ANSWER_MS : 0);
}

/**
 * The server refused the pending action for now (``rate_limited``: too many frames or actions)
 * and said when to try again (``retry_after`` seconds): send the same frame then (same client
 * action id, so it applies once). ``id``: the refused action's id. False when it is not the
 * pending action or it was refused too often already (the caller reports the refusal).
 */
export function retryAction(m, id, retryAfter) {
  const pending = m.ui.pending;
  if (!pending || pending.id !== id || typeof retryAfter !== 'number' || pending.retries >= MAX_RETRIES) return false;
  pending.retries += 1;
  clearTimeout(m.ui.pendingTimer);
  m.ui.pendingTimer = setTimeout(() => {
    if (m.ui.pending === pending) sendFrame(m, pending.frame);
  }, Math.ceil(retryAfter * 1000));
  return true;
}

/** The same action frame over REST (the client action id makes a repeat harmless). */
export async function sendRest(m, frame) {
  if (!m.ui.pending || m.ui.pending.id !== frame.id) return;
  try {
    await api.postAction(m.matchId, { v: frame.v, id: frame.id, d: frame.d }, m.code, m.model.tokenFor(m.model.you()));
    if (m.ui.pending && m.ui.pending.id === frame.id) await m.hooks.resync();
  } catch (err) {
    const pending = m.ui.pending;
    if (pending && pending.id === frame.id && err.code === 'rate_limited' && err.retryAfter !== null
        && pending.retries < MAX_RETRIES) {
      // Over the action limit: the same request again once the server allows it.
      pending.retries += 1;
      clearTimeout(m.ui.pendingTimer);
      m.ui.pendingTimer = setTimeout(() => sendRest(m, frame), err.retryAfter * 1000);
      return;
    }
    if (m.ui.pending && m.ui.pending.id === frame.id) {
      clearPending(m);
      toast(api.friendly(err), 'error');
      if (err.code === 'stale_version' || err.code === 'wrong_phase' || err.code === 'not_your_turn') m.hooks.resync();
      else m.hooks.render();
    }
  }
}

/** No action is in flight any more. */
export function clearPending(m) {
  clearTimeout(m.ui.pendingTimer);
  m.ui.pending = null;
}
