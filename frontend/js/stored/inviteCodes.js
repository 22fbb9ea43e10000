/**
 * The invite codes of private matches this browser has opened, so that every address it shows
 * for such a match (the match screen's, the replay viewer's ``#/replay/ID?move=N``) carries the
 * code, and a link copied from the address bar works for whoever it is shared with.
 *
 * A seated player learns the code from the match itself (``lobby_code``); a spectator from the
 * link they came by. Kept in ``sessionStorage`` (this tab), never sent anywhere but the API.
 */

const PREFIX = 'carcassonne.code.';

/** Remember ``code`` for ``matchId`` (nothing when either is empty). */
export function remember(matchId, code) {
  if (!matchId || !code) return;
  try {
    sessionStorage.setItem(PREFIX + matchId, code);
  } catch {
    // Storage refused (private mode): the address still carries the code.
  }
}

/** The code known for ``matchId``, or null. */
export function known(matchId) {
  try {
    return matchId ? sessionStorage.getItem(PREFIX + matchId) : null;
  } catch {
    return null;
  }
}

/** The code a private match's address should carry: the URL's, the match's own, or a known one. */
export function codeFor(matchId, fromUrl, match) {
  if (fromUrl) return fromUrl;
  if (match && match.private && match.lobby_code) return match.lobby_code;
  return known(matchId);
}

/**
 * Put ``code`` into the current address (``#/…?code=…``) without a reload or a new history
 * entry; ``query`` (the screen's URLSearchParams) is updated to match.
 */
export function showInAddress(query, code) {
  if (!code || query.get('code') === code) return;
  query.set('code', code);
  const path = location.hash.replace(/^#/, '').split('?')[0];
  history.replaceState(null, '', `#${path}?${query}`);
}
