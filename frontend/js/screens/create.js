/**
 * Create a table: a preset (Standard, First edition, With the River, …: whatever
 * GET /api/presets offers) or individual options, 2–5 seats, public or private.
 * ``rulesEditor`` is shared with the waiting room, where the host can change the options.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear } from '../dom.js';
import { PRESET_KEYS, presetInfo, presetTitle, matchingPreset, atZeroText } from './rules.js';
import { timeControlPicker, timeoutPolicyPicker } from './timecontrol.js';
import { t, lang, LANGS } from '../i18n.js';
import { lengthLimit } from '../limit.js';

let presetCache = null;
export async function loadPresets() {
  if (!presetCache) {
    presetCache = api.presets().then((d) => d.presets || {}).catch((err) => {
      presetCache = null;
      throw err;
    });
  }
  return presetCache;
}

/**
 * A rules editor: preset cards plus the individual options. ``value``: {preset, rules};
 * ``onChange({preset, rules})`` whenever the choice changes. Returns {node, set(value)}.
 */
export function rulesEditor(presets, value, onChange, { disabled = false } = {}) {
  let current = { preset: value.preset || null, rules: { ...value.rules } };
  const node = h('div.rules-editor');
  const cards = h('div.preset-cards', { role: 'radiogroup', 'aria-label': t('create.presetAria') });
  const opts = h('fieldset.options', {}, h('legend', t('create.options')));
  node.append(cards, opts);

  const order = PRESET_KEYS;
  const keys = Object.keys(presets).sort((a, b) => (order.indexOf(a) + 99) % 99 - (order.indexOf(b) + 99) % 99);

  function emit() {
    current.preset = matchingPreset(current.rules, presets);
    render();
    onChange({ ...current, rules: { ...current.rules } });
  }

  function render() {
    clear(cards);
    for (const key of keys) {
      const checked = current.preset === key;
      cards.appendChild(h('button.preset-card', {
        type: 'button', role: 'radio', 'aria-checked': checked ? 'true' : 'false', disabled,
        dataset: { preset: key }, class: checked ? 'checked' : '',
        onclick: () => {
          current = { preset: key, rules: { ...presets[key] } };
          emit();
        },
      }, h('b', presetTitle(key)), h('small', (presetInfo(key) && presetInfo(key).text) || '')));
    }
    cards.appendChild(h('div.preset-card.custom', { class: current.preset ? '' : 'checked', 'aria-hidden': 'true' },
      h('b', t('create.custom')), h('small', current.preset ? t('create.customChange') : t('create.customMix'))));
    const r = current.rules;
    clear(opts).appendChild(h('legend', t('create.options')));
    opts.append(
      h('label.check', {}, h('input', { type: 'checkbox', name: 'river', checked: !!r.river, disabled: disabled || r.tileset === 'wheel_of_fortune',
        onchange: (e) => { current.rules.river = e.target.checked; emit(); } }),
      h('span', {}, h('b', t('create.river')), h('small', ` — ${t('create.riverHelp')}`))),
      h('label.check', {}, h('input', { type: 'checkbox', name: 'small_city_two_points', checked: !!r.small_city_two_points, disabled,
        onchange: (e) => { current.rules.small_city_two_points = e.target.checked; emit(); } }),
      h('span', {}, h('b', t('create.smallCities')), h('small', ` — ${t('create.smallCitiesHelp')}`))),
      h('div.radio-row', { role: 'radiogroup', 'aria-label': t('create.farmScoring') },
        h('span.opt-label', t('create.farms')),
        ...[['modern', t('create.farmsModern')], ['original', t('create.farmsOriginal')]].map(([v, label]) =>
          h('label.radio', {}, h('input', { type: 'radio', name: `farm_scoring_${uid}`, value: v, checked: r.farm_scoring === v, disabled,
            onchange: () => { current.rules.farm_scoring = v; emit(); } }), h('span', label)))),
    );
  }
  const uid = Math.random().toString(36).slice(2, 7);
  render();
  return {
    node,
    set(v) {
      current = { preset: v.preset || matchingPreset(v.rules, presets), rules: { ...v.rules } };
      render();
    },
    get: () => ({ ...current }),
  };
}

export function seatPicker(value, onChange, { min = 2, disabled = false } = {}) {
  const node = h('div.segmented', { role: 'radiogroup', 'aria-label': t('create.seats') });
  const render = (v) => {
    clear(node);
    for (let n = 2; n <= 5; n += 1) {
      node.appendChild(h('button.seg', { type: 'button', role: 'radio', 'aria-checked': v === n ? 'true' : 'false',
        class: v === n ? 'checked' : '', disabled: disabled || n < min, dataset: { seats: n },
        onclick: () => { render(n); onChange(n); } }, String(n)));
    }
  };
  render(value);
  return { node, set: render };
}

export function mount(root, ctx) {
  const who = session.player();
  const wrap = h('section.create', {}, h('h1', t('create.title')), h('div.loading', t('create.loading')));
  root.appendChild(wrap);
  let alive = true;
  loadPresets().then((presets) => {
    if (!alive) return;
    const state = { preset: 'standard' in presets ? 'standard' : Object.keys(presets)[0] || null, rules: {}, seats: 2,
      private: true, name: '', timeControl: { kind: 'untimed' }, policy: { kind: 'computer' } };
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
    // Rated tables: accounts only (the server checks rules and seats too).
    const rated = h('input#create-rated', { type: 'checkbox', disabled: !(who && who.username) });
    const error = h('p.field-error', { role: 'alert' });
    const submit = h('button.btn.primary.big#create-submit', { type: 'submit' }, t('create.submit'));
    const form = h('form.panel.create-form', {
      onsubmit: async (e) => {
        e.preventDefault();
        submit.disabled = true;
        error.textContent = '';
        const body = { name: state.name.trim() || undefined, seats: state.seats, private: state.private };
        if (rated.checked) body.rated = true;
        if (language.value) body.language = language.value;
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
    h('label.check', { for: 'create-rated' }, rated, t('create.rated')),
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
