/**
 * The replay viewer's analysis (GET/POST /api/matches/{id}/analysis, docs/API.md § Analysis):
 * the Strong computer player's estimate of each player's final margin move by move, as an
 * inline SVG graph (one line per player; clicking it jumps to the move), blunders marked, the
 * biggest swings listed (each a link to its move), and the suggested move of the step shown
 * drawn as a ghost tile on the board. Only for a finished match: never during play.
 *
 * ``analysisPanel({matchId, code, names, colours, jump})`` → ``{node, update(step, board)}``;
 * ``jump(n)`` shows move ``n``.
 */

import * as api from '../api.js';
import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { colourOf } from '../board/pieces.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 120;
const PAD = 6;

function svg(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** The evaluation graph of ``result`` (a ``carcassonne-analysis/1``). */
function graph(result, colours, jump) {
  const moves = result.moves;
  const n = moves.length;
  const seats = result.players.length;
  const peak = Math.max(5, ...moves.flatMap((m) => m.margins.map(Math.abs)));
  const x = (i) => PAD + (i / Math.max(1, n)) * (W - 2 * PAD);
  const y = (v) => H / 2 - (v / peak) * (H / 2 - PAD);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'eval-graph', id: 'eval-graph',
    role: 'img', 'aria-label': t('analysis.graphLabel') });
  const title = svg('title');
  title.textContent = t('analysis.graphLabel');
  root.appendChild(title);
  root.appendChild(svg('line', { x1: PAD, x2: W - PAD, y1: H / 2, y2: H / 2, class: 'eval-zero' }));
  for (let seat = 0; seat < seats; seat += 1) {
    const points = [[x(0), y(0)], ...moves.map((m, i) => [x(i + 1), y(m.margins[seat])])];
    root.appendChild(svg('polyline', { points: points.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' '),
      class: 'eval-line', stroke: colourOf(colours[seat]).fill, 'data-seat': seat }));
  }
  for (const [i, m] of moves.entries()) {
    if (!m.blunder) continue;
    // A zero-length round-capped line: a dot that stays round however the graph is stretched.
    const at = [x(i + 1), y(m.margins[m.seat])];
    root.appendChild(svg('line', { x1: at[0], x2: at[0], y1: at[1], y2: at[1], class: 'eval-blunder',
      stroke: colourOf(colours[m.seat]).fill, 'data-move': m.n }));
  }
  const cursor = svg('line', { y1: 0, y2: H, class: 'eval-cursor', id: 'eval-cursor' });
  root.appendChild(cursor);
  root.addEventListener('click', (e) => {
    const box = root.getBoundingClientRect();
    const frac = (e.clientX - box.left) / Math.max(1, box.width);
    jump(Math.max(0, Math.min(n, Math.round(((frac * W - PAD) / (W - 2 * PAD)) * n))));
  });
  return { root, moveCursor: (step) => { cursor.setAttribute('x1', x(step)); cursor.setAttribute('x2', x(step)); } };
}

export function analysisPanel({ matchId, code, names, colours, jump }) {
  const node = h('section.analysis#analysis', { 'aria-label': t('analysis.title') });
  let result = null;
  let drawn = null;
  let timer = null;
  let step = 0;
  let board = null;
  const path = `/api/matches/${encodeURIComponent(matchId)}/analysis`;

  function render(state) {
    clear(node);
    node.dataset.status = state.status;
    const head = h('h2.analysis-title', t('analysis.title'));
    if (state.status === 'done') {
      result = state.analysis;
      drawn = graph(result, colours, jump);
      const swings = h('ol.analysis-swings#analysis-swings', {}, result.swings.map((s) => h('li', {},
        h('a', { href: '#', dataset: { move: s.n }, onclick: (e) => { e.preventDefault(); jump(s.n); } },
          t('analysis.move', { n: s.n })), ' ', t('analysis.lost', { name: names[s.seat], n: s.loss }),
        result.moves[s.n - 1] && result.moves[s.n - 1].blunder ? h('span.tag.blunder', t('analysis.blunder')) : null)));
      node.append(head, drawn.root, h('div.analysis-foot', {}, h('b', t('analysis.swings')), swings),
        h('p.help#analysis-move'));
      update(step, board);
      return;
    }
    if (state.status === 'none' || state.status === 'failed') {
      node.append(head, state.status === 'failed' ? h('p.field-error', t('analysis.failed')) : null,
        h('button.btn.secondary#request-analysis', { type: 'button', onclick: async (e) => {
          e.target.disabled = true;
          try {
            render(await api.post(path, {}, { query: { code } }));
          } catch (err) {
            node.appendChild(h('p.field-error', api.friendly(err)));
            e.target.disabled = false;
          }
        } }, t('analysis.request')));
      return;
    }
    node.append(head, h('p.help', t(state.status === 'queued' ? 'analysis.queued' : 'analysis.running')));
    timer = setTimeout(load, 2000);
  }

  async function load() {
    timer = null;
    try {
      render(await api.get(path, { query: { code } }));
    } catch (err) {
      clear(node).appendChild(h('p.help', err.status === 409 ? t('analysis.live') : api.friendly(err)));
    }
  }

  /** Show step ``n`` (the position after move ``n``): the cursor, the move's note, its ghost. */
  function update(n, withBoard) {
    step = n;
    board = withBoard;
    if (!result || !drawn) return;
    drawn.moveCursor(n);
    const m = n > 0 ? result.moves[n - 1] : null;
    const note = node.querySelector('#analysis-move');
    const differs = m && JSON.stringify(m.best) !== JSON.stringify(m.played);
    if (note) {
      note.textContent = !m ? '' : `${t('analysis.move', { n: m.n })}: ${differs
        ? t('analysis.suggested', { tile: m.tile, x: m.best.at[0], y: m.best.at[1] }) : t('analysis.played')}${m.blunder ? ` · ${t('analysis.blunder')}` : ''}`;
    }
    if (board) {
      if (differs) board.setGhost(m.best.at[0], m.best.at[1], m.tile, m.best.rotation);
      else board.setGhost(null);
    }
  }

  load();
  return { node, update, stop: () => { if (timer) clearTimeout(timer); } };
}
