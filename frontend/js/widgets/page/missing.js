/**
 * What a bad link shows: an invite link to a table that does not exist (mistyped, or closed),
 * or a match link that leads nowhere. Says what happened in words and offers the open tables
 * instead of a "Try again" that cannot help.
 */

import * as api from '../../api.js';
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { tableName } from '../../tableName.js';

/** Whether ``err`` means a private match refused this reader (a link without its code). */
export function isRefused(err) {
  return !!err && (err.code === 'forbidden' || err.status === 403);
}

/**
 * The panel for a private match's link that came without its invite code (``kind``: "match"
 * or "replay"): what happened, what to do, and a way back to the tables.
 */
export function refusedPanel(kind) {
  return h('div.panel.missing-panel#refused', { role: 'alert', dataset: { kind } },
    h('h1', t('refused.title')),
    h('p', t(kind === 'replay' ? 'refused.whyReplay' : 'refused.whyMatch')),
    h('p.help', t('refused.what')),
    h('div.row', {},
      h('a.btn.primary#refused-tables', { href: '#/lobbies' }, t('missing.allTables'))));
}

/** Whether ``err`` means the table or match behind a link does not exist. */
export function isMissing(err) {
  return !!err && (err.code === 'not_found' || err.code === 'validation_error' || err.status === 404);
}

/** The panel for a link to table (``kind`` "table") or match ``kind`` "match" ``code``. */
export function missingPanel(kind, code) {
  const list = h('ul.card-list.missing-tables', { 'aria-label': t('missing.openTables') },
    h('li.empty', t('app.loading')));
  const panel = h('div.panel.missing-panel#missing', { role: 'alert', dataset: { kind } },
    h('h1', t(kind === 'match' ? 'missing.matchTitle' : 'missing.tableTitle')),
    h('p', {}, t(kind === 'match' ? 'missing.matchWhy' : 'missing.tableWhy', { code: code || '' })),
    h('p.help', t(kind === 'match' ? 'missing.matchWhat' : 'missing.tableWhat')),
    h('h2', t('missing.openTables')), list,
    h('div.row', {},
      h('a.btn.primary#missing-tables', { href: '#/lobbies' }, t('missing.allTables')),
      h('a.btn.secondary', { href: '#/create' }, t('missing.create'))));
  api.listLobbies().then((data) => {
    list.replaceChildren();
    const open = (data.lobbies || []).slice(0, 6);
    if (!open.length) list.appendChild(h('li.empty', t('missing.none')));
    for (const l of open) {
      const filled = l.seats.filter((s) => s.player || s.bot).length;
      list.appendChild(h('li.card', { dataset: { lobby: l.code } },
        h('div.card-main', {}, h('b.name-cut', { title: tableName(l) }, tableName(l)), h('small', `${filled}/${l.max_seats}`)),
        h('a.btn.small', { href: `#/lobby/${encodeURIComponent(l.code)}` }, t('missing.join'))));
    }
  }).catch(() => list.replaceChildren(h('li.empty', t('missing.none'))));
  return panel;
}
