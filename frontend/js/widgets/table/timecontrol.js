/**
 * The time control of a table (docs/API.md § Clocks): a picker for the host in the waiting
 * room and the short label shown on lobby cards, the seat list and the match.
 */

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { timeLabel, atZeroText, policyLabel } from './rules.js';

/** The choices offered, as the server accepts them (value → time_control JSON). */
export const CHOICES = [
  ['untimed', { kind: 'untimed' }],
  ['turn30', { kind: 'per_turn', seconds: 30 }],
  ['turn60', { kind: 'per_turn', seconds: 60 }],
  ['turn120', { kind: 'per_turn', seconds: 120 }],
  ['fischer3', { kind: 'fischer', bank: 180, increment: 5 }],
  ['fischer5', { kind: 'fischer', bank: 300, increment: 10 }],
  ['fischer10', { kind: 'fischer', bank: 600, increment: 15 }],
  ['corr1', { kind: 'correspondence', days: 1 }],
  ['corr2', { kind: 'correspondence', days: 2 }],
  ['corr3', { kind: 'correspondence', days: 3 }],
  ['corr7', { kind: 'correspondence', days: 7 }],
];

function same(a, b) {
  return JSON.stringify(a || { kind: 'untimed' }) === JSON.stringify(b || { kind: 'untimed' });
}

/** A ``<select>`` of the offered time controls; ``onChange(timeControl)`` on a choice. */
export function timeControlPicker(current, onChange) {
  const select = h('select#time-control', { 'aria-label': t('time.label'),
    onchange: (e) => onChange(CHOICES.find(([k]) => k === e.target.value)[1]) },
  CHOICES.map(([key, tc]) => h('option', { value: key, selected: same(tc, current) }, t(`time.${key}`))));
  return h('div.form-row', {}, h('span.label', t('time.label')), select);
}

/** The time-out policies offered (value → timeout_policy JSON), as the server accepts them. */
export const POLICIES = [
  ['computer', { kind: 'computer' }],
  ['skip', { kind: 'skip' }],
  ...[1, 2, 3, 4, 5].map((n) => [`handover${n}`, { kind: 'handover', after: n }]),
];

/**
 * A ``<select>`` of what happens at zero (docs/API.md § Clocks); ``onChange(policy)`` on a
 * choice. ``disabled`` for an untimed table (no clock reaches zero).
 */
export function timeoutPolicyPicker(current, onChange, { disabled = false } = {}) {
  const now = JSON.stringify(current || { kind: 'computer' });
  const select = h('select#timeout-policy', { 'aria-label': t('policy.label'), disabled,
    onchange: (e) => onChange(POLICIES.find(([k]) => k === e.target.value)[1]) },
  POLICIES.map(([key, p]) => h('option', { value: key, selected: JSON.stringify(p) === now }, policyLabel(p))));
  return h('div.form-row', {}, h('span.label', t('policy.label')), select);
}

/** One line for the lobby's clock and what happens at zero (non-host view, seat list). */
export function timeSummary(lobby) {
  return h('p.time-summary#time-summary', {}, h('b', `${t('time.label')}: ${timeLabel(lobby.time_control, lobby.time_label)}`),
    h('br'), h('small#at-zero', atZeroText(lobby.time_control, lobby.timeout_policy)));
}
