/**
 * Hot-seat: the other people playing on this device. Each is a guest of their own (a name and
 * a token from ``POST /api/players``) seated at a table by this device; the match screen hands
 * the device over between them (match/access/hotSeat.js). Kept in localStorage by lobby code:
 * ``{code: [{id, name, token}]}``; the device's own player (session.js) is not among them.
 */

const KEY = 'carcassonne.localSeats';

function all() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || '{}');
    return found && typeof found === 'object' ? found : {};
  } catch {
    return {};
  }
}

/** The people this device seated at table ``code``: ``[{id, name, token}]``. */
export function at(code) {
  return code ? (all()[code] || []) : [];
}

/** Remember ``person`` (``{id, name, token}``) as seated at table ``code`` by this device. */
export function add(code, person) {
  const seats = all();
  seats[code] = [...(seats[code] || []).filter((p) => p.id !== person.id), person];
  localStorage.setItem(KEY, JSON.stringify(seats));
}

/** Forget ``id`` at table ``code`` (they left the table). */
export function remove(code, id) {
  const seats = all();
  seats[code] = (seats[code] || []).filter((p) => p.id !== id);
  localStorage.setItem(KEY, JSON.stringify(seats));
}
