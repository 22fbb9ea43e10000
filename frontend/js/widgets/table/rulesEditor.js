/**
 * The rules editor (preset cards plus the individual options) shared by the create screen and
 * the waiting room, and ``loadPresets`` (GET /api/presets, fetched once per page).
 */

import * as api from '../../api.js';
import { h, clear } from '../../dom.js';
import { withHook } from '../../expansions/index.js';
import { presetKeys, presetInfo, presetTitle, matchingPreset } from './rules.js';
import { t } from '../../i18n.js';

let presetCache = null;

/**
 * The base game's checkbox, in the shape of an expansion's ``rulesOption`` (the registry's hook):
 * after the expansions' own.
 */
const SMALL_CITIES = {
  name: 'small_city_two_points', label: 'create.smallCities', help: 'create.smallCitiesHelp',
  checked: (r) => !!r.small_city_two_points, disabled: () => false,
  set: (r, on) => { r.small_city_two_points = on; },
};

/** The presets the server offers (``{key: rules}``), asked once and shared. */
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

  const order = presetKeys();
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
      ...[...withHook('rulesOption').map((x) => x.rulesOption), SMALL_CITIES].map((o) =>
        h('label.check', {}, h('input', { type: 'checkbox', name: o.name, checked: o.checked(r), disabled: disabled || o.disabled(r),
          onchange: (e) => { o.set(current.rules, e.target.checked); emit(); } }),
        h('span', {}, h('b', t(o.label)), h('small', ` — ${t(o.help)}`)))),
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
