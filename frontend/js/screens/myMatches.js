/**
 * "Your matches": the signed-in player's ongoing matches (GET /api/me/matches), the ones waiting
 * for them first — correspondence players come back days later to exactly this — each with a
 * "your turn" mark, the time they have left (ticking from the server's time when it runs) and a
 * link into the match. Shown on the start screen and above the lobby browser.
 */

import * as api from '../api.js';
import { h, clear, onVisibility } from '../dom.js';
import { t } from '../i18n.js';
import { tableName } from '../tableName.js';
import { formatClock } from '../match/status/clock.js';
import { timeLabel } from '../widgets/table/rules.js';

const REFRESH_MS = 20_000;

/** One ongoing match: name, who else plays, the time control, a "your turn" mark, time left. */
function matchCard(m) {
  const others = m.seats.filter((s) => s.seat !== m.seat).map((s) => s.name);
  const waitingFor = m.to_act !== null && m.to_act !== undefined && m.seats[m.to_act] ? m.seats[m.to_act].name : null;
  let status;
  if (m.your_turn) status = h('span.badge.your-turn', t('mine.yourTurn'));
  else if (m.auto) status = h('small.tag.auto', t('mine.computerHolds'));
  else status = waitingFor ? h('small.waiting', t('mine.waitingFor', { name: waitingFor })) : null;
  const left = m.remaining === null || m.remaining === undefined ? null
    : h('span.seat-clock.time-left', { title: t('mine.timeLeft'), 'aria-label': t('mine.timeLeft'),
      dataset: m.deadline ? { deadline: m.deadline } : {}, class: m.deadline ? 'running' : '' }, formatClock(m.remaining));
  const sub = [t('mine.with', { names: others.join(', ') }), timeLabel(m.time_control), t('mine.turn', { n: m.turn })];
  if (m.private) sub.push(t('mine.private'));
  return h(`li.card.my-match${m.your_turn ? '.mine-turn' : ''}`, { dataset: { match: m.id, yourTurn: String(m.your_turn) } },
    h('div.card-main', {},
      h('b', { title: tableName(m, '') }, tableName(m, t('lobbies.match')), ' ', status),
      h('small', sub.join(' · '))),
    left,
    h(`a.btn${m.your_turn ? '.primary' : '.secondary'}.open-match`, { href: `#/match/${encodeURIComponent(m.id)}` },
      m.your_turn ? t('mine.play') : t('mine.open')));
}

/**
 * The signed-in player's ongoing matches, refreshed every 20 s while visible; running clocks
 * tick from the server's time. Returns ``{node, stop}``; the node stays hidden while the list
 * is empty (or the token is no longer valid).
 */
export function myMatchesPanel() {
  const list = h('ul.card-list#my-matches-list', { 'aria-live': 'polite' });
  const node = h('div.panel.my-matches#my-matches', { hidden: true }, h('h2', t('mine.title')), list);
  let offset = 0;
  let stopped = false;
  let timer = null;
  const ticker = setInterval(() => {
    for (const el of list.querySelectorAll('.time-left[data-deadline]')) {
      el.textContent = formatClock(Math.max(0, Number(el.dataset.deadline) - (Date.now() + offset)));
    }
  }, 1000);
  async function refresh() {
    if (stopped) return;
    try {
      const data = await api.myMatches();
      if (stopped) return;
      offset = data.server_now - Date.now();
      clear(list);
      for (const m of data.matches) list.appendChild(matchCard(m));
      node.hidden = data.matches.length === 0;
    } catch {
      node.hidden = true;  // an expired token or no network: the start form still works
    }
    clearTimeout(timer);
    if (!stopped && !document.hidden) timer = setTimeout(refresh, REFRESH_MS);
  }
  const offVis = onVisibility((visible) => {
    clearTimeout(timer);
    if (visible) refresh();
  });
  refresh();
  return {
    node,
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(ticker);
      offVis();
    },
  };
}
