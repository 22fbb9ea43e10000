/**
 * The replay viewer. ``#/replay/ID[?move=N&code=C]``: a finished match step by step (a live
 * one up to its latest move: spectators scroll back, never forward); ``#/replay`` alone: open
 * any ``carcassonne-record/1`` file (drag and drop or file picker) — an invalid record is
 * refused with the move and the reason, as ``carcassonne replay`` says it.
 *
 * Step 0 is the start; step n the position after move n. First / back / forward / last, a
 * slider, Home/End and arrow keys (←/→) move through it; the URL's ``?move=`` follows, so a
 * link points at a move, and every line of the log is a link to its move. The side shows scores, followers in supply, the score breakdown and the
 * log up to the step. "Verify this shuffle" checks the revealed seed against the commitment
 * published at the start and every drawn tile against the committed order. A finished match
 * shows the Strong computer player's analysis under the controls (``../replay/analysis.js``):
 * the evaluation graph, the biggest swings and the suggested move as a ghost tile.
 */

import * as api from '../api.js';
import { Board } from '../board/board.js';
import { h, clear } from '../dom.js';
import { t, has } from '../i18n.js';
import { codeFor, known, remember, showInAddress } from '../stored/inviteCodes.js';
import { isMissing, isRefused, missingPanel, refusedPanel } from '../widgets/page/missing.js';
import { errorPanel } from '../widgets/page/errorPanel.js';
import { swatch, meepleIcon } from '../board/pieces.js';
import { describe } from '../words.js';
import { tableName } from '../tableName.js';
import { analysisPanel } from '../replay/analysis.js';
import * as saved from '../stored/savedReplays.js';

const COLOURS = ['red', 'blue', 'green', 'yellow', 'black'];
const CATEGORIES = ['city', 'road', 'cloister', 'farm'];

function dropZone(onRecord) {
  const error = h('p#record-error.field-error', { 'aria-live': 'polite' });
  const input = h('input#record-file', { type: 'file', accept: '.json,application/json' });
  const read = async (file) => {
    error.textContent = '';
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch {
      error.textContent = t('replay.notJson', { name: file.name });
      return;
    }
    try {
      onRecord(await api.post('/api/replay', record, { auth: false }));
    } catch (err) {
      error.textContent = api.friendly(err);
    }
  };
  input.addEventListener('change', () => read(input.files[0]));
  const zone = h('div.panel.drop-zone#drop-zone', {
    ondragover: (e) => { e.preventDefault(); zone.classList.add('over'); },
    ondragleave: () => zone.classList.remove('over'),
    ondrop: (e) => { e.preventDefault(); zone.classList.remove('over'); read(e.dataTransfer.files[0]); },
  }, h('h1', t('replay.openTitle')), h('p.lead', t('replay.openLead')),
  h('label.btn.primary', { for: 'record-file' }, t('replay.choose')), input, error);
  return zone;
}

/** The replays saved on this device (they open offline), each with a link and a remove button. */
function savedList() {
  const entries = saved.list();
  const box = h('section.panel.saved-replays#saved-replays', {}, h('h2', t('replay.savedTitle')));
  if (!entries.length) {
    box.appendChild(h('p.help', t('replay.savedNone')));
    return box;
  }
  const items = h('ul.saved-list');
  for (const e of entries) {
    const item = h('li', {},
      h('a.saved-replay', { href: `#/replay?saved=${encodeURIComponent(e.key)}` }, e.title || e.players.join(' · ')),
      h('small.help', ` ${e.players.join(' · ')}`),
      h('button.btn.small.secondary', { type: 'button', 'aria-label': t('replay.removeSaved', { name: e.title || e.key }),
        onclick: () => { saved.remove(e.key); item.remove(); } }, t('replay.remove')));
    items.appendChild(item);
  }
  box.appendChild(items);
  return box;
}

/**
 * One line of the shuffle check in words: the check's name and, when it passed, what it proved
 * (the server's own detail, in English, only where it holds data or says what failed).
 */
function checkText(c) {
  const name = has(`replay.check.${c.name}`) ? t(`replay.check.${c.name}`) : c.name;
  if (c.ok && has(`replay.checkOk.${c.name}`)) return `${name}: ${t(`replay.checkOk.${c.name}`)}`;
  return `${name}: ${c.detail}`;
}

export function mount(root, ctx) {
  let alive = true;
  let board = null;
  let data = null;
  let colours = COLOURS;
  let step = 0;
  let code = ctx.query.get('code') || known(ctx.id);

  function onKey(e) {
    if (!data || ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName) && e.target.type !== 'range') return;
    const keys = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: data.steps.length };
    if (e.key in keys) {
      e.preventDefault();
      show(keys[e.key]);
    }
  }
  window.addEventListener('keydown', onKey);

  const ui = {};
  function layout() {
    clear(root);
    const names = data.players;
    ui.slider = h('input#replay-slider', { type: 'range', min: 0, max: data.steps.length, value: 0,
      'aria-label': t('replay.slider'), oninput: () => show(Number(ui.slider.value)) });
    ui.counter = h('span#replay-counter.badge');
    const btn = (id, label, target) => h(`button.icon-btn#${id}`, { type: 'button', title: label, 'aria-label': label,
      onclick: () => show(target()) }, label === t('replay.first') ? '«' : label === t('replay.back') ? '‹'
      : label === t('replay.forward') ? '›' : '»');
    ui.scores = h('tbody');
    ui.breakdown = h('tbody');
    ui.log = h('ol.replay-log#replay-log', { 'aria-live': 'polite' });
    ui.verify = h('div#verify-result');
    const host = h('div.board-host.replay-board');
    const live = data.finished === false;
    // Never during play: the analysis is for finished matches only.
    ui.analysis = ctx.id && !live ? analysisPanel({ matchId: ctx.id, code, names, colours, jump: (n) => show(n) }) : null;
    root.append(h('section.replay', {},
      h('div.replay-main', {},
        h('div.replay-head', {},
          h('h1.replay-title', tableName(data.table, t('replay.title'))),
          h('p.help', names.join(' · '), live ? ` · ${t('replay.liveNote')} ` : '',
            live && ctx.id ? h('a#back-to-live', { href: `#/match/${encodeURIComponent(ctx.id)}${code ? `?code=${encodeURIComponent(code)}` : ''}` },
              t('replay.backToLive')) : null)),
        host,
        h('div.replay-controls', {},
          btn('replay-first', t('replay.first'), () => 0),
          btn('replay-back', t('replay.back'), () => step - 1),
          ui.slider,
          btn('replay-forward', t('replay.forward'), () => step + 1),
          btn('replay-last', t('replay.last'), () => data.steps.length),
          ui.counter),
        ui.analysis ? ui.analysis.node : null),
      h('aside.replay-side.panel', {},
        h('table.table.replay-scores', {}, h('thead', {}, h('tr', {}, h('th', t('replay.player')), h('th', t('replay.score')),
          h('th', t('replay.supply')))), ui.scores),
        h('h2', t('replay.breakdown')),
        h('table.table.replay-breakdown#replay-breakdown', {}, h('thead', {}, h('tr', {}, h('th', ''),
          ...CATEGORIES.map((c) => h('th', t(`replay.cat.${c}`))))), ui.breakdown),
        h('h2', t('replay.log')), ui.log,
        fairnessBox(),
        h('button.btn.secondary#replay-save', { type: 'button', onclick: (e) => saveHere(e.currentTarget) },
          t('replay.save')),
        data.record ? h('a.btn.secondary#replay-download', { download: `${data.id || 'match'}.json`,
          href: URL.createObjectURL(new Blob([JSON.stringify(data.record, null, 1)], { type: 'application/json' })) },
        t('replay.download')) : null)));
    board = new Board(host, {});
    ui.names = names;
  }

  function fairnessBox() {
    const rows = [];
    if (data.commitment) rows.push(h('p.help.commitment', t('replay.commitment'), h('code', data.commitment)));
    const revealed = data.record && data.record.fairness;
    if (!revealed) {
      rows.push(h('p.help', data.commitment ? t('replay.notRevealed') : t('replay.noCommitment')));
      return h('div.fairness', {}, h('h2', t('replay.fairTitle')), ...rows);
    }
    rows.push(h('button.btn.secondary#verify-shuffle', {
      type: 'button',
      onclick: async () => {
        clear(ui.verify);
        const query = data.commitment ? `?commitment=${data.commitment}` : '';
        const v = await api.post(`/api/verify${query}`, data.record, { auth: false });
        ui.verify.append(
          h('p', { class: v.ok ? 'verify-ok' : 'verify-bad' }, v.ok ? t('replay.verified') : `${t('replay.notVerified')} ${v.problem}`),
          h('ul.verify-checks', {}, ...v.checks.map((c) => h('li', `${c.ok ? '✓' : '✗'} ${checkText(c)}`))));
      },
    }, t('replay.verify')));
    return h('div.fairness', {}, h('h2', t('replay.fairTitle')), ...rows, ui.verify);
  }

  /** Keep this replay on the device (it opens offline from the record screen). */
  function saveHere(button) {
    const key = ctx.id || (ctx.query.get('saved')) || `file-${Date.now()}`;
    const title = data.table ? tableName(data.table, t('replay.title')) : t('replay.title');
    const done = saved.save({ key, title, players: data.players, data, colours });
    button.textContent = done ? t('replay.savedDone') : t('replay.saveFailed');
    button.disabled = Boolean(done);
  }

  /** The link to move ``n`` of this replay (a record file has no address: the same page). */
  function moveHref(n) {
    if (!ctx.id) return '#/replay';
    const q = new URLSearchParams(ctx.query);
    q.set('move', String(n));
    return `#/replay/${encodeURIComponent(ctx.id)}?${q}`;
  }

  function positionAt(n) {
    return n === 0 ? data.start : data.steps[n - 1];
  }

  function show(n) {
    if (!data) return;
    step = Math.max(0, Math.min(data.steps.length, n));
    const pos = positionAt(step);
    const tiles = [...data.start.board, ...data.steps.slice(0, step).map((s) => s.placed).filter(Boolean)];
    board.setTiles(tiles, { animate: false });
    board.setFollowers(pos.followers, colours);
    const cur = step > 0 ? data.steps[step - 1] : null;
    board.setLastMove(cur && cur.placed ? cur.placed.at : null, cur ? colours[cur.seat] : null);
    board.drawExpansions(pos, colours, { animate: false });
    if (ui.analysis) ui.analysis.update(step, board);
    ui.slider.value = String(step);
    ui.counter.textContent = t('replay.counter', { n: step, total: data.steps.length });
    clear(ui.scores);
    ui.names.forEach((name, seat) => ui.scores.appendChild(h('tr', { 'data-seat': seat },
      h('td', {}, h('span', { html: swatch(colours[seat], 14) }), ` ${name}`), h('td.num', String(pos.scores[seat])),
      h('td', {}, h('span', { html: meepleIcon(colours[seat], 14) }), ` ${pos.supply[seat]}`))));
    clear(ui.breakdown);
    ui.names.forEach((name, seat) => {
      const b = pos.breakdown[seat] || {};
      ui.breakdown.appendChild(h('tr', {}, h('td', name), ...CATEGORIES.map((c) => {
        const v = b[c];
        return h('td.num', v ? `${v.completed + v.final}${v.final ? ` (${t('replay.final')} ${v.final})` : ''}` : '–');
      })));
    });
    clear(ui.log);
    // Every move's line, those after the step dimmed: each is a link to its move.
    const entries = [data.start, ...data.steps];
    let current = null;
    entries.forEach((s, i) => {
      const lines = describe(s.events || [], ui.names);
      if (!lines.length) return;
      // A move the computer chose for a person (time-out, hand-over: the record's ``by``).
      const computer = s.move && s.move.by === 'computer';
      const item = h('li', { 'data-move': i, class: `${i === step ? 'current' : ''}${i > step ? ' future' : ''}${computer ? ' log-computer' : ''}`.trim() },
        h('a.replay-move', { href: moveHref(i), 'aria-current': i === step ? 'step' : null,
          onclick: (e) => { e.preventDefault(); show(i); } },
        i ? h('strong', `${i}. `) : null, lines.map((l) => l.text).join('. ')),
        computer ? h('span.tag.computer-move', { title: t('clock.computerMoveTitle') }, ` ${t('clock.computerMove')}`) : null);
      ui.log.appendChild(item);
      if (i <= step) current = item;
    });
    if (current) ui.log.scrollTop = Math.max(0, current.offsetTop - ui.log.clientHeight + current.offsetHeight);
    document.getElementById('replay-back').disabled = step === 0;
    document.getElementById('replay-first').disabled = step === 0;
    document.getElementById('replay-forward').disabled = step === data.steps.length;
    document.getElementById('replay-last').disabled = step === data.steps.length;
    if (ctx.id) {
      const q = new URLSearchParams(ctx.query);
      q.set('move', String(step));
      history.replaceState(null, '', `#/replay/${encodeURIComponent(ctx.id)}?${q}`);
    }
  }

  function start(loaded, seats) {
    if (!alive) return;
    data = loaded;
    if (seats) colours = seats.map((s) => s.colour);
    layout();
    board.fit(false);
    const wanted = Number(ctx.query.get('move'));
    show(Number.isFinite(wanted) && ctx.query.has('move') ? wanted : data.steps.length);
    board.fit(false);
  }

  if (ctx.id) {
    Promise.all([
      api.get(`/api/matches/${encodeURIComponent(ctx.id)}/replay`, { query: { code } }),
      api.getMatch(ctx.id, code),
    ]).then(([loaded, match]) => {
      if (!alive) return;
      // A private match's address carries its code, so a copied move link works for others.
      code = codeFor(ctx.id, code, match);
      if (match.private) {
        remember(ctx.id, code);
        showInAddress(ctx.query, code);
      }
      start({ ...loaded, table: match }, match.seats);
    }).catch((err) => {
      if (!alive) return;
      clear(root).appendChild(isRefused(err) ? refusedPanel('replay')
        : isMissing(err) ? missingPanel('match', ctx.id) : errorPanel(err, () => ctx.go(location.hash)));
    });
  } else if (ctx.query.get('saved')) {
    const entry = saved.load(ctx.query.get('saved'));
    if (entry) start(entry.data, entry.colours.map((colour) => ({ colour })));
    else root.append(dropZone((loaded) => start(loaded, null)), savedList());
  } else {
    root.append(dropZone((loaded) => start(loaded, null)), savedList());
  }
  return () => {
    alive = false;
    if (ui.analysis) ui.analysis.stop();
    window.removeEventListener('keydown', onKey);
    if (board) board.destroy();
  };
}
