/** A tournament's state in a few words, for the list, its page and a player's profile. */

import { t } from '../../i18n.js';

/** "Registration open", "Round 2 of 5", "Finished" or "Cancelled". */
export function statusText(tm) {
  if (tm.status === 'registering') return t('tournament.status.registering');
  if (tm.status === 'finished') return t('tournament.status.finished');
  if (tm.status === 'cancelled') return t('tournament.status.cancelled');
  if (tm.format === 'arena') {
    const end = tm.ends_at ? new Date(tm.ends_at).toLocaleTimeString(document.documentElement.lang || undefined, { hour: '2-digit', minute: '2-digit' }) : '';
    return t('tournament.status.arena', { time: end });
  }
  return t('tournament.status.running', { round: tm.round, rounds: tm.rounds });
}
