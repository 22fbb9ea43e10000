/**
 * Start: choose a display name. POST /api/players gives a signed token kept in localStorage;
 * the same token reclaims the same seats later. Afterwards the visitor continues to where they
 * were going (an invite link, a match to watch) or to the lobby browser.
 *
 * A returning player also sees their ongoing matches (myMatches.js): the ones waiting for them
 * first, marked "your turn" with the time they have left, each a link into the match.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, toast } from '../dom.js';
import { tileSvg, allTileTypes } from '../board/tiles.js';
import { withHook } from '../expansions/index.js';
import { t } from '../i18n.js';
import { lengthLimit } from '../widgets/page/limit.js';
import { myMatchesPanel } from './myMatches.js';

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
 * whose edges match their north and west neighbours (decoration for the start screen). The tiles
 * an expansion keeps out of it (``outOfLandscape``) are not drawn.
 */
export function miniLandscape(w, h) {
  const apart = withHook('outOfLandscape');
  const types = allTileTypes()
    .filter((t) => !t.icon && t.count > 0 && !apart.some((x) => x.outOfLandscape(t)));
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
