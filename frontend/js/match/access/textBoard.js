/**
 * The text board: the match in words for screen-reader and keyboard players. The drawn tile's
 * sides ("north: city, east: road, …"), where it may go as a list of choices ("at 2, −1 turned
 * 90°: north road, …"), the follower's places as a list ("road, east side", "no follower"), the
 * board as a list of tiles with their sides and followers, and the active expansions' own lines
 * (their ``textBoardLines``, ``edgeWords`` and ``spotWords`` hooks: ../../expansions/index.js; this
 * module names no expansion). Turned on with the header's "Text board" button or the T key (kept
 * on this device); moves and scores are read out by the screen's ``aria-live`` announcer
 * (./attention.js).
 *
 * Coordinates as the server's: x grows to the east, y to the south, the start tile at (0, 0).
 * It sends actions through ``m.hooks.sendAction`` (./play.js) like the board does.
 */

import { h, clear } from '../../dom.js';
import { t } from '../../i18n.js';
import { tileType } from '../../board/tiles.js';
import { collect, edgeWords, firstOfAll } from '../../expansions/index.js';
import { roleLabel } from '../../words.js';

const KEY = 'carcassonne.textBoard';
const SIDES = ['N', 'E', 'S', 'W'];
/** An edge letter's ``tb.edge.*`` key: the base game's, then the expansions' (on first use). */
let edges = null;
const edgeKey = (letter) => {
  if (!edges) edges = { C: 'city', R: 'road', F: 'field', ...edgeWords() };
  return edges[letter];
};

/** Is the text board on (on this device)? */
export function isOn() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** Turn the text board on or off (and focus it when on). */
export function toggle(m) {
  const on = !isOn();
  try {
    localStorage.setItem(KEY, on ? '1' : '0');
  } catch { /* private mode: on for this screen only */ }
  m.ui.textBoardOn = on;
  m.ui.textBoardSig = null;
  renderTextBoard(m);
  if (on && m.dom.section && m.dom.panelToggle) {
    // On a phone the side panel is a drawer: open it, the text board is at its top.
    m.dom.section.classList.add('panel-open');
    m.dom.panelToggle.setAttribute('aria-expanded', 'true');
  }
  if (on) focusFirst(m, true);
}

const minus = (n) => String(n).replace('-', '−');
const at = ([x, y]) => t('tb.at', { x: minus(x), y: minus(y) });

/** "north: city, east: road, south: field, west: road" for tile ``id`` turned ``rotation``. */
export function tileWords(id, rotation) {
  const type = tileType(id);
  if (!type || !type.edges) return id;
  const turns = ((rotation / 90) % 4 + 4) % 4;
  const sides = SIDES.map((side, i) => {
    const edge = edgeKey(type.edges[(i - turns + 4) % 4]);
    return edge ? `${t(`tb.side.${side}`)}: ${t(`tb.edge.${edge}`)}` : null;
  }).filter(Boolean);
  const cloister = (type.segments || []).some((s) => s.kind === 'cloister');
  return [...sides, cloister ? t('tb.cloister') : null].filter(Boolean).join(', ');
}

/** A follower's place in words: "city, north side", "field, north side's west half", "cloister". */
export function spotWords(spot) {
  const theirs = firstOfAll('spotWords', spot);
  if (theirs !== null) return theirs;
  const [kind, edge] = spot.split(':');
  const what = t(`tb.edge.${kind}`);
  if (!edge) return what;
  if (edge.length === 1) return t('tb.spotSide', { what, side: t(`tb.side.${edge}`) });
  return t('tb.spotHalf', { what, side: t(`tb.side.${edge[0]}`), half: t(`tb.side.${edge[2]}`) });
}

function followersAt(m, x, y) {
  const s = m.model.state();
  const names = m.model.names();
  return (s.followers || []).filter((f) => f.at && f.at[0] === x && f.at[1] === y)
    .map((f) => t('tb.follower', { name: names[f.seat], role: roleLabel(f.role), spot: spotWords(f.spot) }));
}

const words = (key) => t(key).toLowerCase().split('|').map((w) => w.trim()).filter(Boolean);

/**
 * A typed command as an action, or null: "place 2 -1 90" (the rotation may be left out: the
 * first that fits), "follower road e", "follower field ssw", "follower cloister", "pass".
 * The keywords and feature names are the reader's language's (``tb.kw.*``, ``tb.edge.*``), the
 * English ones always work too.
 */
export function parseCommand(text, s) {
  const parts = text.toLowerCase().replace(/[,;:()°]/g, ' ').replace(/−/g, '-').split(/\s+/).filter(Boolean);
  if (!parts.length) return null;
  const [head, ...rest] = parts;
  const is = (key, english) => [...words(key), ...english].includes(head);
  if (s.phase === 'place_tile' && is('tb.kw.place', ['place', 'put', 'p'])) {
    const [x, y, r] = rest.filter((w) => /^-?\d+$/.test(w)).map(Number);
    const fits = (s.legal_placements || []).filter(([lx, ly, lr]) => lx === x && ly === y && (r === undefined || lr === r));
    return fits.length ? { type: 'place_tile', at: [x, y], rotation: fits[0][2] } : null;
  }
  if (s.phase === 'deploy' && is('tb.kw.pass', ['pass', 'none', 'n'])) return { type: 'pass' };
  if (s.phase === 'deploy' && is('tb.kw.follower', ['follower', 'f'])) {
    const kinds = ['road', 'city', 'field', 'cloister'];
    const kind = kinds.find((k) => rest[0] === k || words(`tb.edge.${k}`).includes(rest[0]));
    if (!kind) return null;
    const side = (rest[1] || '').toUpperCase();
    const spot = (s.legal_spots || []).find((sp) => {
      const [k, edge] = sp.split(':');
      return k === kind && (!side || edge === side || (edge && edge.startsWith(side)));
    });
    return spot ? { type: 'place_follower', spot } : null;
  }
  return null;
}

/** The typed-command field: Enter sends the move it names, or says why not. */
function commandBox(m, s) {
  const error = h('p.field-error#tb-command-error', { role: 'alert' });
  const input = h('input#tb-command', { type: 'text', autocomplete: 'off', 'aria-describedby': 'tb-command-help' });
  return h('form.tb-form#tb-command-form', {
    onsubmit: (e) => {
      e.preventDefault();
      const action = parseCommand(input.value, s);
      if (!action) {
        error.textContent = t('tb.commandBad', { text: input.value });
        return;
      }
      m.hooks.sendAction(action);
    },
  }, h('label', { for: 'tb-command' }, t('tb.command')), input,
  h('small.help#tb-command-help', t(s.phase === 'deploy' ? 'tb.commandHelpDeploy' : 'tb.commandHelpPlace')), error);
}

/** The choices of the seat to act, when it is this reader's turn. */
function choices(m, s) {
  if (!m.model.myTurn() || m.ui.pending) {
    const names = m.model.names();
    return h('p#tb-waiting', m.model.isOver() ? t('tb.over') : t('tb.waiting', { name: names[s.seat] }));
  }
  if (s.phase === 'place_tile') {
    const list = h('select#tb-placement', { 'aria-label': t('tb.where') },
      ...(s.legal_placements || []).map(([x, y, r]) => h('option', { value: `${x},${y},${r}` },
        `${at([x, y])} ${t('tb.turned', { r })}: ${tileWords(s.tile, r)}`)));
    return h('div', {}, h('form.tb-form#tb-place-form', {
      onsubmit: (e) => {
        e.preventDefault();
        const [x, y, r] = list.value.split(',').map(Number);
        m.hooks.sendAction({ type: 'place_tile', at: [x, y], rotation: r });
      },
    }, h('label', { for: 'tb-placement' }, t('tb.where')), list, h('button.btn.small.primary#tb-place', { type: 'submit' }, t('tb.place'))),
    commandBox(m, s));
  }
  if (s.phase === 'deploy') {
    const list = h('select#tb-spot', { 'aria-label': t('tb.which') },
      h('option', { value: '' }, t('tb.noFollower')),
      ...(s.legal_spots || []).map((spot) => h('option', { value: spot }, spotWords(spot))));
    return h('div', {}, h('form.tb-form#tb-deploy-form', {
      onsubmit: (e) => {
        e.preventDefault();
        m.hooks.sendAction(list.value ? { type: 'place_follower', spot: list.value } : { type: 'pass' });
      },
    }, h('label', { for: 'tb-spot' }, t('tb.which')), list, h('button.btn.small.primary#tb-deploy', { type: 'submit' }, t('tb.confirm'))),
    commandBox(m, s));
  }
  return h('p', t('tb.useBoard'));
}

/** Focus the first choice when it is this reader's turn (never away from a field being typed in). */
function focusFirst(m, always = false) {
  const node = m.dom.textBoard;
  if (!node || node.hidden) return;
  const active = document.activeElement;
  const typing = active && ['INPUT', 'TEXTAREA'].includes(active.tagName);
  if (typing && !always) return;
  if (!always && active && active !== document.body && !node.contains(active)) return;
  const first = node.querySelector('select, button') || node.querySelector('h2');
  if (first) first.focus();
}

/** (Re)draw the text board when the match moved on (or it was turned on). */
export function renderTextBoard(m) {
  const node = m.dom.textBoard;
  const s = m.model.state();
  if (!node || !s) return;
  const on = m.ui.textBoardOn ?? isOn();
  m.ui.textBoardOn = on;
  node.hidden = !on;
  if (m.dom.textBoardToggle) m.dom.textBoardToggle.setAttribute('aria-pressed', String(on));
  if (!on) return;
  const sig = `${m.model.version}:${m.model.you()}:${Boolean(m.ui.pending)}`;
  if (sig === m.ui.textBoardSig) return;
  const hadFocus = node.contains(document.activeElement);
  m.ui.textBoardSig = sig;
  const names = m.model.names();
  const tiles = [...(s.board || [])].sort((a, b) => a.at[1] - b.at[1] || a.at[0] - b.at[0]);
  clear(node).append(
    h('h2#tb-title', { tabindex: '-1' }, t('tb.title')),
    s.tile ? h('p#tb-tile', m.model.myTurn() ? t('tb.yourTile', { tile: tileWords(s.tile, 0) })
      : t('tb.theirTile', { name: names[s.seat], tile: tileWords(s.tile, 0) })) : null,
    choices(m, s),
    ...collect(m.model, 'textBoardLines', s).flat(),
    h('h3', t('tb.tiles', { n: tiles.length })),
    h('ol.tb-tiles#tb-tiles', {}, ...tiles.map((tile) => {
      const who = followersAt(m, tile.at[0], tile.at[1]);
      return h('li', {}, `${at(tile.at)}: ${tileWords(tile.tile, tile.rotation)}`,
        who.length ? `. ${who.join('; ')}` : '');
    })));
  if (m.model.myTurn() && !m.ui.pending) focusFirst(m, hadFocus);
  else if (hadFocus) node.querySelector('#tb-title').focus();
}
