/**
 * Start: choose a display name. POST /api/players gives a signed token kept in localStorage;
 * the same token reclaims the same seats later. Afterwards the visitor continues to where they
 * were going (an invite link, a match to watch) or to the lobby browser.
 *
 * A returning player also sees their ongoing matches (GET /api/me/matches): the ones waiting
 * for them first, marked "your turn" with the time they have left, each a link into the match.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear, toast, onVisibility } from '../dom.js';
import { tileSvg, allTileTypes } from '../tiles.js';
import { t } from '../i18n.js';
import { lengthLimit } from '../limit.js';
import { formatClock } from '../match/clock.js';
import { timeLabel } from './rules.js';

const REFRESH_MS = 20_000;

const NAME_RE = /^[\p{L}\p{N} _\-.']{1,24}$/u;

export function validName(name) {
  const n = name.trim();
  if (!n) return t('start.nameEmpty');
  if (n.length > 24) return t('start.nameLong');
  if (!NAME_RE.test(n)) return t('start.nameChars');
  return null;
}

/** Edge letter on board side ``side`` of tile type ``t`` turned ``rotation``. */
function edgeAt(t, rotation, side) {
  return t.edges[(side - rotation / 90 + 8) % 4];
}

/**
 * A small landscape whose tiles really fit together: filled row by row with random base tiles
 * whose edges match their north and west neighbours (decoration for the start screen).
 */
export function miniLandscape(w, h) {
  const types = allTileTypes().filter((t) => !t.river && !t.icon && t.count > 0);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const grid = [];
    let ok = true;
    for (let y = 0; y < h && ok; y += 1) {
      for (let x = 0; x < w && ok; x += 1) {
        const north = y > 0 ? grid[(y - 1) * w + x] : null;
        const west = x > 0 ? grid[y * w + x - 1] : null;
        const options = [];
        for (const t of types) {
          for (const r of [0, 90, 180, 270]) {
            if (north && edgeAt(t, r, 0) !== edgeAt(north.t, north.rotation, 2)) continue;
            if (west && edgeAt(t, r, 3) !== edgeAt(west.t, west.rotation, 1)) continue;
            // Favour the common tiles, as the real deck does.
            for (let k = 0; k < t.count; k += 1) options.push({ t, rotation: r });
          }
        }
        if (!options.length) ok = false;
        else grid.push(options[Math.floor(Math.random() * options.length)]);
      }
    }
    if (ok) return grid.map((c) => ({ id: c.t.id, rotation: c.rotation }));
  }
  return [];
}

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
      h('b', { title: m.name || '' }, m.name || 'Match', ' ', status),
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

export function mount(root, ctx) {
  const next = ctx.next || ctx.query.get('next') || '#/lobbies';
  const who = session.player();
  const input = h('input#name', { type: 'text', name: 'name', autocomplete: 'nickname', maxlength: 24,
    placeholder: t('start.namePlaceholder'), required: true, 'aria-describedby': 'name-help name-error',
    value: who ? who.name : session.lastName() });
  const error = h('p#name-error.field-error', { 'aria-live': 'polite' });
  const button = h('button.btn.primary.big#start-continue', { type: 'submit' },
    who ? t('start.continue') : t('start.play'));
  const form = h('form.start-form', {
    onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      const problem = validName(name);
      error.textContent = problem || '';
      if (problem) {
        input.focus();
        return;
      }
      if (who && who.name === name && session.token()) {
        ctx.go(next);
        return;
      }
      button.disabled = true;
      button.textContent = t('start.joining');
      try {
        const res = await api.createPlayer(name);
        session.save(res.token, res.player);
        session.rememberName(res.player.name);
        toast(t('start.welcome', { name: res.player.name }), 'success');
        ctx.go(next);
      } catch (err) {
        error.textContent = api.friendly(err);
        button.disabled = false;
        button.textContent = t('start.play');
      }
    },
  },
  h('label', { for: 'name' }, t('start.nameLabel')),
  input,
  lengthLimit(input).node,
  h('p#name-help.help', t('start.nameHelp')),
  error,
  button,
  who ? h('p.help', t('start.youAre', { name: who.name })) : null);

  const collage = h('div.collage', { 'aria-hidden': 'true' });
  miniLandscape(5, 3).forEach(({ id, rotation }, i) => {
    const svg = tileSvg(id, rotation, 84);
    svg.style.setProperty('--i', i);
    collage.appendChild(svg);
  });

  const mine = who && session.token() ? myMatchesPanel() : null;
  root.appendChild(h('section.start', {},
    h('div.start-hero', {},
      collage,
      h('h1', 'Carcassonne'),
      h('p.tagline', t('start.tagline'))),
    h('div.start-side', {}, h('div.panel.start-panel', {}, form), mine ? mine.node : null)));
  setTimeout(() => input.focus(), 0);
  return mine ? () => mine.stop() : null;
}
