/**
 * Start: choose a display name. POST /api/players gives a signed token kept in localStorage;
 * the same token reclaims the same seats later. Afterwards the visitor continues to where they
 * were going (an invite link, a match to watch) or to the lobby browser.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, toast } from '../dom.js';
import { tileSvg, allTileTypes } from '../tiles.js';

const NAME_RE = /^[\p{L}\p{N} _\-.']{1,24}$/u;

export function validName(name) {
  const n = name.trim();
  if (!n) return 'Please enter a name.';
  if (n.length > 24) return 'At most 24 characters, please.';
  if (!NAME_RE.test(n)) return "Letters, digits, spaces and _ - . ' only.";
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

export function mount(root, ctx) {
  const next = ctx.next || ctx.query.get('next') || '#/lobbies';
  const who = session.player();
  const input = h('input#name', { type: 'text', name: 'name', autocomplete: 'nickname', maxlength: 24,
    placeholder: 'e.g. Ann', required: true, 'aria-describedby': 'name-help name-error',
    value: who ? who.name : session.lastName() });
  const error = h('p#name-error.field-error', { 'aria-live': 'polite' });
  const button = h('button.btn.primary.big#start-continue', { type: 'submit' },
    who ? 'Continue as this name' : 'Start playing');
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
      button.textContent = 'Joining…';
      try {
        const res = await api.createPlayer(name);
        session.save(res.token, res.player);
        session.rememberName(res.player.name);
        toast(`Welcome, ${res.player.name}!`, 'success');
        ctx.go(next);
      } catch (err) {
        error.textContent = api.friendly(err);
        button.disabled = false;
        button.textContent = 'Start playing';
      }
    },
  },
  h('label', { for: 'name' }, 'Your name at the table'),
  input,
  h('p#name-help.help', '1–24 letters or digits. Friends see it on the board. No account, no password.'),
  error,
  button,
  who ? h('p.help', `You play as ${who.name}. Choosing a new name starts a new identity: your seats stay with the old one.`) : null);

  const collage = h('div.collage', { 'aria-hidden': 'true' });
  miniLandscape(5, 3).forEach(({ id, rotation }, i) => {
    const svg = tileSvg(id, rotation, 84);
    svg.style.setProperty('--i', i);
    collage.appendChild(svg);
  });

  root.appendChild(h('section.start', {},
    h('div.start-hero', {},
      collage,
      h('h1', 'Carcassonne'),
      h('p.tagline', 'Build cities, roads and cloisters with friends — right in your browser. Invite them with a link, watch live games, play on your phone.')),
    h('div.panel.start-panel', {}, form)));
  setTimeout(() => input.focus(), 0);
  return null;
}
