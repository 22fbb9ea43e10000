/**
 * Keeping the match current: the REST snapshot, the socket's ``snapshot`` / ``events`` /
 * ``presence`` / ``error`` frames in version order (a gap asks for what was missed), a full
 * resync, and the history of earlier turns for the log.
 *
 * A frame updates the model at once; the screen is drawn at most once per animation frame
 * (``scheduleDraw``), however many frames came in between. Drawing a batch in full costs far
 * more than applying it (on a phone, more than the time between two fast moves): a page that
 * drew every frame as it came fell ever further behind a fast match (the "client falling
 * minutes behind" of the "Nothing freezes" issue).
 */

import * as api from '../api.js';
import { toast } from '../dom.js';
import { t } from '../i18n.js';
import { MAX_LOG } from './state.js';
import { adoptClock, applyClock, forGood, renderClockUI } from './clock.js';

/** Milliseconds a view left incomplete by a catch-up waits for its end before a REST reload. */
const PARTIAL_WAIT_MS = 2000;

/** A hidden tab gets no animation frames: it draws after this many ms instead (or later). */
const DRAW_FALLBACK_MS = 250;
/** The most batches a drawn frame celebrates (floating points, highlights): the latest ones. */
const CELEBRATE_BATCHES = 3;

/**
 * Draw the match once soon (the next animation frame): the board, panel, tray and log as they
 * are then, and what ``events`` (one live batch's engine events, if given) brought — its
 * celebration and sound — together with every other batch applied since the last drawing.
 */
export function scheduleDraw(m, events = null) {
  if (events) m.news.push(events);
  if (m.draw) return;
  const run = () => drawNow(m);
  m.draw = { frame: requestAnimationFrame(run), timer: setTimeout(run, DRAW_FALLBACK_MS) };
}

/** Draw now what ``scheduleDraw`` asked for (nothing when no drawing is due). */
export function drawNow(m) {
  const due = m.draw;
  if (!due) return;
  m.draw = null;
  cancelAnimationFrame(due.frame);
  clearTimeout(due.timer);
  if (!m.alive || !m.match) return;
  // A catch-up still on its way: its last batch brings the whole view and draws it.
  if (m.partial) return;
  const news = m.news;
  m.news = [];
  if (m.logDirty) m.renderLog();
  m.render();
  if (m.clockDirty) {
    m.clockDirty = false;
    renderClockUI(m);
  }
  if (news.length) {
    m.celebrate(news.slice(-CELEBRATE_BATCHES).flat());
    m.attend(news[news.length - 1]);
  }
}

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
  m.news = []; // the batches still waiting to be drawn are in this view: drawn, not celebrated
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
    if (!d.delta) {
      m.partial = true;
      // A catch-up ends with the whole view; one whose end does not come soon (the socket
      // dropped in between) is fetched whole over REST instead of waiting for the next move.
      const at = v;
      setTimeout(() => { if (m.alive && m.partial && m.version === at) resync(m); }, PARTIAL_WAIT_MS);
    } else if (m.partial) resync(m); // a live batch on a view left incomplete: fetch it whole
  }
  // Draw (and celebrate) whenever the view is whole: a live batch or a catch-up's last.
  const whole = !m.partial && !!(d.state || d.delta);
  const pig = events.filter((e) => e.type === 'PigMoved');
  // Batches drawn in one frame move the pig by all their steps.
  if (pig.length && whole) m.ui.pigSteps = (m.ui.pigSteps || 0) + pig.reduce((a, e) => a + e.steps, 0);
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
  // Such a seat may count as having left: the end screen then waits for the server's verdict.
  if (d.by === 'computer') m.ui.computerPlayed = true;
  if (d.by === 'computer' && whole && d.delta) sayComputerTurn(m, d);
  m.addLog(events, { quiet: !whole, auto: d.by === 'computer' || (d.action_id == null && !(m.match.seats[d.seat] || {}).bot), defer: true });
  if (d.clock) {
    adoptClock(m, d.clock);
    m.clockDirty = true;
  }
  // In a catch-up only the last batch carries the state: draw once, at the end.
  if (whole) scheduleDraw(m, events);
}

/**
 * Tell everyone at once when the computer plays a person's turn because their time ran out
 * (or they were gone past the abandon timeout): a toast (read out by screen readers), once per
 * turn — the tile and the follower decision are two batches. A seat the computer already holds
 * (handed over) is not news at every move; the moment a second time-out hands it over is.
 * Called for a live batch before its clock is adopted (``m.match.clock`` is the one before).
 */
function sayComputerTurn(m, d) {
  const seat = d.seat;
  const seatInfo = m.match.seats[seat] || {};
  if (seatInfo.bot) return;
  const before = m.match.clock;
  if (before && before.auto && before.auto[seat]) return;
  const s = m.match.state || {};
  const turn = d.delta && typeof d.delta.turn === 'number' ? d.delta.turn : s.turn;
  // ``turn`` moves on with the placement and not with the follower decision after it: both
  // batches of one turn have the same.
  const key = `${turn}:${seat}`;
  if (m.ui.computerTurnSaid === key) return;
  m.ui.computerTurnSaid = key;
  const name = m.names()[seat];
  const mine = m.you() === seat;
  const untimed = !before || !before.control || before.control.kind === 'untimed';
  // The ``skip`` policy skips the timed-out turn (the tile placed, no follower).
  const skipped = !untimed && before.policy && before.policy.kind === 'skip' && before.running === seat;
  let text = untimed ? t(mine ? 'clock.awayPlayedYou' : 'clock.awayPlayed', { name })
    : skipped ? t(mine ? 'clock.skippedYou' : 'clock.skipped', { name })
      : t(mine ? 'clock.timeUpYou' : 'clock.timeUp', { name });
  if (d.clock && d.clock.auto && d.clock.auto[seat]) {
    const kept = forGood(d.clock, seat);
    text += ` ${t(mine ? (kept ? 'clock.handedOverForGoodYou' : 'clock.handedOverYou') : (kept ? 'clock.handedOverForGood' : 'clock.handedOver'), { name })}`;
  }
  toast(text, mine ? 'error' : 'info', 6000);
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
      // Refused for now (too many frames or actions): the same action again after the wait
      // the server names; nothing to tell the player unless that keeps failing.
      if ((e.code === 'rate_limited' || e.code === 'unavailable') && e.id && m.retryAction(e.id, e.retry_after)) break;
      // A refused action names itself (``id``); a refusal without one (a ping, a sync, a chat
      // line over the frame limit) is not about the action we wait for.
      const mineFailed = m.ui.pending && (e.id ? e.id === m.ui.pending.id : e.code !== 'rate_limited');
      if (mineFailed) m.clearPending();
      if (e.code === 'stale_version') {
        if (!m.socket || !m.socket.send({ t: 'sync', since: m.version })) resync(m);
        toast(api.friendly({ ...e, code: e.code }), 'info');
      } else {
        // Through the catalogue by its reason or code (English may keep the server's own words).
        toast(api.friendly({ ...e, code: e.code || 'unknown' }), 'error');
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
      if (b.by === 'computer') m.ui.computerPlayed = true;
      m.addLog(b.events || [], { quiet: true, auto: b.by === 'computer' || (b.action_id == null && !(m.match.seats[b.seat] || {}).bot) });
    }
    m.logItems = [...live, ...m.logItems].slice(0, MAX_LOG);
    m.renderLog();
    m.render();
  } catch { /* the log starts empty; the game itself is fine */ }
}
