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
  // A snapshot sent to every socket (a catch-up too far behind, a match ended early) has no
  // seat: a player stays the player.
  if (data.you == null && prevYou != null) m.match.you = prevYou;
  m.version = v ?? data.version;
  m.partial = false;
  if (m.ui.pending) m.clearPending();
  m.render();
  applyClock(m, data.clock);
}

/**
 * Bring the held view forward by one live batch (docs/API.md § Frames): add the placed tiles
 * of its events to the board, set the changed ``remaining`` counts (0: gone), set the rest.
 */
export function applyDelta(state, events, delta) {
  for (const e of events) {
    if (e.type === 'TilePlaced') state.board.push({ at: e.at, tile: e.tile, rotation: e.rotation });
  }
  for (const [key, value] of Object.entries(delta || {})) {
    if (key === 'remaining') {
      for (const [tile, count] of Object.entries(value)) {
        if (count) state.remaining[tile] = count;
        else delete state.remaining[tile];
      }
    } else if (key === 'wheel') {
      state.wheel = { ...(state.wheel || {}), ...value };
    } else {
      state[key] = value;
    }
  }
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
  const events = d.events || [];
  if (d.state) {
    // The whole view: the last batch of a catch-up.
    m.match.state = d.state;
    m.partial = false;
  } else if (m.match.state) {
    // A live batch brings what changed; a catch-up's earlier batches only their events, and
    // the view is whole again with the last one (which carries ``state``).
    applyDelta(m.match.state, events, d.delta || {});
    if (!d.delta) m.partial = true;
    else if (m.partial) resync(m); // a live batch on a view left incomplete: fetch it whole
  }
  // Draw (and celebrate) whenever the view is whole: a live batch or a catch-up's last.
  const whole = !m.partial && !!(d.state || d.delta);
  const pig = events.filter((e) => e.type === 'PigMoved');
  if (pig.length && whole) m.ui.pigSteps = pig.reduce((a, e) => a + e.steps, 0);
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
  m.addLog(events, { quiet: !whole, auto: d.by === 'computer' || (d.action_id == null && !(m.match.seats[d.seat] || {}).bot) });
  // In a catch-up only the last batch carries the state: draw once, at the end.
  if (whole) {
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
