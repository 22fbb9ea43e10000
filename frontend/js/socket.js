/**
 * A websocket that comes back: reconnects with exponential backoff (with jitter) after any
 * drop, notices silent drops with a ping/pong watchdog and the browser's offline/online events,
 * and asks ``url()`` afresh on every attempt so the caller can add ``since=<last version>``.
 *
 * Status callbacks: ``onStatus({state, attempt, retryIn})`` where state is ``connecting``,
 * ``open``, ``retrying`` (retryIn ms until the next attempt) or ``failed`` (a close code the
 * server uses to refuse us for good — 4401/4403/4404 — or ``close()`` was called). A close with
 * 1012 (service restart: the server is being redeployed) is no failure: it reconnects at once
 * (within ``RESTART_SPREAD_MS``, so a whole server's clients do not arrive in the same instant),
 * reporting only ``connecting``. An ``open`` after an earlier one carries ``resumed: true``:
 * frames sent while it was down (chat, presence) are not replayed, so a caller that shows them
 * fetches what it missed.
 */

const BACKOFF_MS = [400, 1000, 2000, 4000, 8000, 15000];
const PING_EVERY_MS = 15000;
const SILENCE_LIMIT_MS = 40000;
const FATAL_CODES = new Set([4400, 4401, 4403, 4404, 1008]);
const SERVICE_RESTART = 1012;
const RESTART_SPREAD_MS = 250;

/** The ``token`` query parameter of a socket URL (null without one). */
function tokenOf(url) {
  try {
    return new URL(url, window.location.href).searchParams.get('token');
  } catch {
    return null;
  }
}

export class LiveSocket {
  constructor(url, { onMessage, onStatus, onOpen } = {}) {
    this.url = url;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onOpen = onOpen || (() => {});
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.timer = null;
    this.pinger = null;
    this.lastHeard = 0;
    this.state = 'idle';
    this.opens = 0;
    this.onlineHandler = () => this.retryNow();
    this.offlineHandler = () => this.drop('offline');
    window.addEventListener('online', this.onlineHandler);
    window.addEventListener('offline', this.offlineHandler);
    this.connect();
  }

  setState(state, extra = {}) {
    this.state = state;
    this.onStatus({ state, attempt: this.attempt, ...extra });
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.setState('connecting');
    let ws;
    try {
      this.openedUrl = this.url();
      ws = new WebSocket(this.openedUrl);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.opens += 1;
      this.setState('open', { resumed: this.opens > 1 });
      this.startPinger();
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.stopPinger();
      if (this.closed) return;
      if (ev.code === 4401 && tokenOf(this.url()) !== tokenOf(this.openedUrl)) {
        // Revoked, but this device holds a newer token since (a password change, "sign out
        // everywhere" or registering here): come back with it at once.
        this.connect();
        return;
      }
      if (FATAL_CODES.has(ev.code)) {
        this.setState('failed', { code: ev.code, reason: ev.reason });
        return;
      }
      if (ev.code === SERVICE_RESTART) {
        this.setState('connecting', { restart: true });
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.connect(), Math.random() * RESTART_SPREAD_MS);
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => {};
  }

  scheduleRetry() {
    if (this.closed) return;
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const retryIn = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.setState('retrying', { retryIn, at: Date.now() + retryIn });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), retryIn);
  }

  /** Drop the current connection (as if the network failed) and reconnect with backoff. */
  drop(reason = 'dropped') {
    if (this.closed) return;
    const ws = this.ws;
    this.ws = null;
    this.stopPinger();
    if (ws) {
      try {
        ws.close(4000, reason);
      } catch {
        /* already closing */
      }
    }
    if (this.state !== 'retrying') this.scheduleRetry();
  }

  retryNow() {
    if (this.closed || this.isOpen) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.connect();
  }

  send(obj) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  startPinger() {
    this.stopPinger();
    this.pinger = setInterval(() => {
      if (!this.isOpen) return;
      if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
        this.drop('silent');
        return;
      }
      this.send({ t: 'ping' });
    }, PING_EVERY_MS);
  }

  stopPinger() {
    clearInterval(this.pinger);
    this.pinger = null;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopPinger();
    window.removeEventListener('online', this.onlineHandler);
    window.removeEventListener('offline', this.offlineHandler);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try {
        ws.close(1000, 'bye');
      } catch {
        /* ignore */
      }
    }
  }
}
