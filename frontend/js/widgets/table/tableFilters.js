/**
 * The Tables page's filters of open tables: rules (a preset, or custom rules), players, clock
 * kind, rated or casual, and the host's language (docs/API.md § Lobbies, ``GET /api/lobbies``
 * query). The choice is kept on this device (``carcassonne.tableFilters``) and sent with each
 * refresh; the server answers only the tables that pass. Live matches are not filtered.
 */

import { h } from '../../dom.js';
import { t, LANGS } from '../../i18n.js';
import { presetKeys } from './rules.js';

const STORE_KEY = 'carcassonne.tableFilters';
const CLOCKS = ['untimed', 'per_turn', 'fischer', 'correspondence'];

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) || '{}');
    return saved && typeof saved === 'object' ? saved : {};
  } catch {
    return {};
  }
}

function choice(id, label, options, value, onChange) {
  const select = h(`select#${id}`, { onchange: (e) => onChange(e.target.value || null) },
    h('option', { value: '' }, t('filters.any')),
    ...options.map(([v, words]) => h('option', { value: String(v), selected: String(value) === String(v) }, words)));
  return h('label.filter', {}, h('span', label), select);
}

/**
 * ``{node, query, active, reset}``: the filter bar; ``query()`` the API query of the current
 * choice; ``active()`` whether any filter is set. ``onChange()`` is called after each change.
 */
export function tableFilters(onChange) {
  let current = load();
  const node = h('div.table-filters#table-filters', { role: 'group', 'aria-label': t('filters.title') });
  const set = (key) => (value) => {
    current = { ...current, [key]: value };
    if (value === null) delete current[key];
    localStorage.setItem(STORE_KEY, JSON.stringify(current));
    draw();
    onChange();
  };
  function draw() {
    node.replaceChildren(
      choice('filter-preset', t('filters.rules'),
        [...presetKeys(), 'custom'].map((p) => [p, p === 'custom' ? t('history.customRules') : t(`preset.${p}`)]), current.preset, set('preset')),
      choice('filter-seats', t('filters.players'), [2, 3, 4, 5].map((n) => [n, String(n)]), current.seats, set('seats')),
      choice('filter-clock', t('filters.clock'), CLOCKS.map((c) => [c, t(`filters.clock.${c}`)]), current.clock, set('clock')),
      choice('filter-rated', t('filters.rated'), [['true', t('filters.ratedOnly')], ['false', t('filters.casual')]],
        current.rated, set('rated')),
      choice('filter-language', t('filters.language'), LANGS.map((l) => [l.code, l.name]), current.language, set('language')),
      Object.keys(current).length
        ? h('button.btn.ghost#filters-clear', { type: 'button', onclick: () => {
          current = {};
          localStorage.removeItem(STORE_KEY);
          draw();
          onChange();
        } }, t('filters.clear'))
        : null);
  }
  draw();
  return {
    node,
    query: () => ({ ...current }),
    active: () => Object.keys(current).length > 0,
  };
}
