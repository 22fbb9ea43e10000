/**
 * Create a table: a preset (Standard, First edition, With the River, …: whatever
 * GET /api/presets offers) or individual options, 2–5 seats, public or private.
 * ``rulesEditor`` is shared with the waiting room, where the host can change the options.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear } from '../dom.js';
import { PRESET_INFO, presetTitle, matchingPreset } from './rules.js';
import { t } from '../i18n.js';

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
  const cards = h('div.preset-cards', { role: 'radiogroup', 'aria-label': 'Rules preset' });
  const opts = h('fieldset.options', {}, h('legend', 'Individual options'));
  node.append(cards, opts);

  const order = ['standard', 'first_edition', 'river', 'wheel_of_fortune'];
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
      }, h('b', presetTitle(key)), h('small', (PRESET_INFO[key] && PRESET_INFO[key].text) || '')));
    }
    cards.appendChild(h('div.preset-card.custom', { class: current.preset ? '' : 'checked', 'aria-hidden': 'true' },
      h('b', 'Custom'), h('small', current.preset ? 'Change an option below' : 'Your own mix of options')));
    const r = current.rules;
    clear(opts).appendChild(h('legend', 'Individual options'));
    opts.append(
      h('label.check', {}, h('input', { type: 'checkbox', name: 'river', checked: !!r.river, disabled: disabled || r.tileset === 'wheel_of_fortune',
        onchange: (e) => { current.rules.river = e.target.checked; emit(); } }),
      h('span', {}, h('b', 'The River'), h('small', ' — 12 river tiles open the game'))),
      h('label.check', {}, h('input', { type: 'checkbox', name: 'small_city_two_points', checked: !!r.small_city_two_points, disabled,
        onchange: (e) => { current.rules.small_city_two_points = e.target.checked; emit(); } }),
      h('span', {}, h('b', 'Small cities score 2'), h('small', ' — a completed two-tile city gives 2 points (first edition)'))),
      h('div.radio-row', { role: 'radiogroup', 'aria-label': 'Farm scoring' },
        h('span.opt-label', 'Farms'),
        ...[['modern', 'Modern: 3 per completed city'], ['original', 'Original: 4 per city to the majority']].map(([v, label]) =>
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
  const node = h('div.segmented', { role: 'radiogroup', 'aria-label': 'Seats' });
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
  const wrap = h('section.create', {}, h('h1', 'Create a table'), h('div.loading', 'Loading rules…'));
  root.appendChild(wrap);
  let alive = true;
  loadPresets().then((presets) => {
    if (!alive) return;
    const state = { preset: 'standard' in presets ? 'standard' : Object.keys(presets)[0] || null, rules: {}, seats: 2,
      private: true, name: who ? `${who.name}'s table` : 'My table' };
    state.rules = { ...(presets[state.preset] || {}) };
    const nameInput = h('input#table-name', { type: 'text', maxlength: 40, value: state.name,
      oninput: (e) => { state.name = e.target.value; } });
    const editor = rulesEditor(presets, state, (v) => { state.preset = v.preset; state.rules = v.rules; });
    const seats = seatPicker(state.seats, (n) => { state.seats = n; });
    const vis = h('div.segmented', { role: 'radiogroup', 'aria-label': 'Visibility' });
    const renderVis = () => {
      clear(vis);
      for (const [priv, label, sub] of [[true, 'Private', 'invite link only'], [false, 'Public', 'listed for everyone']]) {
        vis.appendChild(h('button.seg.wide', { type: 'button', role: 'radio', 'aria-checked': state.private === priv ? 'true' : 'false',
          class: state.private === priv ? 'checked' : '', id: priv ? 'vis-private' : 'vis-public',
          onclick: () => { state.private = priv; renderVis(); } }, h('b', label), h('small', sub)));
      }
    };
    renderVis();
    // Rated tables: accounts only (the server checks rules and seats too).
    const rated = h('input#create-rated', { type: 'checkbox', disabled: !(who && who.username) });
    const error = h('p.field-error', { role: 'alert' });
    const submit = h('button.btn.primary.big#create-submit', { type: 'submit' }, 'Create table');
    const form = h('form.panel.create-form', {
      onsubmit: async (e) => {
        e.preventDefault();
        submit.disabled = true;
        error.textContent = '';
        const body = { name: state.name.trim() || undefined, seats: state.seats, private: state.private };
        if (rated.checked) body.rated = true;
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
    h('div.form-row', {}, h('label', { for: 'table-name' }, 'Table name'), nameInput),
    h('div.form-row', {}, h('span.label', 'Rules'), editor.node),
    h('div.form-row', {}, h('span.label', 'Seats'), seats.node, h('small.help', 'Fill seats with friends or computer players in the waiting room.')),
    h('div.form-row', {}, h('span.label', 'Who can join'), vis),
    h('label.check', { for: 'create-rated' }, rated, t('create.rated')),
    error,
    h('div.row.end', {}, h('a.btn.secondary', { href: '#/lobbies' }, 'Cancel'), submit));
    clear(wrap).append(h('h1', 'Create a table'), form);
  }).catch((err) => {
    if (!alive) return;
    clear(wrap).append(h('h1', 'Create a table'), h('p.field-error', api.friendly(err)),
      h('button.btn', { onclick: () => ctx.go('#/create') }, 'Try again'));
  });
  return () => { alive = false; };
}
