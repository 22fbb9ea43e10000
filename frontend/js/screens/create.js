/**
 * Create a table: a preset (Standard, First edition, With the River, …: whatever
 * GET /api/presets offers) or individual options, 2–5 seats, public or private.
 * The rules editor and the seat picker are widgets (``../widgets/``), shared with the waiting room.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear } from '../dom.js';
import { atZeroText } from '../widgets/table/rules.js';
import { timeControlPicker, timeoutPolicyPicker } from '../widgets/table/timecontrol.js';
import { loadPresets, rulesEditor } from '../widgets/table/rulesEditor.js';
import { seatPicker } from '../widgets/table/seatPicker.js';
import { t, lang, LANGS } from '../i18n.js';
import { lengthLimit } from '../widgets/page/limit.js';
import { aidPolicyPicker } from '../match/aids.js';

/** The spectator delays a host may choose: ``[kind, amount]`` (the server takes 1–60 moves or
 * 5–1800 seconds; docs/API.md § Spectator delay). */
const DELAYS = [['moves', 2], ['moves', 5], ['moves', 10], ['seconds', 30], ['seconds', 120], ['seconds', 300]];

export function mount(root, ctx) {
  const who = session.player();
  const wrap = h('section.create', {}, h('h1', t('create.title')), h('div.loading', t('create.loading')));
  root.appendChild(wrap);
  let alive = true;
  loadPresets().then((presets) => {
    if (!alive) return;
    const state = { preset: 'standard' in presets ? 'standard' : Object.keys(presets)[0] || null, rules: {}, seats: 2,
      private: true, name: '', timeControl: { kind: 'untimed' }, policy: { kind: 'computer' },
      aids: { mode: 'custom', players: ['legal_placements'], spectators: ['legal_placements'] } };
    state.rules = { ...(presets[state.preset] || {}) };
    // No name given: none is sent, and every reader sees "{host}'s table" in their language.
    const fallback = who ? t('table.default', { host: who.name }) : '';
    const nameInput = h('input#table-name', { type: 'text', maxlength: 40, value: state.name, placeholder: fallback,
      'aria-describedby': 'table-name-help', oninput: (e) => { state.name = e.target.value; } });
    const nameCount = lengthLimit(nameInput);
    const editor = rulesEditor(presets, state, (v) => { state.preset = v.preset; state.rules = v.rules; });
    const seats = seatPicker(state.seats, (n) => { state.seats = n; });
    const vis = h('div.segmented', { role: 'radiogroup', 'aria-label': t('create.visibility') });
    const renderVis = () => {
      clear(vis);
      for (const [priv, label, sub] of [[true, t('create.private'), t('create.privateSub')], [false, t('create.public'), t('create.publicSub')]]) {
        vis.appendChild(h('button.seg.wide', { type: 'button', role: 'radio', 'aria-checked': state.private === priv ? 'true' : 'false',
          class: state.private === priv ? 'checked' : '', id: priv ? 'vis-private' : 'vis-public',
          onclick: () => { state.private = priv; renderVis(); } }, h('b', label), h('small', sub)));
      }
    };
    renderVis();
    // The clock and what happens at zero (the policy means nothing without a clock).
    const clockRow = h('div.clock-choice');
    const renderClock = () => {
      const untimed = state.timeControl.kind === 'untimed';
      clear(clockRow).append(
        timeControlPicker(state.timeControl, (tc) => { state.timeControl = tc; renderClock(); }),
        timeoutPolicyPicker(state.policy, (p) => { state.policy = p; renderClock(); }, { disabled: untimed }),
        h('small.help#at-zero', atZeroText(state.timeControl, state.policy)));
    };
    renderClock();
    // The language the host plays in (the Tables page filters on it): the reader's, or any.
    const language = h('select#create-language', {},
      ...LANGS.map((l) => h('option', { value: l.code, selected: l.code === lang() }, l.name)),
      h('option', { value: '' }, t('filters.anyLanguage')));
    // A best-of-N series at this table (one game by default).
    const series = h('select#create-series', {},
      h('option', { value: '1' }, t('create.seriesOne')),
      ...[3, 5].map((n) => h('option', { value: String(n) }, t('create.seriesBestOf', { n }))));
    // How far behind spectators see the match (players always see it live).
    const delay = h('select#create-delay', { 'aria-describedby': 'create-delay-help' },
      h('option', { value: '' }, t('create.delayLive')),
      ...DELAYS.map(([kind, n]) => h('option', { value: `${kind}:${n}` },
        t(kind === 'moves' ? 'create.delayMoves' : 'create.delaySeconds', { n }))));
    // Rated tables: accounts only (the server checks rules and seats too).
    // The aid policy (match/aids.js): a rated table starts with none (the host may still choose).
    const aids = aidPolicyPicker(state.aids, (p) => { state.aids = p; });
    const rated = h('input#create-rated', { type: 'checkbox', disabled: !(who && who.username),
      onchange: (e) => { if (e.target.checked) { state.aids = { mode: 'off' }; aids.set(state.aids); } } });
    const error = h('p.field-error', { role: 'alert' });
    const submit = h('button.btn.primary.big#create-submit', { type: 'submit' }, t('create.submit'));
    const form = h('form.panel.create-form', {
      onsubmit: async (e) => {
        e.preventDefault();
        submit.disabled = true;
        error.textContent = '';
        const body = { name: state.name.trim() || undefined, seats: state.seats, private: state.private, aids: state.aids };
        if (rated.checked) body.rated = true;
        if (language.value) body.language = language.value;
        if (series.value !== '1') body.best_of = Number(series.value);
        if (delay.value) {
          const [kind, n] = delay.value.split(':');
          body.spectator_delay = { [kind]: Number(n) };
        }
        if (state.timeControl.kind !== 'untimed') {
          body.time_control = state.timeControl;
          body.timeout_policy = state.policy;
        }
        if (state.preset) body.preset = state.preset;
        else body.rules = state.rules;
        try {
          const lobby = await api.createLobby(body);
          ctx.go(`#/lobby/${encodeURIComponent(lobby.code)}`);
        } catch (err) {
          error.textContent = api.friendly(err);
          submit.disabled = false;
        }
      },
    },
    h('div.form-row', {}, h('label', { for: 'table-name' }, t('create.name')), nameInput, nameCount.node,
      h('small.help#table-name-help', fallback ? t('create.nameHelp', { example: fallback }) : t('create.nameOptional'))),
    h('div.form-row', {}, h('span.label', t('create.rules')), editor.node),
    h('div.form-row', {}, h('span.label', t('create.seats')), seats.node, h('small.help', t('create.seatsHelp'))),
    h('div.form-row', {}, h('span.label', t('create.who')), vis),
    h('div.form-row', {}, h('label', { for: 'create-language' }, t('create.language')), language,
      h('small.help', t('create.languageHelp'))),
    clockRow,
    h('div.form-row', {}, h('label', { for: 'create-series' }, t('create.series')), series,
      h('small.help', t('create.seriesHelp'))),
    h('div.form-row', {}, h('label', { for: 'create-delay' }, t('create.delay')), delay,
      h('small.help#create-delay-help', t('create.delayHelp'))),
    h('label.check', { for: 'create-rated' }, rated, t('create.rated')),
    h('div.form-row', {}, h('span.label', t('aids.policy')), aids.node),
    error,
    h('div.row.end', {}, h('a.btn.secondary', { href: '#/lobbies' }, t('create.cancel')), submit));
    clear(wrap).append(h('h1', t('create.title')), form);
  }).catch((err) => {
    if (!alive) return;
    clear(wrap).append(h('h1', t('create.title')), h('p.field-error', api.friendly(err)),
      h('button.btn', { onclick: () => ctx.go('#/create') }, t('app.tryAgain')));
  });
  return () => { alive = false; };
}
