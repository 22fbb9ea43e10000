/**
 * Keeping the match current: the REST snapshot, the socket's ``snapshot`` / ``events`` /
 * ``clock`` / ``presence`` / ``error`` frames in version order (a gap asks for what was missed),
 * a full resync, and the history of earlier turns for the log. The model (``model.js``) applies
 * what the server sends; this module feeds it, fills gaps and has the screen drawn.
 *
 * A frame updates the model at once; the screen is drawn at most once per animation frame
 * (``scheduleDraw``), however many frames came in between. Drawing a batch in full costs far
 * more than applying it (on a phone, more than the time between two fast moves): a page that
 * drew every frame as it came fell ever further behind a fast match (the "client falling
 * minutes behind" of the "Nothing freezes" issue).
 */

import { onAids } from './aids.js';
import * as api from '../api.js';
import { toast } from '../dom.js';
import { t } from '../i18n.js';
import { MAX_LOG } from './ui.js';
import { forGood, renderClockUI } from './status/clock.js';
import { collect } from '../expansions/index.js';

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
  if (events) m.ui.news.push(events);
  if (m.ui.draw) return;
  const run = () => drawNow(m);
  m.ui.draw = { frame: requestAnimationFrame(run), timer: setTimeout(run, DRAW_FALLBACK_MS) };
}

/** Draw now what ``scheduleDraw`` asked for (nothing when no drawing is due). */
export function drawNow(m) {
  const { ui, hooks } = m;
  const due = ui.draw;
  if (!due) return;
  ui.draw = null;
  cancelAnimationFrame(due.frame);
  clearTimeout(due.timer);
  if (!m.alive || !m.model.match) return;
  // A catch-up still on its way: its last batch brings the whole view and draws it.
  if (m.model.partial) return;
  const news = ui.news;
  ui.news = [];
  if (ui.logDirty) hooks.renderLog();
  hooks.render();
  if (ui.clockDirty) {
    ui.clockDirty = false;
    renderClockUI(m);
  }
  if (news.length) {
    hooks.celebrate(news.slice(-CELEBRATE_BATCHES).flat());
    hooks.attend(news[news.length - 1]);
  }
}

/** Fetch the whole match over REST and adopt it unless the socket has already brought newer. */
export async function resync(m) {
  try {
    const data = await api.getMatch(m.matchId, m.code);
    if (!m.alive) return;
    if (data.version >= m.model.version) applySnapshot(m, data.version, data);
  } catch (err) {
    toast(api.friendly(err), 'error');
  }
}

/** Ask for the versions after the one held: on the socket, else over REST. */
function fillGap(m) {
  if (!m.socket || !m.socket.send({ t: 'sync', since: m.model.version })) resync(m);
}

/** Adopt a whole match (``data``, at version ``v``): REST load, resync or a ``snapshot`` frame. */
export function applySnapshot(m, v, data) {
  m.model.applySnapshot(v, data);
  if (m.ui.pending) m.hooks.clearPending();
  m.ui.news = []; // the batches still waiting to be drawn are in this view: drawn, not celebrated
  m.hooks.render();
  if (data.clock !== undefined) renderClockUI(m);
}

/** Apply one ``events`` frame (version ``v``, body ``d``); a gap in versions asks for a sync. */
export function applyEvents(m, v, d) {
  const { model, ui, hooks } = m;
  const done = model.applyEvents(v, d);
  if (done.kind === 'gap') fillGap(m); // ask for what we missed instead of skipping it
  if (done.kind !== 'applied') return;
  const { events, whole } = done;
  if (done.waitFor !== null) {
    // A catch-up ends with the whole view; one whose end does not come soon (the socket
    // dropped in between) is fetched whole over REST instead of waiting for the next move.
    setTimeout(() => { if (m.alive && model.partial && model.version === done.waitFor) resync(m); }, PARTIAL_WAIT_MS);
  }
  if (done.refetch) resync(m); // a live batch on a view left incomplete: fetch it whole
  if (whole) collect(model, 'onDrawn', m, events);
  if (ui.pending && (d.action_id === ui.pending.id || ui.pending.v < v)) hooks.clearPending();
  // The computer chose for a person (``by``): such a seat may count as having left, and the
  // end screen then waits for the server's verdict (verdict.js asks the model).
  if (d.by === 'computer' && whole && d.delta) sayComputerTurn(m, d, done.clockBefore);
  hooks.addLog(events, { quiet: !whole, auto: d.by === 'computer' || (d.action_id == null && !(model.match.seats[d.seat] || {}).bot), defer: true });
  if (d.clock) ui.clockDirty = true;
  // In a catch-up only the last batch carries the state: draw once, at the end.
  if (whole) scheduleDraw(m, events);
}

/**
 * Tell everyone at once when the computer plays a person's turn because their time ran out
 * (or they were gone past the abandon timeout): a toast (read out by screen readers), once per
 * turn — the tile and the follower decision are two batches. A seat the computer already holds
 * (handed over) is not news at every move; the moment a second time-out hands it over is.
 * ``before``: the clock before this batch.
 */
function sayComputerTurn(m, d, before) {
  const { model, ui } = m;
  const seat = d.seat;
  const seatInfo = model.match.seats[seat] || {};
  if (seatInfo.bot) return;
  if (before && before.auto && before.auto[seat]) return;
  const s = model.state() || {};
  const turn = d.delta && typeof d.delta.turn === 'number' ? d.delta.turn : s.turn;
  // ``turn`` moves on with the placement and not with the follower decision after it: both
  // batches of one turn have the same.
  const key = `${turn}:${seat}`;
  if (ui.computerTurnSaid === key) return;
  ui.computerTurnSaid = key;
  const name = model.names()[seat];
  const mine = model.you() === seat;
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
  const { model, ui, hooks } = m;
  switch (msg.t) {
    case 'snapshot':
      applySnapshot(m, msg.v, msg.d);
      break;
    case 'events':
      if (!model.match) return;
      applyEvents(m, msg.v, msg.d || {});
      break;
    case 'aids':
      if (model.match) onAids(m, msg);
      break;
    case 'clock':
      model.applyClock(msg.d);
      renderClockUI(m);
      break;
    case 'presence': {
      if (!model.match || !msg.d) return;
      const behind = model.applyPresence(msg.d, msg.v);
      hooks.renderPlayers();
      // The server had sent a later version than we hold: fetch what we missed.
      if (behind) fillGap(m);
      break;
    }
    case 'error': {
      const e = msg.d || {};
      if (e.reason === 'aids_off') break; // the table's policy changed nothing we asked for
      // Refused for now (too many frames or actions): the same action again after the wait
      // the server names; nothing to tell the player unless that keeps failing.
      if ((e.code === 'rate_limited' || e.code === 'unavailable') && e.id && hooks.retryAction(e.id, e.retry_after)) break;
      // A refused action names itself (``id``); a refusal without one (a ping, a sync, a chat
      // line over the frame limit) is not about the action we wait for.
      const mineFailed = ui.pending && (e.id ? e.id === ui.pending.id : e.code !== 'rate_limited');
      if (mineFailed) hooks.clearPending();
      if (e.code === 'stale_version') {
        fillGap(m);
        toast(api.friendly({ ...e, code: e.code }), 'info');
      } else {
        // Through the catalogue by its reason or code (English may keep the server's own words).
        toast(api.friendly({ ...e, code: e.code || 'unknown' }), 'error');
      }
      hooks.render();
      break;
    }
    default:
      break;
  }
}

/** Fill the log with the turns played before we arrived (GET events?since=0). */
export async function loadHistory(m) {
  const { model, ui, hooks } = m;
  const upTo = model.version;
  try {
    const data = await api.matchEvents(m.matchId, 0, m.code);
    if (!m.alive) return;
    // Batches after ``upTo`` arrive (or arrived) on the socket and are logged from there.
    const batches = (data.batches || []).filter((b) => b.v === undefined || b.v <= upTo);
    model.adoptHistory(batches);
    const live = ui.logItems;
    ui.logItems = [];
    // The setup's events (the first draw; the Wheel of Fortune pig's first move) come first.
    if (data.opening && data.opening.length) hooks.addLog(data.opening, { quiet: true, auto: false });
    for (const b of batches) { // one action's events each
      hooks.addLog(b.events || [], { quiet: true, auto: b.by === 'computer' || (b.action_id == null && !(model.match.seats[b.seat] || {}).bot) });
    }
    ui.logItems = [...live, ...ui.logItems].slice(0, MAX_LOG);
    hooks.renderLog();
    hooks.render();
  } catch { /* the log starts empty; the game itself is fine */ }
}
