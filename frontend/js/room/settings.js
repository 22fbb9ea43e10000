/**
 * The waiting room's rules panel: what everyone reads (rules, time control), and for the host
 * while the table is open the editors (preset and options, seats, time control, time-out
 * policy, private). The editors outlive a re-render while the host is changing the rules.
 */

import * as api from '../api.js';
import { h } from '../dom.js';
import { rulesEditor } from '../widgets/table/rulesEditor.js';
import { seatPicker } from '../widgets/table/seatPicker.js';
import { rulesLines, rulesSummary, timeLabel, atZeroText } from '../widgets/table/rules.js';
import { timeControlPicker, timeoutPolicyPicker, timeSummary } from '../widgets/table/timecontrol.js';
import { t } from '../i18n.js';
import { aidPolicyPicker, policyLabel } from '../match/aids.js';

/** The rules as everyone but the host of an open table sees them. */
function readOnlyRules(lobby) {
  return h('div.panel', {}, h('h2', t('room.rules')),
    h('p', h('b', rulesSummary(lobby.rules, lobby.preset))),
    h('ul.rules-lines', {}, rulesLines(lobby.rules).map((l) => h('li', l))),
    timeSummary({ ...lobby, time_label: timeLabel(lobby.time_control, lobby.time_label) }),
    h('p#room-aids', policyLabel(lobby.aids)),
    h('p.help', lobby.private ? t('room.privateHelp') : t('room.publicHelp')));
}

/**
 * The rules panel of ``room``; ``editing``: ``{editor, seatCtl, busy}`` kept by the caller
 * between renders (an editor mid-change is not rebuilt under the host's hands).
 */
export function rulesPanel(room, editing) {
  const { lobby, code } = room;
  if (!room.hostCanEdit()) return readOnlyRules(lobby);
  const update = (body) => room.act(() => api.updateLobby(code, body));
  if (!editing.editor || !editing.busy) {
    editing.editor = rulesEditor(room.presets, { preset: lobby.preset, rules: lobby.rules }, (v) => {
      editing.busy = true;
      update(v.preset ? { preset: v.preset } : { rules: v.rules }).finally(() => { editing.busy = false; });
    });
    editing.seatCtl = seatPicker(lobby.max_seats, (n) => update({ max_seats: n }), { min: Math.max(2, room.filled()) });
  } else {
    editing.seatCtl.set(lobby.max_seats);
  }
  const privBtn = h('label.check', {}, h('input#lobby-private', { type: 'checkbox', checked: !!lobby.private,
    onchange: (e) => update({ private: e.target.checked }) }),
  h('span', {}, h('b', t('create.private')), h('small', ` — ${t('room.privateCheck')}`)));
  return h('div.panel.host-rules', {}, h('h2', t('room.rules')), editing.editor.node,
    h('div.form-row', {}, h('span.label', t('create.seats')), editing.seatCtl.node),
    timeControlPicker(lobby.time_control, (tc) => update({ time_control: tc })),
    timeoutPolicyPicker(lobby.timeout_policy, (p) => update({ timeout_policy: p }),
      { disabled: !lobby.time_control || lobby.time_control.kind === 'untimed' }),
    h('p.help#at-zero', atZeroText(lobby.time_control, lobby.timeout_policy)), privBtn,
    h('div.form-row', {}, h('span.label', t('aids.policy')),
      aidPolicyPicker(lobby.aids || { mode: 'off' }, (p) => update({ aids: p })).node));
}
