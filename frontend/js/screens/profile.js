/**
 * A player's profile: matches played and won, ratings by preset, statistics (rating graph, win
 * rate by players, points by feature: widgets/player/statistics.js), and their matches (newest
 * first, paginated), each linking to its replay (``#/replay/ID``) — or to the live match.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { statusText } from '../widgets/page/tournamentStatus.js';
import { tableName } from '../tableName.js';
import { swatch } from '../board/pieces.js';
import { statisticsPanel } from '../widgets/player/statistics.js';
import { botTag } from '../widgets/player/botTag.js';
import { challengePanel } from '../widgets/player/challenge.js';

const PER_PAGE = 10;

export function presetName(preset) {
  if (preset && preset.startsWith('bots:')) return t('botAccount.pool', { preset: presetName(preset.slice(5)) });
  return preset ? t(`preset.${preset}`) : t('history.customRules');
}

/**
 * The player's place in a finished match, as the server's verdict has it: a seat that left
 * is ranked last whatever its points, and the row says when it left (docs/RATINGS.md).
 */
function placeText(m) {
  if (!m.left) return t('history.place', { n: m.place });
  if (m.place == null) return t('history.left');
  return m.left_at ? t('history.leftAt', { place: m.place, n: m.left_at }) : t('history.leftPlace', { place: m.place });
}

function matchRow(m) {
  const finished = m.status === 'finished';
  const href = finished ? `#/replay/${encodeURIComponent(m.id)}` : `#/match/${encodeURIComponent(m.id)}`;
  const change = m.rating_change;
  return h('li.card.history-row', { 'data-match': m.id },
    h('div.card-main', {},
      h('a.history-link', { href }, tableName(m, t('lobbies.match'))),
      h('span.help', {},
        `${presetName(m.preset)}${m.rated ? ` · ${t('history.rated')}` : ''}${m.unrated ? ` · ${t('history.unrated')}` : ''} · `,
        finished ? new Date(m.finished_at).toLocaleString(document.documentElement.lang || undefined) : t('history.live')),
      h('span.history-seats', {}, ...m.seats.map((s) => h('span.history-seat', {
        class: s.seat === m.seat ? 'history-seat me' : 'history-seat' },
      h('span', { html: swatch(s.colour, 12) }), ` ${s.name} `, botTag(s), `${s.score ?? ''}`)))),
    finished ? h('span.badge', { class: m.won ? 'badge won' : 'badge', dataset: { place: m.place ?? '' } },
      placeText(m)) : h('span.badge', t('history.live')),
    change ? h('span.rating-delta', { class: change.delta >= 0 ? 'rating-delta up' : 'rating-delta down' },
      `${change.delta >= 0 ? '+' : ''}${change.delta}`) : null);
}

export function mount(root, ctx) {
  const id = ctx.id;
  let page = 1;
  let alive = true;
  const list = h('ul.card-list#history');
  const pager = h('div.row.pager');

  async function loadPage() {
    const data = await api.get(`/api/players/${encodeURIComponent(id)}/matches`, { query: { page, per_page: PER_PAGE } });
    if (!alive) return;
    clear(list);
    if (!data.matches.length) list.appendChild(h('li.help', t('history.none')));
    data.matches.forEach((m) => list.appendChild(matchRow(m)));
    clear(pager);
    const pages = Math.max(1, Math.ceil(data.total / PER_PAGE));
    pager.append(
      h('button.btn.secondary', { type: 'button', disabled: page <= 1, onclick: () => { page -= 1; loadPage(); } }, t('history.newer')),
      h('span.help', t('history.page', { page, pages })),
      h('button.btn.secondary', { type: 'button', disabled: page >= pages, onclick: () => { page += 1; loadPage(); } }, t('history.older')));
  }

  (async () => {
    const path = `/api/players/${encodeURIComponent(id)}`;
    const [p, stats, entered] = await Promise.all([api.get(`${path}/profile`), api.get(`${path}/statistics`),
      api.get(`${path}/tournaments`).catch(() => [])]);
    if (!alive) return;
    const me = session.player();
    const ratings = Object.entries(p.ratings);
    root.append(h('section.profile', {},
      h('div.lobbies-head', {},
        h('div', {},
          h('h1#profile-name', {}, p.player.name, botTag(p.player)),
          h('p.lead', p.player.username ? `@${p.player.username}` : t('profile.guest'))),
        me && me.id === id ? h('a.btn.secondary', { href: '#/account' }, t('profile.account')) : null),
      p.player.bot_account && !(me && me.id === id) ? challengePanel(p.player, () => alive) : null,
      h('div.profile-stats', {},
        h('div.panel.stat', {}, h('strong#stat-played', String(p.played)), h('span', t('profile.played'))),
        h('div.panel.stat', {}, h('strong#stat-won', String(p.won)), h('span', t('profile.won'))),
        ...ratings.map(([preset, r]) => h(preset.startsWith('bots:') ? 'div.panel.stat' : 'a.panel.stat', {
          href: preset.startsWith('bots:') ? null : `#/leaderboard/${preset}`, 'data-rating': preset },
          h('strong', String(r.rating)), h('span', `${presetName(preset)} · ${t('profile.games', { n: r.games })}`)))),
      statisticsPanel(stats, presetName),
      entered.length ? h('div.panel#profile-tournaments', {}, h('h2', t('tournament.title')),
        h('ul.card-list', {}, ...entered.map((e) => h('li', {},
          h('a', { href: `#/tournament/${e.id}` }, e.name), ' · ', t(`tournament.format.${e.format}`), ' · ',
          statusText(e),
          e.rank ? h('b', ` · ${t('tournament.place', { rank: e.rank, n: e.entrants })}`) : null)))) : null,
      h('div.panel', {}, h('h2', t('profile.matches')), list, pager)));
    await loadPage();
  })().catch((err) => {
    if (alive) root.appendChild(h('p.field-error', api.friendly(err)));
  });
  return () => { alive = false; };
}
