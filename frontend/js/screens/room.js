/**
 * The waiting room of a table (#/lobby/CODE): seats with names, colours and connection state;
 * pick a colour; the host adds/removes computer players, removes people, changes the options
 * and starts. Opening the page (an invite link) takes a free seat. Updates arrive on the lobby
 * websocket (with a polling fallback); when the match starts everyone moves to it.
 */

import { decorateSeats, ratedTag } from '../ratings.js';
import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear, toast, copyButton } from '../dom.js';
import { LiveSocket } from '../socket.js';
import { COLOURS, COLOUR_ORDER, swatch } from '../pieces.js';
import { loadPresets, rulesEditor, seatPicker } from './create.js';
import { rulesLines, rulesSummary, timeLabel, atZeroText } from './rules.js';
import { timeControlPicker, timeoutPolicyPicker, timeSummary } from './timecontrol.js';
import { errorPanel } from '../errorPanel.js';
import { chatBox } from '../chat.js';
import { isMissing, missingPanel } from '../missing.js';
import { t, errorText } from '../i18n.js';
import { tableName } from '../tableName.js';

export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/lobby/${encodeURIComponent(code)}`;
}

export function mount(root, ctx) {
  const code = ctx.code;
  const me = session.player();
  let lobby = null;
  let alive = true;
  let socket = null;
  let pollTimer = null;
  let wasSeated = false;
  let presets = {};
  let editor = null;
  let seatCtl = null;
  let editingRules = false;
  const chat = chatBox({
    scope: 'lobby', key: code, me: () => (me ? me.id : null), role: () => 'lobby',
    canWrite: () => !!mySeat() || !!isHost(), isHost: () => !!isHost(),
    send: (frame) => !!socket && socket.send(frame),
  });

  const wrap = h('section.room', {}, h('div.loading', {}, h('div.spinner'), t('room.opening')));
  root.appendChild(wrap);

  const mySeat = () => (lobby ? lobby.seats.find((s) => s.player && me && s.player === me.id) : null);
  const isHost = () => lobby && me && lobby.host === me.id;

  function moveToMatch() {
    const q = lobby.private ? `?code=${encodeURIComponent(lobby.code)}` : '';
    ctx.go(`#/match/${encodeURIComponent(lobby.match_id)}${q}`);
  }

  function update(next) {
    if (!alive || !next) return;
    if (lobby && next.version !== undefined && lobby.version !== undefined && next.version < lobby.version) return;
    lobby = next;
    if (lobby.status === 'started' && lobby.match_id) {
      toast(t('room.started'), 'success');
      moveToMatch();
      return;
    }
    const seated = !!mySeat();
    if (wasSeated && !seated) {
      toast(t('room.unseated'), 'error');
    }
    wasSeated = seated;
    render();
  }

  async function act(fn, okMessage) {
    try {
      const res = await fn();
      if (res && res.seats) update(res);
      if (okMessage) toast(okMessage, 'success');
      return res;
    } catch (err) {
      toast(api.friendly(err), 'error');
      return null;
    }
  }

  function seatRow(i) {
    const s = lobby.seats.find((x) => x.seat === i);
    const filled = s && (s.player || s.bot);
    if (!filled) {
      return h('li.seat.empty', { dataset: { seat: i } },
        h('span.seat-swatch.empty', { html: '' }),
        h('div.seat-main', {}, h('b', t('room.openSeat')), h('small', t('room.waitingPlayer'))),
        isHost() && lobby.status === 'open'
          ? h('button.btn.small.secondary.add-bot', { onclick: () => act(() => api.addBot(code)) }, t('room.addBot'))
          : null);
    }
    const mine = me && s.player === me.id;
    const host = s.player && s.player === lobby.host;
    const online = s.bot || s.connected;
    return h('li.seat', { dataset: { seat: i, colour: s.colour }, class: mine ? 'mine' : '' },
      h('span.seat-swatch', { html: swatch(s.colour, 30), title: COLOURS[s.colour] ? t(`colour.${s.colour}`) : s.colour }),
      h('div.seat-main', {},
        h('b.seat-name.name-cut', { title: s.name || '' }, s.name || (s.bot ? t('room.computer') : t('room.player'))),
        h('small', {},
          mine ? h('span.tag.you', t('room.you')) : null,
          host ? h('span.tag.host', t('room.host')) : null,
          s.bot ? h('span.tag.bot', t('room.computer')) : null,
          s.bot && !(isHost() && lobby.status === 'open') ? h('span.tag.level', t(`bot.level.${s.level || 'normal'}`)) : null,
          h('span.conn', { class: online ? 'on' : 'off', title: online ? t('room.connected') : t('room.notConnected') },
            h('i.dot'), s.bot ? t('room.ready') : online ? t('room.online') : t('room.offline')))),
      isHost() && lobby.status === 'open' ? levelSelect(s) : null,
      isHost() && !mine && lobby.status === 'open'
        ? (s.bot
          ? h('button.btn.small.ghost.remove-bot', { onclick: () => act(() => api.removeBot(code, i)), 'aria-label': t('room.removeBotAria', { name: s.name }) }, t('room.remove'))
          : h('button.btn.small.ghost.kick', { onclick: () => { if (window.confirm(t('room.kickConfirm', { name: s.name }))) act(() => api.kick(code, i)); }, 'aria-label': t('room.kickAria', { name: s.name }) }, t('room.remove')))
        : null);
  }

  // The computer's level for a seat (host only): how a bot plays, or who stands in for a
  // person who leaves the match (Normal unless chosen).
  function levelSelect(s) {
    const label = s.bot ? t('bot.level.label', { name: s.name }) : t('bot.standin.label', { name: s.name });
    return h('label.bot-level', { title: label },
      h('span', s.bot ? t('bot.level') : t('bot.standin')),
      h('select.level-select', {
        'aria-label': label,
        onchange: (e) => act(() => api.setSeatLevel(code, s.seat, e.target.value)),
      }, ['easy', 'normal', 'strong'].map((lv) => h('option', { value: lv, selected: (s.level || 'normal') === lv }, t(`bot.level.${lv}`)))));
  }

  function colourPicker() {
    const seat = mySeat();
    if (!seat) return null;
    const taken = new Set(lobby.seats.filter((s) => (s.player || s.bot) && s !== seat).map((s) => s.colour));
    return h('div.colour-picker', { role: 'radiogroup', 'aria-label': t('room.yourColour') },
      h('span.label', t('room.yourColour')),
      COLOUR_ORDER.map((c) => h('button.colour-btn', {
        type: 'button', role: 'radio', 'aria-checked': seat.colour === c ? 'true' : 'false',
        'aria-label': taken.has(c) ? t('room.colourTaken', { colour: t(`colour.${c}`) }) : t(`colour.${c}`), title: t(`colour.${c}`),
        disabled: taken.has(c), class: seat.colour === c ? 'checked' : '', dataset: { colour: c },
        html: swatch(c, 30),
        onclick: () => act(() => api.pickColour(code, c)),
      })));
  }

  function rulesPanel() {
    if (!isHost() || lobby.status !== 'open') {
      return h('div.panel', {}, h('h2', t('room.rules')),
        h('p', h('b', rulesSummary(lobby.rules, lobby.preset))),
        h('ul.rules-lines', {}, rulesLines(lobby.rules).map((l) => h('li', l))),
        timeSummary({ ...lobby, time_label: timeLabel(lobby.time_control, lobby.time_label) }),
        h('p.help', lobby.private ? t('room.privateHelp') : t('room.publicHelp')));
    }
    const filled = lobby.seats.filter((s) => s.player || s.bot).length;
    if (!editor || !editingRules) {
      editor = rulesEditor(presets, { preset: lobby.preset, rules: lobby.rules }, (v) => {
        editingRules = true;
        const body = v.preset ? { preset: v.preset } : { rules: v.rules };
        act(() => api.updateLobby(code, body)).finally(() => { editingRules = false; });
      });
      seatCtl = seatPicker(lobby.max_seats, (n) => act(() => api.updateLobby(code, { max_seats: n })), { min: Math.max(2, filled) });
    } else {
      seatCtl.set(lobby.max_seats);
    }
    const privBtn = h('label.check', {}, h('input#lobby-private', { type: 'checkbox', checked: !!lobby.private,
      onchange: (e) => act(() => api.updateLobby(code, { private: e.target.checked })) }),
    h('span', {}, h('b', t('create.private')), h('small', ` — ${t('room.privateCheck')}`)));
    return h('div.panel.host-rules', {}, h('h2', t('room.rules')), editor.node,
      h('div.form-row', {}, h('span.label', t('create.seats')), seatCtl.node),
      timeControlPicker(lobby.time_control, (tc) => act(() => api.updateLobby(code, { time_control: tc }))),
      timeoutPolicyPicker(lobby.timeout_policy, (p) => act(() => api.updateLobby(code, { timeout_policy: p })),
        { disabled: !lobby.time_control || lobby.time_control.kind === 'untimed' }),
      h('p.help#at-zero', atZeroText(lobby.time_control, lobby.timeout_policy)), privBtn);
  }

  function render() {
    if (!alive) return;
    if (lobby.status === 'closed') {
      clear(wrap).append(h('div.panel.error-panel', {}, h('h2', tableName(lobby)),
        h('p', t('room.closed')), h('a.btn', { href: '#/lobbies' }, t('app.backToTables'))));
      return;
    }
    // Re-rendering moves the chat box: keep the caret of someone typing.
    const typing = document.activeElement;
    const chatFocus = typing && chat.node.contains(typing) && typing.tagName === 'INPUT'
      ? { input: typing, at: typing.selectionStart } : null;
    const seat = mySeat();
    const filled = lobby.seats.filter((s) => s.player || s.bot).length;
    const seats = h('ol.seats#seats');
    for (let i = 0; i < lobby.max_seats; i += 1) seats.appendChild(seatRow(i));
    decorateSeats(seats, lobby);
    const link = inviteLink(lobby.code);
    const invite = h('div.panel.invite#invite', {},
      h('h2', lobby.private ? t('room.inviteFriends') : t('room.invite')),
      h('p.help', lobby.private ? t('room.invitePrivate') : t('room.invitePublic')),
      h('div.invite-code', {}, h('span.label', t('room.code')), h('code#invite-code', lobby.code),
        copyButton(t('room.copyCode'), lobby.code, { id: 'copy-code' })),
      h('div.invite-link', {}, h('input#invite-link', { type: 'text', readonly: true, value: link, 'aria-label': t('room.inviteLink'),
        onfocus: (e) => e.target.select() }), copyButton(t('room.copyLink'), link, { id: 'copy-invite' })));
    const start = isHost()
      ? h('button.btn.primary.big#start-match', { disabled: filled < 2, onclick: async (e) => {
        e.target.disabled = true;
        const res = await act(() => api.startMatch(code));
        if (res && res.match_id) {
          lobby.match_id = res.match_id;
          lobby.status = 'started';
          moveToMatch();
        } else e.target.disabled = false;
      } }, filled < 2 ? t('room.needTwo') : t('room.start', { n: filled }))
      : h('p.waiting-note', {}, h('span.spinner.small'), seat ? t('room.waitingHost') : t('room.watchingTable'));
    const joinBtn = !seat && lobby.status === 'open' && filled < lobby.max_seats
      ? h('button.btn.primary#take-seat', { onclick: () => act(() => api.joinLobby(code), t('room.tookSeat')) }, t('room.takeSeat')) : null;
    clear(wrap).append(
      h('div.room-head', {},
        h('div', {}, h('h1#room-title', { class: 'name-cut', title: tableName(lobby, '') }, tableName(lobby)),
          h('p.lead', {}, h('span.badge', lobby.private ? t('create.private') : t('create.public')), ' ', rulesSummary(lobby.rules, lobby.preset),
            ' · ', h('span#room-time', timeLabel(lobby.time_control, lobby.time_label)),
            ratedTag(lobby))),
        h('div.row', {},
          seat ? h('button.btn.ghost#leave-table', { onclick: async () => {
            if (!window.confirm(t('room.leaveConfirm'))) return;
            await act(() => api.leaveLobby(code));
            ctx.go('#/lobbies');
          } }, t('room.leave')) : h('a.btn.ghost', { href: '#/lobbies' }, t('room.back')))),
      h('div.room-grid', {},
        h('div.panel.seats-panel', {}, h('h2', t('room.players', { n: filled, max: lobby.max_seats })), seats, colourPicker(), joinBtn,
          h('div.start-row', {}, start)),
        h('div.room-side', {}, chat.node, invite, rulesPanel())));
    chat.refresh();
    if (chatFocus) {
      chatFocus.input.focus();
      chatFocus.input.setSelectionRange(chatFocus.at, chatFocus.at);
    }
  }

  function connect() {
    socket = new LiveSocket(() => api.wsUrl(`/ws/lobbies/${encodeURIComponent(code)}`, { token: session.token() }), {
      onMessage: (msg) => {
        if (chat.handle(msg)) return;
        if (msg.t === 'lobby') update(msg.d);
        else if (msg.t === 'error' && msg.d) toast(errorText(msg.d.code, msg.d.message, msg.d.reason, msg.d.params), 'error');
      },
      onStatus: ({ state }) => {
        clearTimeout(pollTimer);
        if (state !== 'open' && alive) pollTimer = setTimeout(poll, 2500);
      },
    });
  }

  async function poll() {
    if (!alive) return;
    try {
      update(await api.getLobby(code));
    } catch { /* the socket status handler schedules the next try */ }
    if (alive && socket && socket.state !== 'open') pollTimer = setTimeout(poll, 4000);
  }

  (async () => {
    try {
      presets = await loadPresets().catch(() => ({}));
      let l = await api.getLobby(code);
      const seated = l.seats.some((s) => s.player && me && s.player === me.id);
      if (l.status === 'open' && !seated) {
        const free = l.seats.filter((s) => s.player || s.bot).length < l.max_seats;
        if (free) {
          try {
            l = await api.joinLobby(code);
            toast(tableName(l, '') ? t('room.joined', { name: tableName(l) }) : t('room.joinedTable'), 'success');
          } catch (err) {
            toast(api.friendly(err), 'error');
          }
        } else {
          toast(t('room.full'), 'info');
        }
      }
      if (!alive) return;
      update(l);
      if (alive && lobby.status === 'open') {
        connect();
        chat.load();
      }
    } catch (err) {
      if (!alive) return;
      clear(wrap).appendChild(isMissing(err) ? missingPanel('table', code)
        : errorPanel(err, () => ctx.go(location.hash)));
    }
  })();

  return () => {
    alive = false;
    clearTimeout(pollTimer);
    if (socket) socket.close();
  };
}
