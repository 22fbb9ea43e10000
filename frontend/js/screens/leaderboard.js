/** The leaderboard of one preset: rated accounts, best first (``#/leaderboard/PRESET``). */

import * as api from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { presetName } from './profile.js';
import { presetKeys } from '../widgets/table/rules.js';

export function mount(root, ctx) {
  const preset = presetKeys().includes(ctx.preset) ? ctx.preset : 'standard';
  let alive = true;
  const tabs = h('nav.segmented', { 'aria-label': t('leaderboard.presets') },
    ...presetKeys().map((p) => h('a.seg', { href: `#/leaderboard/${p}`, 'aria-current': p === preset ? 'page' : null,
      class: p === preset ? 'seg active' : 'seg' }, presetName(p))));
  const body = h('tbody');
  root.appendChild(h('section.leaderboard', {},
    h('h1', t('leaderboard.title')), tabs,
    h('div.panel', {}, h('table.table#leaderboard', {},
      h('thead', {}, h('tr', {}, h('th', '#'), h('th', t('leaderboard.player')), h('th', t('leaderboard.rating')),
        h('th', t('leaderboard.games')))), body))));
  api.get(`/api/leaderboard/${preset}`).then((data) => {
    if (!alive) return;
    if (!data.players.length) body.appendChild(h('tr', {}, h('td', { colspan: 4 }, t('leaderboard.empty'))));
    for (const p of data.players) {
      body.appendChild(h('tr', {}, h('td', String(p.rank)),
        h('td', {}, h('a', { href: `#/player/${encodeURIComponent(p.id)}` }, p.name), ` @${p.username}`),
        h('td', { title: t('leaderboard.skill', { mu: p.mu.toFixed(2), sigma: p.sigma.toFixed(2) }) }, String(p.rating)),
        h('td', String(p.games))));
    }
  }).catch((err) => { if (alive) root.appendChild(h('p.field-error', api.friendly(err))); });
  return () => { alive = false; };
}
