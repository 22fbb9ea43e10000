/**
 * Getting the player's attention during a match: sound cues (your turn, a tile placed, points,
 * the end; js/sound.js), the tab's title and favicon while it is your turn, and the ``aria-live``
 * announcer that tells screen readers the moves, scores and whose turn it is.
 *
 * ``attend(m, events)`` runs for every live batch (not for catch-ups); ``watchTurn(m)`` after
 * every render. Nothing here changes the match.
 */

import { play } from '../../sound.js';
import { describe } from '../../words.js';
import { t } from '../../i18n.js';
import { tableName } from '../../tableName.js';
import { withHook } from '../../expansions/index.js';

const ICON_PLAIN = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect x='2' y='2' width='28' height='28' rx='5' fill='%238fbf5a'/%3E%3Cpath d='M2.6,3 H29.4 C22,15 10,15 2.6,3 Z' fill='%23e9d3a2' stroke='%236d5234' stroke-width='1.5'/%3E%3Cpath d='M16,30 V19' stroke='%23f3ead2' stroke-width='4'/%3E%3C/svg%3E";
const ICON_TURN = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect x='2' y='2' width='28' height='28' rx='5' fill='%238fbf5a'/%3E%3Cpath d='M2.6,3 H29.4 C22,15 10,15 2.6,3 Z' fill='%23e9d3a2' stroke='%236d5234' stroke-width='1.5'/%3E%3Cpath d='M16,30 V19' stroke='%23f3ead2' stroke-width='4'/%3E%3Ccircle cx='24' cy='24' r='7.5' fill='%23e0392b' stroke='%23fff' stroke-width='2'/%3E%3C/svg%3E";

function favicon(href) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
  document.documentElement.dataset.myTurn = href === ICON_TURN ? 'true' : 'false';
}

/** Say ``text`` through the screen's ``aria-live`` region (polite: after what is being read). */
export function announce(m, text) {
  if (!m.dom.announcer || !text) return;
  // A new node each time, so the same words twice are still announced.
  const line = document.createElement('p');
  line.textContent = text;
  m.dom.announcer.replaceChildren(line);
}

/** Cues and announcements for one live batch of engine events. */
export function attend(m, events) {
  const types = new Set(events.map((e) => e.type));
  if (types.has('GameEnded')) play('end');
  else if (events.some((e) => e.type === 'PointsScored' && !e.final)) play('points');
  else if (types.has('TilePlaced')) play('tile');
  const lines = describe(events, m.model.names()).map((l) => l.text).filter(Boolean);
  if (lines.length) announce(m, lines.join('. '));
}

/**
 * One key per time a seat is asked to act: a turn (its tile and then its follower decision) or
 * a decision in a phase an expansion adds (its ``phases``: the Plague's, off turn). The engine's
 * ``turn`` counts placed tiles, so it moves on when the tile is placed, before the same seat
 * decides on a follower: that decision belongs to the turn before (one chime per turn, not two).
 */
function turnKey(s) {
  if (withHook('phases').some((x) => x.phases[s.phase])) return `${s.turn}:${s.seat}:${s.phase}`;
  return `${s.phase === 'deploy' ? s.turn - 1 : s.turn}:${s.seat}`;
}

/** After each render: your-turn cue, tab title and favicon; announces whose turn it is. */
export function watchTurn(m) {
  const s = m.model.state();
  if (!s) return;
  const mine = m.model.myTurn();
  const key = m.model.isOver() ? 'over' : turnKey(s);
  if (mine) {
    document.title = `● ${t('match.yourTurnTitle')} · ${tableName(m.model.match, 'Carcassonne')}`;
  }
  favicon(mine ? ICON_TURN : ICON_PLAIN);
  if (key === m.ui.attendedTurn) return;
  const first = m.ui.attendedTurn === undefined;
  m.ui.attendedTurn = key;
  if (m.model.isOver()) return;
  if (mine && !first) play('turn');
  const names = m.model.names();
  setTimeout(() => {
    if (!m.alive) return;
    announce(m, mine ? t('match.yourTurnSay') : t('match.theirTurnSay', { name: names[s.seat] }));
  }, first ? 0 : 700);
}

/** Put the tab back as it was (the screen is going away). */
export function resetAttention() {
  favicon(ICON_PLAIN);
}
