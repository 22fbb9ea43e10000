/**
 * A best-of-N series at one table (GET /api/matches/{id}/series; docs/API.md § Series): the
 * score in the match header, and on the end screen what comes next — the next game once the
 * server dealt it (it counts the game after its history settles, a moment after the last
 * move), or "Another series" once the series is decided.
 */

import * as api from '../../api.js';
import { h, clear } from '../../dom.js';
import { t } from '../../i18n.js';

/** Points as a person reads them: 1½, ½, 2. */
const points = (p) => {
  const whole = Math.floor(p + 1e-9);
  const half = p - whole > 0.25 ? '½' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
};

/** "Ann 1 – 0 Ben" for two, "Ann 1½ · Ben ½ · Cat 0" for more. */
export function scoreText(series) {
  const names = series.players.map((p) => p.name);
  if (names.length === 2) return `${names[0]} ${points(series.score[0])} – ${points(series.score[1])} ${names[1]}`;
  return names.map((n, i) => `${n} ${points(series.score[i])}`).join(' · ');
}

/** Fetch the series of match ``m`` (none: a single game) and show it in the header. */
export async function loadSeries(m) {
  try {
    m.series = await api.matchSeries(m.matchId, m.code);
  } catch {
    m.series = null; // a single game (404), or the read failed: the header says nothing
  }
  renderSeries(m);
  return m.series;
}

/** The header's series line (hidden for a single game). */
export function renderSeries(m) {
  const line = m.dom.seriesLine;
  if (!line) return;
  const s = m.series;
  line.hidden = !s;
  if (!s) return;
  line.textContent = t('series.header', { n: s.best_of, game: s.game, score: scoreText(s) });
}

/**
 * On the end screen (``actions``: its row of buttons): wait for the series to count this game,
 * then offer the next game, or say who won the series and offer another one (the rematch).
 * ``rematch``: the end screen's rematch button (relabelled "Another series"), or null.
 */
export async function seriesEnd(m, actions, rematch) {
  if (!m.series) return;
  const note = h('p.series-result#series-result', { role: 'status' }, t('series.waiting'));
  actions.parentNode.insertBefore(note, actions);
  // Hidden until the series is decided (a .btn's display beats the hidden attribute).
  if (rematch) rematch.style.display = 'none';
  for (let tries = 0; tries < 60 && m.alive && note.isConnected; tries += 1) {
    const s = await loadSeries(m);
    if (!s) return;
    if (s.next_match) {
      clear(note).append(h('span', t('series.header', { n: s.best_of, game: s.game, score: scoreText(s) })), ' ',
        h('a.btn.primary#series-next', { href: `#/match/${encodeURIComponent(s.next_match)}${m.code ? `?code=${encodeURIComponent(m.code)}` : ''}` },
          t('series.next')));
      return;
    }
    if (s.status === 'decided') {
      const names = s.winners.map((i) => s.players[i].name).join(', ');
      note.textContent = s.winners.length === 1 ? t('series.won', { names, score: scoreText(s) })
        : t('series.level', { score: scoreText(s) });
      if (rematch) { rematch.textContent = t('series.again'); rematch.style.display = ''; }
      return;
    }
    await new Promise((resolve) => { setTimeout(resolve, 1000); });
  }
}
