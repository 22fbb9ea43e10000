/**
 * One tournament (``#/tournament/ID``): its state live over ``/ws/tournaments/ID``; register,
 * check in, withdraw; the standings with their tie-breaks; every round's pairings linking to
 * the live match or its replay; a knock-out's bracket; the organiser's messages; the
 * organiser's tools (computer entrants, start, pause every clock, set a result with a reason,
 * replace a no-show by a forfeit or the computer, a message to every player, the referee's
 * list of live tables with their clocks). docs/API.md § Tournaments.
 */

import * as api from '../../api.js';
import * as session from '../../session.js';
import { h, clear, append, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { presetName } from '../profile.js';
import { timeLabel } from '../../widgets/table/rules.js';
import { statusText } from '../../widgets/page/tournamentStatus.js';

const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, '').replace(/\.$/, ''));
/** True once the tournament is finished or was cancelled (a start time nobody checked in for). */
const over = (tm) => ['finished', 'cancelled'].includes(tm.status);
const half = (x) => (x % 1 === 0.5 ? `${Math.floor(x) || ''}½` : fmt(x));

export function mount(root, ctx) {
  const id = ctx.id;
  let alive = true;
  let ws = null;
  let retry = null;
  let data = null;
  const view = h('section.tournament#tournament', {}, h('div.loading', t('app.loading')));
  root.appendChild(view);
  // Kept across renders (every socket frame draws the page again): what the organiser types,
  // and the referee's list, refreshed by its own poll.
  const noticeText = h('input#tournament-notice', { type: 'text', maxlength: 300, placeholder: t('tournament.messagePlaceholder'),
    'aria-label': t('tournament.messageAll') });
  const refereeBox = h('div.panel.referee#tournament-referee');
  let refereeTimer = null;

  const act = async (path, body) => {
    try {
      data = await api.post(`/api/tournaments/${id}/${path}`, body);
      render();
    } catch (err) {
      toast(api.friendly(err));
    }
  };

  function render() {
    if (!alive || !data) return;
    const names = Object.fromEntries(data.entrants.map((e) => [e.number, e.name]));
    append(clear(view), [
      h('header.tournament-head', {},
        h('h1', data.name),
        h('p.tournament-meta', {},
          h('span.badge#tournament-status', statusText(data)),
          data.paused ? h('span.badge.warn#tournament-paused', t('tournament.paused')) : null,
          data.status === 'registering' && data.starts_at ? h('span.badge#tournament-starts-at',
            t('tournament.startsOn', { when: new Date(data.starts_at).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }) })) : null,
          ` ${t(`tournament.format.${data.format}`)} · ${presetName(data.preset)} · ${timeLabel(data.time_control, data.time_label)}`)),
      actions(),
      data.messages && data.messages.length ? notices() : null,
      data.is_host ? organiser() : null,
      data.is_host && data.status === 'running' ? refereeBox : null,
      data.bracket ? bracket(names) : null,
      h('h2', t('tournament.standings')),
      standings(),
      ...rounds(names),
      h('h2', t('tournament.entrants')),
      h('ul.entrant-list#tournament-entrants', {}, ...data.entrants.map((e) => h('li', {},
        `${e.number}. ${e.name}`, e.bot ? ` (${t('tournament.computer')})` : '',
        h('span.muted', ` · ${t(`tournament.entrant.${e.status}`)}`)))),
      h('p.exports', {},
        h('a.btn.secondary', { href: `/api/tournaments/${id}/standings?format=csv`, download: '' }, t('tournament.exportCsv')), ' ',
        h('a.btn.secondary', { href: `/api/tournaments/${id}/standings?format=json`, target: '_blank' }, t('tournament.exportJson')), ' ',
        session.token() ? h('button.btn.secondary#tournament-records-zip', { type: 'button', onclick: recordsZip }, t('tournament.exportZip')) : null)]);
  }

  /** Every finished match's record, one JSON file each, as a zip (signed in: the export needs a token). */
  async function recordsZip() {
    try {
      const blob = await api.download(`/api/export/tournaments/${id}/records.zip`);
      const url = URL.createObjectURL(blob);
      const a = h('a', { href: url, download: `tournament-${id}-records.zip` });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 4000);
    } catch (err) {
      toast(api.friendly(err));
    }
  }

  // The referee's list follows every change of the tournament (a game ended, a round paired),
  // besides its own 5-second poll for the clocks.
  let refereeSoon = null;
  function refereeAfterChange() {
    clearTimeout(refereeSoon);
    refereeSoon = setTimeout(refreshReferee, 200);
  }

  function actions() {
    const me = data.me;
    const row = h('div.row.tournament-actions');
    // Late joiners: a Swiss or an arena only (a round-robin's field is fixed, a bracket is seeded).
    const late = data.status === 'running' && ['swiss', 'arena'].includes(data.format);
    if (late && (!me || me.status === 'withdrawn')) {
      row.append(h('button.btn.primary#tournament-register', { onclick: () => act('entrants') }, t('tournament.joinLate')));
    }
    if (data.status === 'registering') {
      if (!me || me.status === 'withdrawn') row.append(h('button.btn.primary#tournament-register', { onclick: () => act('entrants') }, t('tournament.register')));
      else if (me.status === 'registered') row.append(h('button.btn.primary#tournament-checkin', { onclick: () => act('check-in') }, t('tournament.checkIn')));
      else if (me.status === 'checked_in') row.append(h('span.badge.ok', t('tournament.checkedIn')));
    }
    if (me && !over(data) && ['registered', 'checked_in'].includes(me.status)) {
      row.append(h('button.btn.secondary#tournament-withdraw', { onclick: () => act('withdraw') }, t('tournament.withdraw')));
    }
    return row;
  }

  function organiser() {
    const box = h('div.panel.organiser#tournament-organiser', {}, h('h2', t('tournament.organiser')));
    const row = h('div.row');
    if (data.status === 'registering') {
      row.append(
        h('button.btn.secondary#tournament-add-computer', { onclick: () => act('computers', { level: 'easy' }) }, t('tournament.addComputer')),
        h('button.btn.primary#tournament-start', { onclick: () => act('start') }, t('tournament.start')));
    } else if (data.status === 'finished' && data.seats === 2 && data.format !== 'arena') {
      const qualifiers = h('input#tournament-qualifiers', { type: 'number', min: 2, max: data.standings.length, value: Math.min(8, data.standings.length) });
      row.append(h('label', { for: 'tournament-qualifiers' }, t('tournament.qualifiers')), qualifiers,
        h('button.btn.secondary#tournament-seed-knockout', { onclick: async () => {
          try {
            const body = { name: t('tournament.knockoutName', { name: data.name }).slice(0, 64), format: 'knockout', seed_from: data.id,
              qualifiers: Number(qualifiers.value), preset: data.preset, private: data.private };
            if (data.time_control && data.time_control.kind !== 'untimed') body.time_control = data.time_control;
            const made = await api.post('/api/tournaments', body);
            ctx.go(`#/tournament/${made.id}`);
          } catch (err) { toast(api.friendly(err)); }
        } }, t('tournament.seedKnockout')));
    } else if (data.status === 'running') {
      row.append(h('button.btn#tournament-pause', { onclick: () => act('pause', { paused: !data.paused }) },
        data.paused ? t('tournament.resume') : t('tournament.pause')));
    }
    box.append(row);
    if (data.status === 'registering' && data.seeds && data.seeds.length > 1) box.append(seedList());
    if (!over(data)) {
      box.append(h('form.row.notice-form', { onsubmit: async (e) => {
        e.preventDefault();
        try {
          await api.post(`/api/tournaments/${id}/messages`, { text: noticeText.value });
          noticeText.value = '';
        } catch (err) { toast(api.friendly(err)); }
      } }, noticeText, h('button.btn.small#tournament-notice-send', { type: 'submit' }, t('tournament.send'))));
    }
    return box;
  }

  /** A knock-out's seeded list before the start: move an entrant up one seed. */
  function seedList() {
    const names = Object.fromEntries(data.entrants.map((e) => [e.number, e.name]));
    const up = (i) => {
      const order = [...data.seeds];
      [order[i - 1], order[i]] = [order[i], order[i - 1]];
      act('seeds', { order });
    };
    return h('div.seeds', {}, h('h3', t('tournament.seeds')),
      h('ol.seed-list#tournament-seeds', {}, ...data.seeds.map((n, i) => h('li', { dataset: { number: n } }, names[n] || `#${n}`, ' ',
        i > 0 ? h('button.btn.small.ghost.seed-up', { type: 'button', title: t('tournament.seedUp', { name: names[n] || `#${n}` }),
          'aria-label': t('tournament.seedUp', { name: names[n] || `#${n}` }), onclick: () => up(i) }, '↑') : null))));
  }

  function notices() {
    return h('section.panel.notices#tournament-messages', {}, h('h2', t('tournament.messages')),
      h('ul.notice-list', {}, ...data.messages.slice(-5).map((m) => h('li', {},
        h('small.muted', new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })), ' ', m.text))));
  }

  const clockText = (ms) => {
    if (ms === null || ms === undefined) return '—';
    const s = Math.max(0, Math.round(ms / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  };

  /** The referee's list: every live table, its clocks, whose turn, a link to watch it. */
  async function refreshReferee() {
    if (!alive || !data || !data.is_host || data.status !== 'running') return;
    try {
      const { tables } = await api.get(`/api/tournaments/${id}/referee`);
      clear(refereeBox).append(h('h2', t('tournament.referee')),
        tables.length ? h('ul.referee-list', {}, ...tables.map((tb) => h('li.referee-table', { dataset: { match: tb.match_id } },
          h('b', `${tb.round}.${tb.table}`), ' ',
          ...tb.names.map((name, i) => h('span.referee-seat', { class: tb.seat_to_act === i ? 'to-act' : '' },
            name, tb.clock && tb.clock.remaining[i] !== null ? ` ${clockText(tb.clock.remaining[i])}` : '',
            tb.seat_to_act === i ? ` (${t('tournament.toAct')})` : '')),
          h('small.muted', ` ${t('tournament.turn', { n: tb.turn })} · ${tb.scores.join('–')} `),
          h('a', { href: `#/match/${tb.match_id}` }, t('tournament.watch')))))
          : h('p.muted', t('tournament.refereeNone')));
    } catch (err) {
      clear(refereeBox).append(h('p.field-error', api.friendly(err)));
    }
  }


  /** A knock-out's bracket: one column per round, each table's two names, the winner bold. */
  function bracket(names) {
    const last = data.bracket.length;
    const who = (n) => (n === null || n === undefined ? h('span.muted', t('tournament.tbd')) : names[n] || `#${n}`);
    return h('section.bracket-box', {},
      h('h2', t('tournament.bracket')), h('p.help', t('tournament.bracketHelp')),
      h('div.bracket.scroll-x#tournament-bracket', {}, ...data.bracket.map((tables, r) => h('div.bracket-round', { dataset: { round: r + 1 } },
        h('h3.bracket-title', r + 1 === last ? t('tournament.bracketFinal') : t('tournament.bracketRound', { n: r + 1 })),
        h('ol.bracket-tables', {}, ...tables.map((tb) => h('li.bracket-table', { dataset: { table: tb.table } },
          ...(tb.entrants.length === 1 ? [h('span.bracket-seat.won', who(tb.entrants[0])), h('small.muted', t('tournament.bye'))]
            : tb.entrants.map((n) => h('span.bracket-seat', { class: tb.winner !== null && tb.winner === n ? 'won' : '' }, who(n)))),
          tb.match_id ? h('a.bracket-link', { href: `#/${tb.winner === null ? 'match' : 'replay'}/${tb.match_id}` },
            tb.winner === null ? t('tournament.watch') : t('tournament.replay')) : null)))))));
  }

  function standings() {
    const two = data.format !== 'arena' && data.seats === 2;
    return h('div.panel.scroll-x', {}, h('table.table#tournament-standings', {},
      h('thead', {}, h('tr', {},
        h('th', '#'), h('th', t('tournament.player')), h('th', { title: two ? t('tournament.pointsHelp') : t('tournament.pointsHelpPods') }, t('tournament.points')),
        two ? h('th', { title: t('tournament.buchholzHelp') }, t('tournament.buchholz')) : null,
        two ? h('th', { title: t('tournament.sbHelp') }, t('tournament.sb')) : null,
        h('th', t('tournament.wins')), h('th', t('tournament.games')), h('th', t('tournament.scoreTotal')))),
      h('tbody', {}, ...data.standings.map((s) => h('tr', {},
        h('td', String(s.rank)), h('td', {}, s.name), h('td.num', half(s.points)),
        two ? h('td.num', half(s.buchholz)) : null, two ? h('td.num', fmt(s.sonneborn_berger)) : null,
        h('td.num', String(s.wins)), h('td.num', String(s.games + s.byes)), h('td.num', String(s.score_total)))))));
  }

  function rounds(names) {
    const out = [];
    const byRound = {};
    for (const p of data.pairings) (byRound[p.round] ||= []).push(p);
    for (const r of Object.keys(byRound).map(Number).sort((a, b) => b - a)) {
      out.push(h('h2', t('tournament.round', { n: r })));
      out.push(h('ul.pairings', { dataset: { round: r } }, ...byRound[r].map((p) => pairing(p, names))));
    }
    return out;
  }

  function pairing(p, names) {
    const who = p.entrants.map((n) => names[n] || `#${n}`);
    if (p.entrants.length === 1) return h('li.pairing.bye', {}, `${who[0]} — ${t('tournament.bye')}`);
    const result = p.points ? p.points.map(half).join(' – ') : '';
    const link = p.match_id ? (p.match_status === 'finished'
      ? h('a', { href: `#/replay/${p.match_id}` }, t('tournament.replay'))
      : h('a', { href: `#/match/${p.match_id}` }, t('tournament.watch'))) : null;
    const li = h('li.pairing', {}, h('b', who.join(' – ')), result ? ` ${result}` : '', ' ', link,
      p.source === 'adjudicated' ? h('small.muted', ` (${t('tournament.adjudicated')}: ${p.reason})`) : null,
      p.source === 'forfeit' ? h('small.muted', ` (${t('tournament.forfeit')})`) : null);
    if (data.is_host && data.status === 'running') li.append(' ', adjudicateForm(p, who));
    if (data.is_host && data.status === 'running' && !p.points) li.append(' ', noShowForm(p, who));
    return li;
  }

  function noShowForm(p, who) {
    return h('details.no-show', {}, h('summary', t('tournament.noShow')),
      h('div.row', {}, ...p.entrants.flatMap((n, i) => [
        h('button.btn.small', { type: 'button', onclick: () => act(`games/${p.id}/replace`, { entrant: n, by: 'forfeit' }) },
          t('tournament.noShowForfeit', { name: who[i] })),
        h('button.btn.small.secondary', { type: 'button', onclick: () => act(`games/${p.id}/replace`, { entrant: n, by: 'computer' }) },
          t('tournament.noShowComputer', { name: who[i] }))])));
  }

  function adjudicateForm(p, who) {
    const winner = h('select', { 'aria-label': t('tournament.winner') },
      ...who.map((name, i) => h('option', { value: i }, t('tournament.wins1', { name }))),
      h('option', { value: 'draw' }, t('tournament.draw')));
    const reason = h('input', { type: 'text', maxlength: 500, placeholder: t('tournament.reason'), 'aria-label': t('tournament.reason') });
    return h('details.adjudicate', {}, h('summary', t('tournament.setResult')),
      h('form.row', { onsubmit: (e) => {
        e.preventDefault();
        const places = winner.value === 'draw' ? who.map(() => 1) : who.map((_, i) => (String(i) === winner.value ? 1 : 2));
        act(`games/${p.id}/result`, { places, reason: reason.value });
      } }, winner, reason, h('button.btn.small', { type: 'submit' }, t('tournament.confirm'))));
  }

  function connect() {
    if (!alive) return;
    ws = new WebSocket(api.wsUrl(`/ws/tournaments/${id}`, { token: session.token() }));
    ws.onmessage = (ev) => {
      const frame = JSON.parse(ev.data);
      if (frame.t === 'tournament' && (!data || frame.v >= data.version)) { data = frame.d; render(); refereeAfterChange(); }
      if (frame.t === 'error') clear(view).append(h('p.field-error', api.friendly(frame.d)));
    };
    ws.onclose = () => { if (alive) retry = setTimeout(connect, 2000); };
  }
  connect();
  refereeTimer = setInterval(refreshReferee, 5000);
  setTimeout(refreshReferee, 300);
  return () => {
    alive = false;
    clearInterval(refereeTimer);
    clearTimeout(refereeSoon);
    clearTimeout(retry);
    if (ws) ws.close();
  };
}
