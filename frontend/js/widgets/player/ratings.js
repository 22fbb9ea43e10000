/**
 * Ratings in the match and lobby screens: the rating changes of a finished rated match on the
 * end screen, and players' ratings beside their names on seats and lobby cards.
 */

import * as api from '../../api.js';
import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/**
 * Add the rating changes of match ``matchId`` to the end screen's ``card`` when it was rated,
 * or say why a rated table's match ended unrated (the update runs right after the last move:
 * asks again a few times until it is there). ``code``: a private match's invite code.
 * ``onVerdict(verdict)``: called once with the match's verdict when the server has it.
 */
export async function showRatingChanges(card, matchId, names, code, onVerdict = null) {
  let judged = false;
  for (let attempt = 0; attempt < 8; attempt += 1) {
    let changes = [];
    let unrated = null;
    let verdict = null;
    try {
      const query = code ? { code } : undefined;
      ({ changes, unrated, verdict } = await api.get(`/api/matches/${encodeURIComponent(matchId)}/ratings`, { query }));
    } catch {
      return;
    }
    if (!card.isConnected) return;
    // The match's verdict (places, winners, who left) comes with the same settlement.
    if (verdict && !judged) {
      judged = true;
      if (onVerdict) {
        onVerdict(verdict);
        if (!card.isConnected) return; // the end screen was drawn again: it asks anew
      }
    }
    if (!judged && onVerdict) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    if (unrated) {
      card.appendChild(h('p.rating-changes.unrated#rating-unrated', {}, t(`rating.unrated.${unrated}`)));
      return;
    }
    if (changes.length) {
      card.appendChild(h('div.rating-changes#rating-changes', {}, h('h3', t('rating.changes')),
        h('ul', {}, ...changes.map((c) => h('li', { dataset: { seat: c.seat } },
          `${names[c.seat]}: ${c.before} → ${c.after} `,
          h('span', { class: c.delta >= 0 ? 'rating-delta up' : 'rating-delta down' },
            `${c.delta >= 0 ? '+' : ''}${c.delta}`))))));
      return;
    }
    await new Promise((r) => setTimeout(r, 700));
  }
}

/** ``{player id: rating}`` for a preset (empty on any failure: ratings are decoration). */
export async function ratingsOf(preset, playerIds) {
  const ids = playerIds.filter(Boolean);
  if (!preset || !ids.length) return {};
  try {
    return (await api.get('/api/ratings', { query: { preset, players: ids.join(',') } })).ratings;
  } catch {
    return {};
  }
}

/**
 * Show each seated player's rating for the lobby's preset next to their name in ``list``
 * (elements with ``data-seat`` holding a ``.seat-name``). Rated lobbies only.
 */
export async function decorateSeats(list, lobby) {
  if (!lobby.rated) return;
  const ratings = await ratingsOf(lobby.preset, lobby.seats.map((s) => s.player));
  for (const s of lobby.seats) {
    const r = s.player && ratings[s.player];
    const name = list.querySelector(`[data-seat="${s.seat}"] .seat-name`);
    if (!name || name.querySelector('.seat-rating')) continue;
    name.appendChild(h('span.seat-rating', { title: t('leaderboard.rating') }, ` ${r ? r.rating : 1000}`));
  }
}

/** A small "Rated" tag for lobby cards and the waiting room. */
export function ratedTag(lobby) {
  return lobby.rated ? h('span.tag.rated', t('history.rated')) : null;
}
