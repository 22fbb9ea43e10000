/**
 * Who I am in this browser: the signed token and player from POST /api/players, kept in
 * localStorage so a reload (or a new tab) keeps the same seats. Nothing else is stored.
 */

const TOKEN_KEY = 'carcassonne.token';
const PLAYER_KEY = 'carcassonne.player';

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

/** ``{id, name, username?}`` of the player this browser plays as, or null (``username``: set
 * when the identity is an account). */
export function player() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER_KEY) || 'null');
  } catch {
    return null;
  }
}

export function save(tok, who) {
  localStorage.setItem(TOKEN_KEY, tok);
  localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: who.id, name: who.name,
    username: who.username || null }));
}

/** Keep the fresh token the server hands an active client (``X-Renewed-Token``, same player). */
export function renew(tok) {
  if (tok && localStorage.getItem(TOKEN_KEY)) localStorage.setItem(TOKEN_KEY, tok);
}

export function forget() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(PLAYER_KEY);
}

/** The last display name typed here, kept even after ``forget`` to prefill the start screen. */
export function lastName() {
  return localStorage.getItem('carcassonne.lastName') || '';
}

export function rememberName(name) {
  localStorage.setItem('carcassonne.lastName', name);
}
