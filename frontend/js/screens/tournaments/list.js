/**
 * Tournaments (``#/tournaments``): the public list and the form that creates one (Swiss,
 * round-robin, arena or knock-out; rounds, preset, time control, public or private). docs/API.md § Tournaments.
 */

import * as api from '../../api.js';
import { h, clear } from '../../dom.js';
import { t } from '../../i18n.js';
import { timeControlPicker } from '../../widgets/table/timecontrol.js';
import { presetName } from '../profile.js';
import { statusText } from '../../widgets/page/tournamentStatus.js';
import { timeLabel, presetKeys } from '../../widgets/table/rules.js';

export function mount(root, ctx) {
  let alive = true;
  const list = h('tbody');
  const state = { format: 'swiss', timeControl: { kind: 'untimed' } };
  const name = h('input#tournament-name', { type: 'text', maxlength: 64, required: true, placeholder: t('tournament.namePlaceholder') });
  const format = h('select#tournament-format', { onchange: () => { state.format = format.value; syncFormat(); } },
    h('option', { value: 'swiss' }, t('tournament.format.swiss')),
    h('option', { value: 'round_robin' }, t('tournament.format.round_robin')),
    h('option', { value: 'arena' }, t('tournament.format.arena')),
    h('option', { value: 'knockout' }, t('tournament.format.knockout')));
  const rounds = h('input#tournament-rounds', { type: 'number', min: 1, max: 15, value: 3 });
  const cycles = h('select#tournament-cycles', {},
    h('option', { value: 1 }, t('tournament.single')), h('option', { value: 2 }, t('tournament.double')));
  const duration = h('input#tournament-duration', { type: 'number', min: 1, max: 1440, value: 60 });
  const seats = h('select#tournament-seats', {}, ...[2, 3, 4, 5].map((n) => h('option', { value: n }, String(n))));
  const durationRow = h('div.form-row', {}, h('label', { for: 'tournament-duration' }, t('tournament.duration')), duration);
  const seatsRow = h('div.form-row', {}, h('label', { for: 'tournament-seats' }, t('tournament.seats')), seats);
  const roundsRow = h('div.form-row', {}, h('label', { for: 'tournament-rounds' }, t('tournament.rounds')), rounds);
  const cyclesRow = h('div.form-row', {}, h('label', { for: 'tournament-cycles' }, t('tournament.cycles')), cycles);
  const syncFormat = () => {
    roundsRow.style.display = state.format === 'swiss' ? '' : 'none';
    cyclesRow.style.display = state.format === 'round_robin' ? '' : 'none';
    durationRow.style.display = state.format === 'arena' ? '' : 'none';
    seatsRow.style.display = state.format === 'arena' ? '' : 'none';
  };
  syncFormat();
  const preset = h('select#tournament-preset', {}, ...presetKeys().map((p) => h('option', { value: p }, presetName(p))));
  const clockRow = h('div.form-row');
  const renderClock = () => clear(clockRow).append(
    timeControlPicker(state.timeControl, (tc) => { state.timeControl = tc; renderClock(); }));
  renderClock();
  const startsAt = h('input#tournament-starts-at', { type: 'datetime-local' });
  const priv = h('input#tournament-private', { type: 'checkbox' });
  const error = h('p.field-error', { role: 'alert' });
  const submit = h('button.btn.primary#tournament-create', { type: 'submit' }, t('tournament.create'));
  const form = h('form.panel.create-form#tournament-form', {
    onsubmit: async (e) => {
      e.preventDefault();
      submit.disabled = true;
      error.textContent = '';
      const body = { name: name.value.trim(), format: state.format, preset: preset.value, private: priv.checked };
      if (state.format === 'swiss') body.rounds = Number(rounds.value);
      else if (state.format === 'round_robin') body.cycles = Number(cycles.value);
      else if (state.format === 'arena') {
        body.duration_minutes = Number(duration.value);
        body.seats = Number(seats.value);
      }
      if (state.timeControl.kind !== 'untimed') body.time_control = state.timeControl;
      // The browser's local time, sent with its zone (ISO 8601 in UTC).
      if (startsAt.value) body.starts_at = new Date(startsAt.value).toISOString();
      try {
        const made = await api.post('/api/tournaments', body);
        ctx.go(`#/tournament/${made.id}`);
      } catch (err) {
        error.textContent = api.friendly(err);
        submit.disabled = false;
      }
    },
  },
  h('h2', t('tournament.new')),
  h('div.form-row', {}, h('label', { for: 'tournament-name' }, t('tournament.name')), name),
  h('div.form-row', {}, h('label', { for: 'tournament-format' }, t('tournament.format')), format),
  roundsRow, cyclesRow, durationRow, seatsRow,
  h('div.form-row', {}, h('label', { for: 'tournament-preset' }, t('tournament.preset')), preset),
  clockRow,
  h('div.form-row', {}, h('label', { for: 'tournament-starts-at' }, t('tournament.startsAt')), startsAt,
    h('small.help', t('tournament.startsAtHelp'))),
  h('label.check', { for: 'tournament-private' }, priv, t('tournament.private')),
  error, h('div.row.end', {}, submit));
  root.appendChild(h('section.tournaments', {},
    h('h1', t('tournament.title')),
    h('div.panel', {}, h('table.table#tournament-list', {},
      h('thead', {}, h('tr', {}, h('th', t('tournament.name')), h('th', t('tournament.format')),
        h('th', t('tournament.status')), h('th', t('tournament.entrants')), h('th', t('tournament.clock')))),
      list)),
    form));
  api.get('/api/tournaments', { auth: false }).then((rows) => {
    if (!alive) return;
    if (!rows.length) list.appendChild(h('tr', {}, h('td', { colspan: 5 }, t('tournament.none'))));
    for (const r of rows) {
      list.appendChild(h('tr', {},
        h('td', {}, h('a', { href: `#/tournament/${r.id}` }, r.name)),
        h('td', t(`tournament.format.${r.format}`)),
        h('td', statusText(r)),
        h('td', String(r.entrants)),
        h('td', timeLabel(r.time_control, r.time_label))));
    }
  }).catch((err) => { if (alive) list.appendChild(h('tr', {}, h('td', { colspan: 5 }, api.friendly(err)))); });
  return () => { alive = false; };
}
