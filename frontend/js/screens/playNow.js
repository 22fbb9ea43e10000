/**
 * "Play now" on the Tables page: choose players, rules, clock and rated, join that pool
 * (POST /api/seeks), see how many wait in it, cancel, and go to the match once paired.
 *
 * The seek is told of its match by polling (docs/API.md § Play now): GET /api/seeks/{id} every
 * POLL_MS, which also keeps it alive — a seek not polled for the server's ``poll_within``
 * seconds expires, so a closed tab leaves the pool by itself. Leaving the page cancels it.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { t as tr } from '../i18n.js';
import { h, clear, toast } from '../dom.js';
import { timeLabel, presetKeys } from '../widgets/table/rules.js';

const POLL_MS = 1000;
const CLOCKS = [
  { kind: 'untimed' },
  { kind: 'per_turn', seconds: 30 },
  { kind: 'per_turn', seconds: 60 },
  { kind: 'per_turn', seconds: 120 },
  { kind: 'fischer', bank: 300, increment: 10 },
];
const sameClock = (a, b) => JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());

/** The panel: ``{node, refresh(queue), stop()}``; ``ctx.go`` opens the match when paired. */
export function playNowPanel(ctx) {
  const who = session.player();
  const canRate = Boolean(who && who.username);
  const select = (id, label, options) => h('label.play-now-field', { for: id }, label,
    h(`select#${id}`, {}, options.map(([value, text]) => h('option', { value }, text))));
  const players = select('play-now-players', tr('playNow.players'),
    [2, 3, 4, 5].map((n) => [String(n), String(n)]));
  const preset = select('play-now-preset', tr('playNow.rules'),
    presetKeys().map((p) => [p, tr(`preset.${p}`)]));
  const clock = select('play-now-clock', tr('playNow.clock'),
    CLOCKS.map((c, i) => [String(i), timeLabel(c)]));
  const rated = h('input#play-now-rated', { type: 'checkbox', disabled: !canRate });
  const ratedLabel = h('label.play-now-rated', { for: 'play-now-rated', title: canRate ? null : tr('playNow.ratedNeedsAccount') },
    rated, ' ', tr('playNow.rated'));
  const go = h('button.btn.primary#play-now-go', { type: 'submit' }, tr('playNow.go'));
  const cancel = h('button.btn.secondary#play-now-cancel', { type: 'button', hidden: true, onclick: () => stopSeeking(true) },
    tr('playNow.cancel'));
  const waiting = h('p.play-now-status#play-now-status', { 'aria-live': 'polite' });
  const queueList = h('ul.play-now-queue#play-now-queue');
  const fields = [players, preset, clock].map((l) => l.querySelector('select')).concat([rated]);

  const form = h('form.play-now-form', { onsubmit: (e) => { e.preventDefault(); start(); } },
    players, preset, clock, ratedLabel, h('div.play-now-buttons', {}, go, cancel));
  const node = h('section.panel.play-now#play-now', {},
    h('h2', tr('playNow.title')), h('p.help', tr('playNow.lead')), form, waiting, queueList);

  let seek = null;
  let timer = null;
  let stopped = false;

  function choice() {
    return {
      players: Number(fields[0].value),
      preset: fields[1].value,
      time_control: CLOCKS[Number(fields[2].value)],
      rated: rated.checked,
    };
  }

  function seeking(on) {
    go.hidden = on;
    cancel.hidden = !on;
    for (const f of fields) f.disabled = on || (f === rated && !canRate);
  }

  function showSeek(s) {
    const needed = s.players;
    const parts = [tr('playNow.looking'), tr('playNow.waitingOf', { n: s.waiting, needed })];
    if (s.range) parts.push(tr('playNow.range', { low: s.range.low, high: s.range.high }));
    waiting.textContent = parts.join(' · ');
  }

  async function start() {
    const body = choice();
    if (body.time_control.kind === 'untimed') delete body.time_control;
    if (!body.rated) delete body.rated;
    seeking(true);
    waiting.textContent = tr('playNow.looking');
    try {
      seek = await api.post('/api/seeks', body);
    } catch (err) {
      seeking(false);
      waiting.textContent = '';
      toast(api.friendly(err), 'error');
      return;
    }
    follow(seek);
  }

  function follow(s) {
    if (stopped) return;
    seek = s;
    if (s.status === 'matched' && s.match_id) {
      seek = null;
      waiting.textContent = tr('playNow.found');
      ctx.go(`#/match/${encodeURIComponent(s.match_id)}`);
      return;
    }
    if (s.status !== 'open') {
      seek = null;
      seeking(false);
      waiting.textContent = tr('playNow.expired');
      return;
    }
    showSeek(s);
    timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    if (stopped || !seek) return;
    const id = seek.id;
    try {
      const s = await api.get(`/api/seeks/${id}`);
      if (seek && seek.id === id) follow(s); // else cancelled while the answer was on its way
    } catch (err) {
      if (!seek || seek.id !== id) return;
      if (err.code === 'not_found') {
        seek = null;
        seeking(false);
        waiting.textContent = '';
        return;
      }
      timer = setTimeout(poll, POLL_MS * 2); // a network blip: the seek lives poll_within seconds
    }
  }

  async function stopSeeking(quietly = false) {
    clearTimeout(timer);
    const s = seek;
    seek = null;
    if (!stopped) {
      seeking(false);
      waiting.textContent = '';
    }
    if (!s) return;
    try {
      await api.del(`/api/seeks/${s.id}`);
    } catch (err) {
      // Paired meanwhile: the match is waiting for us.
      const paired = err.reason === 'already_paired' && err.params && err.params.match;
      if (err.code === 'conflict' && paired && !stopped) ctx.go(`#/match/${paired}`);
      else if (!quietly) toast(api.friendly(err), 'error');
    }
  }

  /** The queue (GET /api/seeks): every pool with someone waiting. */
  function refresh(queue) {
    clear(queueList);
    const pools = (queue && queue.pools) || [];
    if (!pools.length) {
      queueList.appendChild(h('li.empty', tr('playNow.nobody')));
      return;
    }
    for (const p of pools) {
      const mine = seek && p.players === seek.players && p.preset === seek.preset && p.rated === seek.rated
        && sameClock(p.time_control, seek.time_control);
      queueList.appendChild(h('li', { class: mine ? 'mine' : null },
        h('span', [tr('playNow.poolPlayers', { n: p.players }), tr(`preset.${p.preset}`), timeLabel(p.time_control, p.time_label),
          p.rated ? tr('playNow.ratedShort') : null].filter(Boolean).join(' · ')),
        h('span.badge', tr('playNow.waiting', { n: p.waiting }))));
    }
  }

  return {
    node,
    refresh,
    stop() {
      stopped = true;
      stopSeeking(true);
    },
  };
}
