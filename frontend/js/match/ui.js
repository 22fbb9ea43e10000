/**
 * The match screen's UI state: the person's half-made choices (the cell chosen, the rotation,
 * the keyboard cursor, the action in flight), what is waiting to be drawn, the log lines, and
 * marks that keep a cue or a zoom from repeating. The parts of the screen write only this; the
 * server's side lives in the model (``model.js``), which they read.
 *
 * No DOM here.
 */

/** The longest the game log grows (lines, newest first). */
export const MAX_LOG = 250;

/** A fresh UI state for a match screen. */
export function newUiState() {
  return {
    // Playing a turn (play.js, keyboard.js).
    rotation: 0, selected: null, hover: null, cursor: null, spotFocus: null, keyboard: false,
    pending: null, pendingTimer: null, actionSeq: 0, onlyWayNudge: false,
    // What was last drawn or said, so it happens once (render.js, attention.js, sync.js).
    turnKey: null, focused: null, attendedTurn: undefined, computerTurnSaid: null, endShown: false,
    notifiedFor: null,
    // Drawing (sync.js ``scheduleDraw``): the frame asked for, the live batches' events since
    // the last drawing, and what changed that ``render`` alone does not draw.
    draw: null, news: [], logDirty: false, clockDirty: false,
    // The game log, newest first (panel.js).
    logItems: [],
    // Expansions' own UI state, by expansion id (expansions/).
    ext: {},
    // The preset the match's rules match (its name in the info box), once the presets are in.
    presetName: null,
  };
}

/** The cells the drawn tile may go to now: none while an action is in flight. */
export function playableCells(m) {
  return m.ui.pending ? new Map() : m.model.legalCells();
}

/** True when the drawn tile fits at ``key`` in ``rotation``. */
export function fits(m, key, rotation) {
  const rots = m.model.legalCells().get(key);
  return !!rots && rots.includes(rotation);
}

/** The next rotation from ``from`` in direction ``dir`` (±1) that fits at ``key``. */
export function nextFit(m, key, from, dir) {
  const rots = m.model.legalCells().get(key) || [];
  for (let i = 0; i < 4; i += 1) {
    const r = (((from + dir * 90 * i) % 360) + 360) % 360;
    if (rots.includes(r)) return r;
  }
  return from;
}
