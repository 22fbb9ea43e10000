/**
 * The waiting room of a table (#/lobby/CODE): seats with names, colours and connection state;
 * pick a colour; the host adds/removes computer players, removes people, changes the options
 * and starts. Opening the page (an invite link) takes a free seat. Updates arrive on the lobby
 * websocket (with a polling fallback); when the match starts everyone moves to it.
 *
 * This module only wires the parts together; they live in ``../room/``: ``table.js`` (the
 * model: the table as last sent, ``update``, ``act``), ``connection.js`` (entering, the socket,
 * polling), ``seats.js`` (players panel), ``settings.js`` (rules panel), ``invite.js``.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { h, clear } from '../dom.js';
import { loadPresets } from '../widgets/table/rulesEditor.js';
import { rulesSummary, timeLabel } from '../widgets/table/rules.js';
import { ratedTag } from '../widgets/player/ratings.js';
import { errorPanel } from '../widgets/page/errorPanel.js';
import { chatBox } from '../widgets/page/chat.js';
import { isMissing, missingPanel } from '../widgets/page/missing.js';
import { t } from '../i18n.js';
import { tableName } from '../tableName.js';
import { RoomTable } from '../room/table.js';
import { enter, follow } from '../room/connection.js';
import { seatsPanel } from '../room/seats.js';
import { rulesPanel } from '../room/settings.js';
import { invitePanel } from '../room/invite.js';
export { inviteLink } from '../room/invite.js';

/** The title row: the table's name, its rules and time, and "Leave table" (or "Back"). */
function head(room, go) {
  const { lobby } = room;
  const leave = async () => {
    if (!window.confirm(t('room.leaveConfirm'))) return;
    await room.act(() => api.leaveLobby(room.code));
    go('#/lobbies');
  };
  return h('div.room-head', {},
    h('div', {}, h('h1#room-title', { class: 'name-cut', title: tableName(lobby, '') }, tableName(lobby)),
      h('p.lead', {}, h('span.badge', lobby.private ? t('create.private') : t('create.public')), ' ', rulesSummary(lobby.rules, lobby.preset),
        ' · ', h('span#room-time', timeLabel(lobby.time_control, lobby.time_label)),
        lobby.best_of > 1 ? [' · ', h('span#room-series', t('room.bestOf', { n: lobby.best_of }))] : null,
        ratedTag(lobby), delayTag(lobby))),
    h('div.row', {},
      room.mySeat() ? h('button.btn.ghost#leave-table', { onclick: leave }, t('room.leave'))
        : h('a.btn.ghost', { href: '#/lobbies' }, t('room.back'))));
}

/** "Spectators see 2 moves behind" when the host delays spectators (docs/API.md § Spectator delay). */
function delayTag(lobby) {
  const d = lobby.spectator_delay;
  if (!d) return null;
  const behind = d.moves ? t('create.delayMoves', { n: d.moves }) : t('create.delaySeconds', { n: d.seconds });
  return h('span', {}, ' · ', h('span.badge#room-delay', `${t('create.delay')} ${behind}`));
}

/**
 * Re-rendering the room replaces its nodes (the chat box's move): the returned function gives
 * the focus and caret back to the field someone was typing in, the same node when it was kept
 * (the chat) or the new one with its id (the hot-seat name, the host's open bot list).
 */
function keptFocus() {
  const el = document.activeElement;
  if (!el || !['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) return () => {};
  const { id } = el;
  let at = null;
  try { at = el.selectionStart; } catch { /* a field with no caret */ }
  return () => {
    const now = el.isConnected ? el : id ? document.getElementById(id) : null;
    if (!now || now === document.activeElement) return;
    now.focus();
    if (typeof at === 'number') try { now.setSelectionRange(at, at); } catch { /* a field with no caret */ }
  };
}

export function mount(root, ctx) {
  const wrap = h('section.room', {}, h('div.loading', {}, h('div.spinner'), t('room.opening')));
  root.appendChild(wrap);
  const editing = { editor: null, seatCtl: null, busy: false }; // the host's editors (settings.js)
  let link = null; // the socket (connection.js), once the table is open
  const room = new RoomTable(ctx.code, session.player(), {
    render: () => render(),
    moveToMatch: () => {
      const { lobby } = room;
      const q = lobby.private ? `?code=${encodeURIComponent(lobby.code)}` : '';
      ctx.go(`#/match/${encodeURIComponent(lobby.match_id)}${q}`);
    },
  });
  const chat = chatBox({
    scope: 'lobby', key: room.code, me: () => (room.me ? room.me.id : null), role: () => 'lobby',
    canWrite: () => !!room.mySeat() || room.isHost(), isHost: () => room.isHost(),
    send: (frame) => !!link && link.send(frame),
    online: () => !!link && link.isOpen(),
  });

  function render() {
    if (!room.alive) return;
    const { lobby } = room;
    if (lobby.status === 'closed') {
      clear(wrap).append(h('div.panel.error-panel', {}, h('h2', tableName(lobby)),
        h('p', t('room.closed')), h('a.btn', { href: '#/lobbies' }, t('app.backToTables'))));
      return;
    }
    const focus = keptFocus();
    clear(wrap).append(head(room, ctx.go),
      h('div.room-grid', {}, seatsPanel(room),
        h('div.room-side', {}, chat.node, invitePanel(lobby), rulesPanel(room, editing))));
    chat.refresh();
    focus();
  }

  (async () => {
    try {
      room.presets = await loadPresets().catch(() => ({}));
      const lobby = await enter(room);
      if (!room.alive) return;
      room.update(lobby);
      if (room.alive && room.lobby.status === 'open') {
        link = follow(room, chat);
        chat.load();
      }
    } catch (err) {
      if (!room.alive) return;
      clear(wrap).appendChild(isMissing(err) ? missingPanel('table', room.code)
        : errorPanel(err, () => ctx.go(location.hash)));
    }
  })();

  return () => {
    room.alive = false;
    if (link) link.close();
  };
}
