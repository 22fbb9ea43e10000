/**
 * The verdict of a finished match as the match screen shows it (end screen, seats, status
 * line): the server's (``verdict`` in Match JSON and the ratings answer: places, winners, who
 * left — app/services/records/verdict.py), or, until it arrives, what can be said without it.
 */

import { t } from '../../i18n.js';
import { joinNames } from '../../words.js';

/**
 * The verdict to show before the server's arrives: the server's own when the match came with
 * it; the engine's winners (by score) when no seat can have left (nobody was played by the
 * computer, nobody was away at an early end); else none yet (the title says "Game over" until
 * the server judges who left, so the screen never crowns a player it then ranks last).
 */
export function verdictOf(m) {
  const s = m.model.state();
  if (!s) return null;
  if (m.model.match.verdict) return m.model.match.verdict;
  const c = m.model.match.clock;
  const suspect = m.model.computerPlayed || (c && ((c.auto || []).some(Boolean) || c.ended_early
    || Object.keys(c.away || {}).length));
  if (suspect) return null;
  const winners = s.winners || [];
  return { winners, places: s.scores.map((x) => 1 + s.scores.filter((y) => y > x).length), left: [] };
}

/** The title of the end screen for ``verdict`` (null: not judged yet). */
export function verdictTitle(verdict, n) {
  if (!verdict) return t('end.gameOver');
  const winners = verdict.winners.map((i) => n[i]);
  if (winners.length > 1) return t('end.shareWin', { names: joinNames(winners) });
  return winners.length ? t('end.wins', { name: winners[0] }) : t('end.gameOver');
}

