/**
 * The match model: what the server told us about one match, and the one place that changes it.
 *
 * It alone applies the server's snapshots (``applySnapshot``), live and catch-up batches of
 * events with their deltas (``applyEvents``), clock frames (``applyClock``), presence frames
 * (``applyPresence``), the history of earlier turns (``adoptHistory``) and the settled verdict
 * (``adoptVerdict``). Every other part of the match screen reads it (``match``, ``version``,
 * ``state()``, ``you()``…) and keeps its own half-made choices in the UI state (``ui.js``).
 *
 * It must not touch the DOM, the socket, timers or the network: an apply method returns what
 * the caller needs to act on (a gap to fill, a catch-up to wait for) instead of acting itself.
 */

import { cellKey } from '../board/board.js';
import { t } from '../i18n.js';
import { deltaMerges, withHook } from '../expansions/index.js';

/** How many followers each player starts with (the supply row in the side panel). */
export const FOLLOWERS = 7;

export class MatchModel {
  #local = new Map();
  #match = null;
  #version = -1;
  #partial = false;
  #clockOffset = 0;
  #lastPlaced = null;
  #lastBySeat = {};
  #computerPlayed = false;
  #endedLive = false;

  /** The match JSON (GET /api/matches/ID, kept current by the socket), null before the first load. */
  get match() { return this.#match; }

  /** The version of ``match`` (number of actions applied), -1 before the first load. */
  get version() { return this.#version; }

  /** True while a catch-up has brought events but not yet the whole view. */
  get partial() { return this.#partial; }

  /** ``{at, seat}`` of the last tile placed (null: none seen yet). */
  get lastPlaced() { return this.#lastPlaced; }

  /** Seat → ``[x, y]`` of that player's last tile placed. */
  get lastBySeat() { return { ...this.#lastBySeat }; }

  /** True once a batch was played by the computer for a person (a time-out, a seat handed over). */
  get computerPlayed() { return this.#computerPlayed; }

  /** True when the end of the match arrived live (not in the first load). */
  get endedLive() { return this.#endedLive; }

  /** The engine's view of the position (``match.state``), or null before the first load. */
  state() { return this.#match ? this.#match.state : null; }

  /**
   * The active expansions' ids (``"river"``, ``"wheel_of_fortune"``), in the server's order.
   *
   * The full view's ``expansions`` list is the authority. Until every server sends it, the list
   * is derived here — and only here — from the state (each registered expansion's ``activeIn``).
   */
  expansions() {
    const match = this.#match;
    if (!match) return [];
    if (Array.isArray(match.expansions)) return match.expansions;
    const s = match.state || {};
    if (Array.isArray(s.expansions)) return s.expansions;
    return withHook('activeIn').filter((x) => x.activeIn(s)).map((x) => x.id);
  }

  /** This device's own seat, or null for a spectator. */
  ownSeat() { return this.#match && typeof this.#match.you === 'number' ? this.#match.you : null; }

  /**
   * The seat the person looking plays: the seat to act when it is one of the other people's
   * playing on this device (hot-seat: match/access/hotSeat.js), else this device's own seat (null: a
   * spectator).
   */
  you() {
    const s = this.state();
    if (this.#local.size && s && !this.isOver() && this.#local.has(s.seat)) return s.seat;
    return this.ownSeat();
  }

  /** The other people playing on this device: ``Map(seat → {name, token})``. */
  setLocalSeats(seats) { this.#local = seats; }

  /** Seats played on this device (its own first), when it hands over between several. */
  deviceSeats() {
    const own = this.ownSeat();
    return [...(own === null ? [] : [own]), ...this.#local.keys()];
  }

  /** The token to act for ``seat`` with (another person on this device), or null: the device's own. */
  tokenFor(seat) {
    const p = this.#local.get(seat);
    return p ? p.token : null;
  }

  /** Display names by seat. */
  names() {
    const s = this.state();
    return this.#match ? this.#match.seats.map((seat, i) => seat.name || (s && s.players[i]) || t('log.seat', { n: i + 1 })) : [];
  }

  /** Colour names by seat. */
  colours() { return this.#match ? this.#match.seats.map((s) => s.colour) : []; }

  isOver() {
    const s = this.state();
    return !!this.#match && (this.#match.status === 'finished' || (s && s.phase === 'game_over'));
  }

  myTurn() {
    const s = this.state();
    return !!s && !this.isOver() && this.you() !== null && s.seat === this.you();
  }

  /** Map "x,y" → sorted rotations the drawn tile fits in (empty unless the person looking places a tile). */
  legalCells() {
    const s = this.state();
    const cells = new Map();
    if (!this.myTurn() || s.phase !== 'place_tile') return cells;
    for (const [x, y, r] of s.legal_placements || []) {
      const key = cellKey(x, y);
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(r);
    }
    for (const rots of cells.values()) rots.sort((a, b) => a - b);
    return cells;
  }

  /** The clock (docs/API.md § Clocks), or null for a match without one. */
  clock() { return (this.#match && this.#match.clock) || null; }

  /** The server's time now, as this client best knows it (epoch ms). */
  serverNow() { return Date.now() + this.#clockOffset; }

  // --- Applying what the server sends -------------------------------------------------------

  /** Adopt a whole match (``data``, at version ``v``): REST load, resync or a ``snapshot`` frame. */
  applySnapshot(v, data) {
    const prevYou = this.#match ? this.#match.you : undefined;
    this.#match = data;
    // A snapshot sent to every socket (a catch-up too far behind, a match ended early) has no
    // seat: a player stays the player.
    if (data.you == null && prevYou != null) data.you = prevYou;
    this.#version = v ?? data.version;
    this.#partial = false;
    this.applyClock(data.clock);
  }

  /**
   * Apply one ``events`` frame (version ``v``, body ``d``: docs/API.md § Frames). Returns
   * ``{kind}``: ``"old"`` (already held), ``"gap"`` (versions were missed: fetch them), or
   * ``"applied"`` with ``events``, ``whole`` (the view is complete: draw it), ``waitFor`` (a
   * catch-up's version whose end should follow soon, else fetch the match) or ``refetch`` (a
   * live batch met an incomplete view), and ``clockBefore`` (the clock before this batch).
   */
  applyEvents(v, d) {
    if (v <= this.#version) return { kind: 'old' };
    if (this.#version >= 0 && v > this.#version + 1) return { kind: 'gap' };
    const match = this.#match;
    this.#version = v;
    match.version = v;
    const events = d.events || [];
    let waitFor = null;
    let refetch = false;
    if (d.state) {
      // The whole view: the last batch of a catch-up.
      match.state = d.state;
      this.#partial = false;
    } else if (match.state) {
      // A live batch brings what changed; a catch-up's earlier batches only their events, and
      // the view is whole again with the last one (which carries ``state``).
      applyDelta(match.state, events, d.delta || {});
      if (!d.delta) {
        this.#partial = true;
        waitFor = v;
      } else if (this.#partial) refetch = true;
    }
    const whole = !this.#partial && !!(d.state || d.delta);
    for (const e of events) {
      if (e.type === 'TilePlaced') {
        this.#lastPlaced = { at: e.at, seat: e.seat };
        this.#lastBySeat[e.seat] = e.at;
      }
      if (e.type === 'GameEnded') {
        match.status = 'finished';
        this.#endedLive = true;
      }
    }
    // The computer chose for a person (``by``: a time-out, a seat handed over, a Plague timeout).
    if (d.by === 'computer') this.#computerPlayed = true;
    const clockBefore = match.clock;
    if (d.clock) this.#adoptClock(d.clock);
    return { kind: 'applied', events, whole, waitFor, refetch, clockBefore };
  }

  /** Adopt a clock from the server (a snapshot, an events frame or a ``clock`` frame). */
  applyClock(clock) {
    if (!this.#match || clock === undefined) return;
    this.#adoptClock(clock);
  }

  #adoptClock(clock) {
    this.#match.clock = clock;
    this.#clockOffset = clock ? clock.server_now - Date.now() : 0;
  }

  /** Adopt a ``presence`` frame's body; true when the server holds a later version than we do (``v``). */
  applyPresence(d, v) {
    if (!this.#match || !d) return false;
    for (const p of d.seats || []) {
      const seat = this.#match.seats.find((s) => s.seat === p.seat) || this.#match.seats[p.seat];
      if (seat) seat.connected = p.connected;
    }
    if (d.spectators !== undefined) this.#match.spectators = d.spectators;
    return typeof v === 'number' && this.#version >= 0 && v > this.#version;
  }

  /**
   * Learn from the batches played before we arrived (GET events?since=0, those up to the
   * version we hold): each player's last placement and whether the computer played for anyone.
   */
  adoptHistory(batches) {
    const all = batches.flatMap((b) => b.events || []);
    const placed = all.filter((e) => e.type === 'TilePlaced');
    const last = placed[placed.length - 1];
    if (last && !this.#lastPlaced) this.#lastPlaced = { at: last.at, seat: last.seat };
    // Batches that arrived live meanwhile are newer.
    const earlier = {};
    for (const e of placed) earlier[e.seat] = e.at;
    this.#lastBySeat = { ...earlier, ...this.#lastBySeat };
    if (batches.some((b) => b.by === 'computer')) this.#computerPlayed = true;
  }

  /** Adopt the server's settled verdict; true when it differs from the one held. */
  adoptVerdict(verdict) {
    const key = (x) => (x ? JSON.stringify([x.places, x.winners, x.left]) : '');
    const same = key(this.#match.verdict) === key(verdict);
    this.#match.verdict = verdict;
    return !same;
  }
}

/**
 * Bring the held view forward by one live batch (docs/API.md § Frames): add the placed tiles
 * of its events to the board, set the changed ``remaining`` counts (0: gone), merge the keys an
 * expansion says are sent in part (``deltaMerges``), set the rest.
 */
export function applyDelta(state, events, delta) {
  for (const e of events) {
    if (e.type === 'TilePlaced') state.board.push({ at: e.at, tile: e.tile, rotation: e.rotation });
  }
  const merged = deltaMerges();
  for (const [key, value] of Object.entries(delta || {})) {
    if (key === 'remaining') {
      for (const [tile, count] of Object.entries(value)) {
        if (count) state.remaining[tile] = count;
        else delete state.remaining[tile];
      }
    } else if (merged.has(key)) {
      state[key] = { ...(state[key] || {}), ...value };
    } else {
      state[key] = value;
    }
  }
}
