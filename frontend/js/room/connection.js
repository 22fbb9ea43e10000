/**
 * Keeping the waiting room current: opening it (an invite link takes a free seat), the lobby
 * websocket (its ``lobby`` frames and the chat's), and polling while the socket is down.
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { toast } from '../dom.js';
import { LiveSocket } from '../socket.js';
import { t, errorText } from '../i18n.js';
import { tableName } from '../tableName.js';

/** The table at ``room.code``, after taking a free seat in it when the person has none. */
export async function enter(room) {
  let l = await api.getLobby(room.code);
  const seated = l.seats.some((s) => s.player && room.me && s.player === room.me.id);
  if (l.status !== 'open' || seated) return l;
  if (l.seats.filter((s) => s.player || s.bot).length >= l.max_seats) {
    toast(t('room.full'), 'info');
    return l;
  }
  try {
    l = await api.joinLobby(room.code);
    toast(tableName(l, '') ? t('room.joined', { name: tableName(l) }) : t('room.joinedTable'), 'success');
  } catch (err) {
    toast(api.friendly(err), 'error');
  }
  return l;
}

/**
 * Follow the table on its socket (``chat``: the chat box, which takes its own frames), polling
 * while the socket is down. Returns ``{send(frame), isOpen(), close()}``.
 */
export function follow(room, chat) {
  let pollTimer = null;
  let socket = null;
  const poll = async () => {
    if (!room.alive) return;
    try {
      room.update(await api.getLobby(room.code));
    } catch { /* the socket status handler schedules the next try */ }
    if (room.alive && socket && socket.state !== 'open') pollTimer = setTimeout(poll, 4000);
  };
  socket = new LiveSocket(() => api.wsUrl(`/ws/lobbies/${encodeURIComponent(room.code)}`, { token: session.token() }), {
    onMessage: (msg) => {
      if (chat.handle(msg)) return;
      if (msg.t === 'lobby') room.update(msg.d);
      else if (msg.t === 'error' && msg.d) toast(errorText(msg.d.code, msg.d.message, msg.d.reason, msg.d.params), 'error');
    },
    onStatus: ({ state, resumed }) => {
      clearTimeout(pollTimer);
      chat.refresh(); // writing waits for the socket
      if (resumed) chat.load(); // what was said while it was down
      if (state !== 'open' && room.alive) pollTimer = setTimeout(poll, 2500);
    },
  });
  return {
    send: (frame) => socket.send(frame),
    isOpen: () => socket.isOpen,
    close: () => { clearTimeout(pollTimer); socket.close(); },
  };
}
