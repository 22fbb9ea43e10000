/**
 * The lobby browser: open public tables to join, live matches to watch, "create a table" and
 * "join with a code" (a code or a whole invite link). Both lists refresh every few seconds
 * while the page is visible. Above them, "Play now" (screens/playNow.js): a seat in a match with
 * strangers, and the queue of who waits in which pool.
 */

import { ratedTag } from '../widgets/player/ratings.js';
import * as api from '../api.js';
import { t as tr } from '../i18n.js';
import { tableName } from '../tableName.js';
import { h, clear, toast, onVisibility } from '../dom.js';
import { rulesSummary, timeLabel } from '../widgets/table/rules.js';
import { policyLabel } from '../match/aids.js';
import { myMatchesPanel } from './myMatches.js';
import { playNowPanel } from './playNow.js';
import { tableFilters } from '../widgets/table/tableFilters.js';

const REFRESH_MS = 3000;

/** The lobby code inside an invite link, or the text itself. */
export function extractCode(text) {
  const t = text.trim();
  const m = t.match(/#\/lobby\/([^/?#\s]+)/) || t.match(/\/lobby\/([^/?#\s]+)/);
  return m ? decodeURIComponent(m[1]) : t;
}

/** An open table's "Join" (or "View" when full) link, named with the table for screen readers. */
function joinLink(lobby, filled) {
  const action = filled >= lobby.max_seats ? tr('lobbies.view') : tr('lobbies.join');
  return h('a.btn.join', { href: `#/lobby/${encodeURIComponent(lobby.code)}`,
    'aria-label': tr('lobbies.actionOn', { action, name: tableName(lobby) }) }, action);
}

/**
 * Fill ``list`` again (``draw``): the lists refresh every few seconds, and a link someone had
 * tabbed to keeps the focus (the same href in the new list) instead of dropping it to the page.
 */
function refill(list, draw) {
  const active = document.activeElement;
  const href = active && list.contains(active) ? active.getAttribute('href') : null;
  clear(list);
  draw();
  if (!href) return;
  const again = [...list.querySelectorAll('a[href]')].find((a) => a.getAttribute('href') === href);
  if (again) again.focus();
}

export function mount(root, ctx) {
  const openList = h('ul.card-list#open-lobbies', { 'aria-live': 'polite' });
  const liveList = h('ul.card-list#live-matches', { 'aria-live': 'polite' });
  const status = h('p.help.refresh-note', tr('app.loading'));
  const codeInput = h('input#join-code', { type: 'text', placeholder: tr('lobbies.codePlaceholder'), autocomplete: 'off',
    'aria-label': tr('lobbies.codeLabel') });
  const codeError = h('p.field-error', { 'aria-live': 'polite' });

  const joinForm = h('form.join-form', {
    onsubmit: (e) => {
      e.preventDefault();
      const code = extractCode(codeInput.value);
      if (!code) {
        codeError.textContent = tr('lobbies.codeMissing');
        return;
      }
      ctx.go(`#/lobby/${encodeURIComponent(code)}`);
    },
  }, h('label', { for: 'join-code' }, tr('lobbies.joinPrivate')),
  h('div.input-row', {}, codeInput, h('button.btn#join-code-btn', { type: 'submit' }, tr('lobbies.join'))), codeError);

  const filters = tableFilters(() => refreshSoon());
  const mine = myMatchesPanel(); // issue 13: your ongoing matches, your turn first (hidden when none)
  const playNow = playNowPanel(ctx);
  root.appendChild(h('section.lobbies', {},
    h('div.lobbies-head', {},
      h('div', {}, h('h1', tr('lobbies.title')), h('p.lead', tr('lobbies.lead'))),
      h('a.btn.primary.big#create-lobby', { href: '#/create' }, tr('lobbies.create'))),
    mine.node,
    playNow.node,
    h('div.lobbies-grid', {},
      h('div.panel', {}, h('h2', tr('lobbies.open')), filters.node, openList),
      h('div.panel', {}, h('h2', tr('lobbies.live')), liveList),
      h('div.panel.side', {}, joinForm,
        h('hr'),
        h('h3', tr('lobbies.how')),
        h('ol.howto', {},
          h('li', tr('lobbies.how1')),
          h('li', tr('lobbies.how2')),
          h('li', tr('lobbies.how3'))))),
    status));

  let stopped = false;
  let timer = null;

  const renderOpen = (lobbies) => refill(openList, () => drawOpen(lobbies));
  const renderLive = (matches) => refill(liveList, () => drawLive(matches));

  function drawOpen(lobbies) {
    if (!lobbies.length) {
      openList.appendChild(h('li.empty', filters.active() ? tr('filters.none') : tr('lobbies.noOpen')));
      return;
    }
    for (const l of lobbies) {
      const filled = l.seats.filter((s) => s.player || s.bot).length;
      const host = l.seats.find((s) => s.player === l.host);
      openList.appendChild(h('li.card', { dataset: { lobby: l.code } },
        h('div.card-main', {},
          h('b', { title: tableName(l, '') }, tableName(l), ratedTag(l)),
          // The host's name is already the title of a table its host did not name.
          // The language the host plays in leads the details line (the title stays the name).
          h('small', {}, l.language ? h('span.tag.lang', { title: tr(`filters.spoken.${l.language}`), lang: l.language },
            l.language.toUpperCase()) : null,
          [host && l.name ? tr('lobbies.hostTable', { name: host.name }) : null, rulesSummary(l.rules, l.preset),
            timeLabel(l.time_control, l.time_label), policyLabel(l.aids)].filter(Boolean).join(' · '))),
        h('span.badge', `${filled}/${l.max_seats}`),
        joinLink(l, filled)));
    }
  }

  function drawLive(matches) {
    if (!matches.length) {
      liveList.appendChild(h('li.empty', tr('lobbies.noLive')));
      return;
    }
    for (const m of matches) {
      liveList.appendChild(h('li.card', { dataset: { match: m.id } },
        h('div.card-main', {},
          h('b', { title: tableName(m, '') }, tableName(m, tr('lobbies.match'))),
          h('small', [...(m.players || []), m.turn !== undefined ? tr('lobbies.turn', { n: m.turn }) : null,
            timeLabel(m.time_control, m.time_label)].filter((x) => x !== null).join(' · '))),
        h('span.badge', { title: tr('lobbies.spectators') }, tr('lobbies.watching', { n: m.spectators || 0 })),
        h('a.btn.secondary.watch', { href: `#/match/${encodeURIComponent(m.id)}`,
          'aria-label': tr('lobbies.actionOn', { action: tr('lobbies.watch'), name: tableName(m, tr('lobbies.match')) }) },
        tr('lobbies.watch'))));
    }
  }

  let failures = 0;
  // Each refresh is numbered: an answer to an older one (the filters changed while it was on
  // its way) is dropped, and only the newest refresh schedules the next.
  let asked = 0;
  async function refresh() {
    if (stopped) return;
    const mine = ++asked;
    try {
      const [data, queue] = await Promise.all([api.listLobbies(filters.query()), api.get('/api/seeks', { auth: false })]);
      if (stopped || mine !== asked) return;
      playNow.refresh(queue);
      renderOpen(data.lobbies || []);
      renderLive(data.matches || []);
      failures = 0;
      status.textContent = tr('lobbies.updated', { time: new Date().toLocaleTimeString() });
    } catch (err) {
      if (mine !== asked) return;
      failures += 1;
      status.textContent = tr('lobbies.refreshFailed', { why: api.friendly(err) });
      if (failures === 1 && err.code !== 'network') toast(api.friendly(err), 'error');
    }
    if (!stopped && !document.hidden) timer = setTimeout(refresh, REFRESH_MS * Math.min(4, 1 + failures));
  }

  // A filter changed: refresh now (the running timer is replaced).
  function refreshSoon() {
    clearTimeout(timer);
    refresh();
  }

  const offVis = onVisibility((visible) => {
    clearTimeout(timer);
    if (visible) refresh();
  });
  refresh();
  return () => {
    mine.stop();
    playNow.stop();
    stopped = true;
    clearTimeout(timer);
    offVis();
  };
}
