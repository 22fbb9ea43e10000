/**
 * The match screen's model: what the server last told us (the match JSON and its version),
 * the half-made choices of the player (``ui``) and what follows from them (whose turn, which
 * cells are legal, which rotations fit). No DOM here.
 *
 * The screen's other modules receive the one ``MatchScreen`` object (this model plus the DOM
 * nodes, the board, the socket and the wiring hooks ``mount`` adds) and read and write it.
 */

import { cellKey } from '../board.js';
import { ROLE_LABEL, PLACE_LABEL, roleOfSpot } from '../pieces.js';
import { t } from '../i18n.js';

/** How many followers each player starts with (the supply row in the side panel). */
export const FOLLOWERS = 7;

/** The longest the game log grows (lines, newest first). */
export const MAX_LOG = 250;

export class MatchModel {
  /** ``matchId``: the match to follow; ``code``: the lobby code of a private match (or undefined). */
  constructor(matchId, code) {
    this.matchId = matchId;
    this.code = code;
    this.alive = true;
    this.match = null; // the match JSON (GET /api/matches/ID), kept current by the socket
    this.version = -1; // the version of ``match`` (number of actions applied)
    this.partial = false; // a catch-up brought events but not yet the whole view (sync.js)
    this.endShown = false;
    this.lastPlaced = null; // {at, seat} of the last tile placed
    this.lastBySeat = {}; // seat → [x, y] of that player's last tile placed
    this.logItems = []; // the game log, newest first
    this.actionSeq = 0;
    // Drawing (sync.js ``scheduleDraw``): the frame asked for, the live batches' events since
    // the last drawing, and what changed that ``render`` alone does not draw.
    this.draw = null;
    this.news = [];
    this.logDirty = false;
    this.clockDirty = false;
    this.presetName = null;
    this.ui = {
      rotation: 0, selected: null, hover: null, cursor: null, spotFocus: null, pending: null, pendingTimer: null,
      keyboard: false, turnKey: null, pigSteps: null, plagueDeadline: null,
    };
  }

  /** The engine's view of the position (``match.state``), or null before the first load. */
  state() { return this.match ? this.match.state : null; }

  /** The seat of the person looking, or null for a spectator. */
  you() { return this.match && typeof this.match.you === 'number' ? this.match.you : null; }

  /** Display names by seat. */
  names() {
    const s = this.state();
    return this.match ? this.match.seats.map((seat, i) => seat.name || (s && s.players[i]) || t('log.seat', { n: i + 1 })) : [];
  }

  /** Colour names by seat. */
  colours() { return this.match ? this.match.seats.map((s) => s.colour) : []; }

  isOver() {
    const s = this.state();
    return !!this.match && (this.match.status === 'finished' || (s && s.phase === 'game_over'));
  }

  myTurn() {
    const s = this.state();
    return !!s && !this.isOver() && this.you() !== null && s.seat === this.you();
  }

  /** Map "x,y" → sorted rotations the drawn tile fits in (empty unless we are placing a tile). */
  legalCells() {
    const s = this.state();
    const cells = new Map();
    if (!this.myTurn() || s.phase !== 'place_tile' || this.ui.pending) return cells;
    for (const [x, y, r] of s.legal_placements || []) {
      const key = cellKey(x, y);
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(r);
    }
    for (const rots of cells.values()) rots.sort((a, b) => a - b);
    return cells;
  }

  fits(key, rotation) {
    const rots = this.legalCells().get(key);
    return !!rots && rots.includes(rotation);
  }

  /** The next rotation from ``from`` in direction ``dir`` (±1) that fits at ``key``. */
  nextFit(key, from, dir) {
    const rots = this.legalCells().get(key) || [];
    for (let i = 0; i < 4; i += 1) {
      const r = (((from + dir * 90 * i) % 360) + 360) % 360;
      if (rots.includes(r)) return r;
    }
    return from;
  }

  /** Wheel of Fortune, Plague: the followers the deciding seat may take back, as board targets. */
  plagueItems() {
    const s = this.state();
    return ((s.plague && s.plague.choices) || []).map(([x, y, spot]) => {
      const role = roleOfSpot(spot);
      const kind = spot === 'cloister' ? 'cloister' : spot.split(':')[0];
      const where = this.fromWheel([x, y]);
      return { id: `plague:${x},${y}:${spot}`, at: [x, y], spot, where,
        label: t('match.spotWhere', { role: ROLE_LABEL[role] || t('role.follower'), place: PLACE_LABEL[kind] || '', where }).replace(' ,', ',') };
    });
  }

  /** Where a cell lies seen from the wheel ("2 tiles north-east of the wheel"). */
  fromWheel([x, y]) {
    const s = this.state();
    const cells = (s.wheel && s.wheel.cells) || [[0, 0]];
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => c[1]);
    const dx = x < Math.min(...xs) ? x - Math.min(...xs) : x > Math.max(...xs) ? x - Math.max(...xs) : 0;
    const dy = y < Math.min(...ys) ? y - Math.min(...ys) : y > Math.max(...ys) ? y - Math.max(...ys) : 0;
    const dir = `${dy < 0 ? 'n' : dy > 0 ? 's' : ''}${dx < 0 ? 'w' : dx > 0 ? 'e' : ''}`;
    if (!dir) return t('match.onWheel');
    return t(`match.wheelDir.${dir}`, { n: Math.max(Math.abs(dx), Math.abs(dy)) });
  }

  /** "A computer chooses for you in 24 s" while a Plague decision is pending. */
  countdownText(mine) {
    const deadline = this.ui.plagueDeadline;
    if (!deadline) return '';
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    if (left === 0) return t(mine ? 'match.plagueTimeUpMine' : 'match.plagueTimeUp');
    return t(mine ? 'match.plagueLeftMine' : 'match.plagueLeft', { n: left });
  }
}

/** Where a point (tile units) lies on its tile, in words ("west", "south-east", "middle"). */
export function whereOnTile([x, y]) {
  const dir = `${y < 38 ? 'n' : y > 62 ? 's' : ''}${x < 38 ? 'w' : x > 62 ? 'e' : ''}`;
  return t(`match.onTile.${dir || 'mid'}`);
}
