/**
 * The match socket: opening it (resuming from the last version seen) and the banner shown while
 * the connection is down (retry countdown, "Retry now").
 */

import * as api from '../api.js';
import * as session from '../session.js';
import { LiveSocket } from '../socket.js';
import { h, clear, toast } from '../dom.js';
import { t } from '../i18n.js';

/** Show the socket's state (``st`` from ``LiveSocket``: open, connecting, retrying, failed; ``resumed``). */
export function onStatus(m, st) {
  const conn = m.conn;
  clearInterval(conn.bannerTimer);
  if (m.chat) m.chat.refresh(); // writing waits for the socket
  if (st.state === 'open') {
    // Back after a drop or a restart: the chat fetches what was said meanwhile.
    if (st.resumed && m.chat) m.chat.load();
    if (conn.wasDown) toast(t('match.reconnected'), 'success', 2200);
    conn.wasDown = false;
    m.dom.banner.hidden = true;
    m.dom.section.dataset.conn = 'open';
    return;
  }
  m.dom.section.dataset.conn = st.state;
  if (st.state === 'connecting' && !conn.wasDown) return;
  conn.wasDown = true;
  m.dom.banner.hidden = false;
  const retry = h('button.btn.small#retry-now', { onclick: () => m.socket.retryNow() }, t('match.retryNow'));
  if (st.state === 'failed') {
    clear(m.dom.banner).append(h('span', t('match.connFailed')),
      h('button.btn.small', { onclick: () => location.reload() }, t('match.reload')));
    return;
  }
  const paint = () => {
    const left = st.at ? Math.max(0, Math.ceil((st.at - Date.now()) / 1000)) : 0;
    clear(m.dom.banner).append(h('span.spinner.small'),
      h('span', st.state === 'connecting' ? t('match.reconnecting')
        : t('match.retrying', { n: left, attempt: st.attempt })), retry);
  };
  paint();
  if (st.state === 'retrying') conn.bannerTimer = setInterval(paint, 500);
}

/** Open the match socket; ``onMessage(msg)`` receives its frames. Resumes from ``m.model.version``. */
export function connect(m, onMessage) {
  m.socket = new LiveSocket(() => api.wsUrl(`/ws/matches/${encodeURIComponent(m.matchId)}`,
    { token: session.token(), code: m.code, since: m.model.version >= 0 ? m.model.version : undefined }),
  { onMessage, onStatus: (st) => onStatus(m, st) });
  // Tests and the curious can reach the live socket (e.g. to cut it and watch it resume).
  window.carcassonne = Object.assign(window.carcassonne || {}, {
    socket: m.socket, match: () => m.model.match, version: () => m.model.version,
  });
}

/** Stop the banner's countdown (the screen is going away). */
export function stopBanner(m) {
  clearInterval(m.conn.bannerTimer);
}
