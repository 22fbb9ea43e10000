/**
 * The lobby browser: open public tables to join, live matches to watch, "create a table" and
 * "join with a code" (a code or a whole invite link). Both lists refresh every few seconds
 * while the page is visible.
 */

import { ratedTag } from '../ratings.js';
import * as api from '../api.js';
import { h, clear, toast, onVisibility } from '../dom.js';
import { rulesSummary } from './rules.js';

const REFRESH_MS = 3000;

/** The lobby code inside an invite link, or the text itself. */
export function extractCode(text) {
  const t = text.trim();
  const m = t.match(/#\/lobby\/([^/?#\s]+)/) || t.match(/\/lobby\/([^/?#\s]+)/);
  return m ? decodeURIComponent(m[1]) : t;
}

export function mount(root, ctx) {
  const openList = h('ul.card-list#open-lobbies', { 'aria-live': 'polite' });
  const liveList = h('ul.card-list#live-matches', { 'aria-live': 'polite' });
  const status = h('p.help.refresh-note', 'Loading…');
  const codeInput = h('input#join-code', { type: 'text', placeholder: 'Code or invite link', autocomplete: 'off',
    'aria-label': 'Lobby code or invite link' });
  const codeError = h('p.field-error', { 'aria-live': 'polite' });

  const joinForm = h('form.join-form', {
    onsubmit: (e) => {
      e.preventDefault();
      const code = extractCode(codeInput.value);
      if (!code) {
        codeError.textContent = 'Paste the code (or the invite link) your friend sent you.';
        return;
      }
      ctx.go(`#/lobby/${encodeURIComponent(code)}`);
    },
  }, h('label', { for: 'join-code' }, 'Join a private table'),
  h('div.input-row', {}, codeInput, h('button.btn#join-code-btn', { type: 'submit' }, 'Join')), codeError);

  root.appendChild(h('section.lobbies', {},
    h('div.lobbies-head', {},
      h('div', {}, h('h1', 'Tables'), h('p.lead', 'Sit down at an open table, watch a live game, or start your own.')),
      h('a.btn.primary.big#create-lobby', { href: '#/create' }, '+ Create a table')),
    h('div.lobbies-grid', {},
      h('div.panel', {}, h('h2', 'Open tables'), openList),
      h('div.panel', {}, h('h2', 'Live matches'), liveList),
      h('div.panel.side', {}, joinForm,
        h('hr'),
        h('h3', 'How it works'),
        h('ol.howto', {},
          h('li', 'Create a table (private tables are invite-only).'),
          h('li', 'Send the invite link or code to your friends, or add computer players.'),
          h('li', 'The host starts the match; anyone with the link can watch.')))),
    status));

  let stopped = false;
  let timer = null;

  function renderOpen(lobbies) {
    clear(openList);
    if (!lobbies.length) {
      openList.appendChild(h('li.empty', 'No open public tables right now. Create one!'));
      return;
    }
    for (const l of lobbies) {
      const filled = l.seats.filter((s) => s.player || s.bot).length;
      const host = l.seats.find((s) => s.player === l.host);
      openList.appendChild(h('li.card', { dataset: { lobby: l.code } },
        h('div.card-main', {},
          h('b', { title: l.name || '' }, l.name || 'Table', ratedTag(l)),
          h('small', `${host ? `${host.name}'s table · ` : ''}${rulesSummary(l.rules, l.preset)} · ${l.time_label || 'untimed'}`)),
        h('span.badge', `${filled}/${l.max_seats}`),
        h('a.btn.join', { href: `#/lobby/${encodeURIComponent(l.code)}` }, filled >= l.max_seats ? 'View' : 'Join')));
    }
  }

  function renderLive(matches) {
    clear(liveList);
    if (!matches.length) {
      liveList.appendChild(h('li.empty', 'No public matches being played.'));
      return;
    }
    for (const m of matches) {
      liveList.appendChild(h('li.card', { dataset: { match: m.id } },
        h('div.card-main', {},
          h('b', { title: m.name || '' }, m.name || 'Match'),
          h('small', `${(m.players || []).join(' · ')}${m.turn !== undefined ? ` · turn ${m.turn}` : ''} · ${m.time_label || 'untimed'}`)),
        h('span.badge', { title: 'Spectators' }, `${m.spectators || 0} watching`),
        h('a.btn.secondary.watch', { href: `#/match/${encodeURIComponent(m.id)}` }, 'Watch')));
    }
  }

  let failures = 0;
  async function refresh() {
    if (stopped) return;
    try {
      const data = await api.listLobbies();
      if (stopped) return;
      renderOpen(data.lobbies || []);
      renderLive(data.matches || []);
      failures = 0;
      status.textContent = `Updated ${new Date().toLocaleTimeString()} · refreshes automatically`;
    } catch (err) {
      failures += 1;
      status.textContent = `Could not refresh: ${api.friendly(err)}`;
      if (failures === 1 && err.code !== 'network') toast(api.friendly(err), 'error');
    }
    if (!stopped && !document.hidden) timer = setTimeout(refresh, REFRESH_MS * Math.min(4, 1 + failures));
  }

  const offVis = onVisibility((visible) => {
    clearTimeout(timer);
    if (visible) refresh();
  });
  refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
    offVis();
  };
}
