/**
 * Keeping the match current: the REST snapshot, the socket's ``snapshot`` / ``events`` /
 * ``presence`` / ``error`` frames in version order (a gap asks for what was missed), a full
 * resync, and the history of earlier turns for the log.
 */

import * as api from '../api.js';
import { toast } from '../dom.js';
import { MAX_LOG } from './state.js';
import { applyClock } from './clock.js';

/** Fetch the whole match over REST and adopt it unless the socket has already brought newer. */
export async function resync(m) {
  try {
    const data = await api.getMatch(m.matchId, m.code);
    if (!m.alive) return;
    if (data.version >= m.version) applySnapshot(m, data.version, data);
  } catch (err) {
    toast(api.friendly(err), 'error');
  }
}

/** Adopt a whole match (``data``, at version ``v``): REST load, resync or a ``snapshot`` frame. */
export function applySnapshot(m, v, data) {
  const prevYou = m.match ? m.match.you : undefined;
  m.match = data;
  if (data.you === undefined && prevYou !== undefined) m.match.you = prevYou;
  m.version = v ?? data.version;
  if (m.ui.pending) m.clearPending();
  m.render();
  applyClock(m, data.clock);
}

/** Apply one ``events`` frame (version ``v``, body ``d``); a gap in versions asks for a sync. */
export function applyEvents(m, v, d) {
  if (v <= m.version) return;
  if (m.version >= 0 && v > m.version + 1) {
    // A gap: ask for what we missed instead of skipping it.
    if (!m.socket || !m.socket.send({ t: 'sync', since: m.version })) resync(m);
    return;
  }
  m.version = v;
  m.match.version = v;
  if (d.state) m.match.state = d.state;
  const events = d.events || [];
  const pig = events.filter((e) => e.type === 'PigMoved');
  if (pig.length && d.state) m.ui.pigSteps = pig.reduce((a, e) => a + e.steps, 0);
  for (const e of events) {
    if (e.type === 'TilePlaced') {
      m.lastPlaced = { at: e.at, seat: e.seat };
      m.lastBySeat[e.seat] = e.at;
    }
    if (e.type === 'GameEnded') {
      m.match.status = 'finished';
      m.ui.justEnded = true;
    }
  }
  if (m.ui.pending && (d.action_id === m.ui.pending.id || m.ui.pending.v < v)) m.clearPending();
  // The computer chose for a person (``by``: a time-out, a seat handed over, a Plague timeout).
  m.addLog(events, { quiet: !d.state, auto: d.by === 'computer' || (d.action_id == null && !(m.match.seats[d.seat] || {}).bot) });
  // In a catch-up only the last batch carries the state: draw once, at the end.
  if (d.state) {
    m.render();
    m.celebrate(events);
    m.attend(events);
  }
  if (d.clock) applyClock(m, d.clock);
}

/** Handle one frame of the match socket. */
export function onMessage(m, msg) {
  if (!m.alive) return;
  switch (msg.t) {
    case 'snapshot':
      applySnapshot(m, msg.v, msg.d);
      break;
    case 'events':
      if (!m.match) return;
      applyEvents(m, msg.v, msg.d || {});
      break;
    case 'clock':
      applyClock(m, msg.d);
      break;
    case 'presence': {
      if (!m.match || !msg.d) return;
      for (const p of msg.d.seats || []) {
        const seat = m.match.seats.find((s) => s.seat === p.seat) || m.match.seats[p.seat];
        if (seat) seat.connected = p.connected;
      }
      if (msg.d.spectators !== undefined) m.match.spectators = msg.d.spectators;
      m.renderPlayers();
      // The server had sent a later version than we hold: fetch what we missed.
      if (typeof msg.v === 'number' && m.version >= 0 && msg.v > m.version) {
        if (!m.socket || !m.socket.send({ t: 'sync', since: m.version })) resync(m);
      }
      break;
    }
    case 'error': {
      const e = msg.d || {};
      const mineFailed = m.ui.pending && (!e.id || e.id === m.ui.pending.id);
      if (mineFailed) m.clearPending();
      if (e.code === 'stale_version') {
        if (!m.socket || !m.socket.send({ t: 'sync', since: m.version })) resync(m);
        toast(api.friendly({ message: e.message, code: e.code }), 'info');
      } else {
        // Through the catalogue by its code (English keeps the server's own words).
        toast(api.friendly({ message: e.message, code: e.code || 'unknown' }), 'error');
      }
      m.render();
      break;
    }
    default:
      break;
  }
}

/** Fill the log with the turns played before we arrived (GET events?since=0). */
export async function loadHistory(m) {
  const upTo = m.version;
  try {
    const data = await api.matchEvents(m.matchId, 0, m.code);
    if (!m.alive) return;
    const all = [];
    const batches = [];
    // Batches after ``upTo`` arrive (or arrived) on the socket and are logged from there.
    for (const b of data.batches || []) {
      if (b.v === undefined || b.v <= upTo) {
        all.push(...(b.events || []));
        batches.push(b);
      }
    }
    for (let i = all.length - 1; i >= 0; i -= 1) {
      if (all[i].type === 'TilePlaced') {
        m.lastPlaced = m.lastPlaced || { at: all[i].at, seat: all[i].seat };
        break;
      }
    }
    // Each player's last placement (batches that arrived live meanwhile are newer).
    const earlier = {};
    for (const e of all) if (e.type === 'TilePlaced') earlier[e.seat] = e.at;
    m.lastBySeat = { ...earlier, ...m.lastBySeat };
    const live = m.logItems;
    m.logItems = [];
    // The setup's events (the first draw; the Wheel of Fortune pig's first move) come first.
    if (data.opening && data.opening.length) m.addLog(data.opening, { quiet: true, auto: false });
    for (const b of batches) { // one action's events each
      m.addLog(b.events || [], { quiet: true, auto: b.by === 'computer' || (b.action_id == null && !(m.match.seats[b.seat] || {}).bot) });
    }
    m.logItems = [...live, ...m.logItems].slice(0, MAX_LOG);
    m.renderLog();
    m.render();
  } catch { /* the log starts empty; the game itself is fine */ }
}
