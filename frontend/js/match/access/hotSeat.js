/**
 * Hot-seat: several people playing one match on this device while the other seats play from
 * theirs. The people this device seated (localSeats.js) are found in the match by asking it
 * with their tokens; on their turns the screen acts for them (model.you(), play.js sends with
 * their token). When the turn passes from one of them to another, a cover hides the screen —
 * "Pass the device to Cat" — until Cat taps "Show my turn", so nobody sees the next player's
 * tile before they hold the device.
 */

import * as api from '../../api.js';
import { LiveSocket } from '../../socket.js';
import * as localSeats from '../../stored/localSeats.js';
import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** Find which seats the people this device seated at ``match``'s table hold. */
export async function loadLocalSeats(m, match) {
  const people = localSeats.at(match.lobby_code);
  if (!people.length) return;
  const found = new Map();
  await Promise.all(people.map(async (p) => {
    try {
      const theirs = await api.get(`/api/matches/${encodeURIComponent(m.matchId)}`,
        { query: { code: m.code }, token: p.token });
      if (typeof theirs.you === 'number' && theirs.you !== match.you) found.set(theirs.you, p);
    } catch { /* they left, or their identity is gone: not played here */ }
  }));
  m.model.setLocalSeats(found);
  // Each of them keeps a socket open (whose frames this screen need not read): their seats count
  // as present, so the leave countdown never hands them to the computer.
  m.ui.presenceSockets = [...found.values()].map((p) => new LiveSocket(() => api.wsUrl(
    `/ws/matches/${encodeURIComponent(m.matchId)}`, { token: p.token, code: m.code }), {}));
}

/** After each render: cover the screen when the device must pass to another of its players. */
export function watchHandover(m) {
  if (m.model.deviceSeats().length < 2) return;
  const seat = m.model.you();
  const over = m.model.isOver();
  if (over || seat === m.ui.handedTo || !m.model.myTurn()) {
    if (over) removeCover(m);
    return;
  }
  m.ui.handedTo = seat;
  showCover(m, seat);
}

function removeCover(m) {
  const cover = document.getElementById('handover-cover');
  if (cover) cover.remove();
  m.ui.covered = false;
}

function showCover(m, seat) {
  removeCover(m);
  const name = m.model.names()[seat];
  const ready = h('button.btn.primary.big#handover-ready', { type: 'button',
    onclick: () => {
      removeCover(m);
      const first = document.querySelector('#text-board:not([hidden]) select') || m.board.svg;
      if (first) first.focus();
    } }, t('hotseat.ready', { name }));
  const cover = h('div.handover-cover#handover-cover', { role: 'dialog', 'aria-modal': 'true',
    'aria-labelledby': 'handover-title' },
  h('div.handover-card', {},
    h('h2#handover-title', t('hotseat.pass', { name })),
    h('p', t('hotseat.why')),
    ready));
  document.body.appendChild(cover);
  m.ui.covered = true;
  ready.focus();
}

/** The screen is going away: no cover left behind, their sockets closed. */
export function dropCover(m) {
  removeCover(m);
  for (const socket of m.ui.presenceSockets || []) socket.close();
}
