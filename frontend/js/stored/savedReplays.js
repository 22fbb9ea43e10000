/**
 * Replays saved on this device (localStorage), so the replay viewer opens them offline: each is
 * what the viewer was shown — the server's replay (``start``, ``steps``, ``record``, …) and the
 * seats' colours — under a key of its own. At most :data:`KEEP`, newest first; when the
 * storage is full the oldest go first.
 */

const KEY = 'carcassonne.savedReplays';
const KEEP = 12;

/** Every saved replay, newest first: ``[{key, title, players, saved, data, colours}]``. */
export function list() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(found) ? found : [];
  } catch {
    return [];
  }
}

/** The saved replay ``key``, or null. */
export function load(key) {
  return list().find((e) => e.key === key) || null;
}

/** Save (or replace) a replay; returns its key, or null when the device has no room for it. */
export function save({ key, title, players, data, colours }) {
  let kept = [{ key, title, players, saved: new Date().toISOString(), data, colours },
    ...list().filter((e) => e.key !== key)].slice(0, KEEP);
  while (kept.length) {
    try {
      localStorage.setItem(KEY, JSON.stringify(kept));
      return key;
    } catch {
      if (kept.length === 1) return null;
      kept = kept.slice(0, -1); // full: the oldest make room
    }
  }
  return null;
}

/** Forget the saved replay ``key``. */
export function remove(key) {
  localStorage.setItem(KEY, JSON.stringify(list().filter((e) => e.key !== key)));
}
