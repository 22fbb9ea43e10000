/**
 * The waiting room's model: the table as the server last sent it (``lobby``) and the questions
 * the parts ask of it (my seat, am I the host). ``update`` is the one place a new table is
 * adopted; the parts change the table only by asking the server (``act``). No DOM here.
 */

import * as api from '../api.js';
import { toast } from '../dom.js';
import { t } from '../i18n.js';

export class RoomTable {
  /**
   * ``code``: the table's lobby code; ``me``: the signed-in player (or null); ``hooks``:
   * ``{render(), moveToMatch()}``, called when a new table arrives.
   */
  constructor(code, me, hooks) {
    this.code = code;
    this.me = me;
    this.hooks = hooks;
    this.lobby = null; // GET /api/lobbies/CODE, kept current by the lobby socket (or polling)
    this.alive = true;
    this.wasSeated = false;
    this.presets = {};
    this.localDraft = null; // the hot-seat form while open: {value}, kept across re-renders (seats.js)
    this.botPicker = null; // the host's open "invite a bot" list: {seat, bots}, kept likewise (seats.js)
    this.seen = ''; // the table last rendered, as JSON: a repeat (the answer and its echo) renders nothing
  }

  /** The seat of the person looking, or null. */
  mySeat() {
    const { lobby, me } = this;
    return lobby ? lobby.seats.find((s) => s.player && me && s.player === me.id) || null : null;
  }

  /** True when the person looking hosts the table. */
  isHost() {
    return !!(this.lobby && this.me && this.lobby.host === this.me.id);
  }

  /** How many seats are taken (people and computers). */
  filled() {
    return this.lobby.seats.filter((s) => s.player || s.bot).length;
  }

  /** True while the host may still change the table (seats, options). */
  hostCanEdit() {
    return this.isHost() && this.lobby.status === 'open';
  }

  /**
   * Adopt a table from the server (older versions are ignored, and a table equal to the one
   * shown is not drawn again: the answer to ``act`` and the socket's echo of it arrive both);
   * a started match is followed.
   */
  update(next) {
    if (!this.alive || !next) return;
    const held = this.lobby;
    if (held && next.version !== undefined && held.version !== undefined && next.version < held.version) return;
    const seen = JSON.stringify(next);
    if (seen === this.seen) return;
    this.seen = seen;
    this.lobby = next;
    if (next.status === 'started' && next.match_id) {
      toast(t('room.started'), 'success');
      this.hooks.moveToMatch();
      return;
    }
    const seated = !!this.mySeat();
    if (this.wasSeated && !seated) toast(t('room.unseated'), 'error');
    this.wasSeated = seated;
    this.hooks.render();
  }

  /** Ask the server (``fn``: a call of ``api``); adopt the table it answers with. */
  async act(fn, okMessage) {
    try {
      const res = await fn();
      if (res && res.seats) this.update(res);
      if (okMessage) toast(okMessage, 'success');
      return res;
    } catch (err) {
      toast(api.friendly(err), 'error');
      return null;
    }
  }
}
