/**
 * The REST client for docs/API.md. Every call sends ``Authorization: Bearer <token>`` when this
 * browser has one; every failure becomes an ``ApiError`` with the server's machine ``code`` and
 * a message for people (the server's own, or a readable fallback when the network failed).
 */

import * as session from './session.js';
import { t, errorText } from './i18n.js';

export class ApiError extends Error {
  /**
   * ``retryAfter``: seconds a ``rate_limited`` refusal asks to wait (its ``Retry-After``), or null;
   * ``reason``/``params``: the error body's finer code and its values (docs/API.md), or null/{}.
   */
  constructor(status, code, message, retryAfter = null, reason = null, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.reason = reason;
    this.params = params;
  }
}

/** Catalogue words for an error code (used when the server sent no message). */
const FRIENDLY = new Proxy({}, { get: (_, code) => t(`error.${String(code)}`) });

/**
 * "Too many attempts: try again in 40 seconds" (or minutes, from two minutes on) for a
 * ``rate_limited`` refusal that said how long to wait (``seconds``).
 */
export function waitText(seconds) {
  const s = Math.max(1, Math.ceil(seconds));
  if (s >= 120) return t('error.rateLimitedMinutes', { n: Math.ceil(s / 60) });
  return t('error.rateLimitedSeconds', { n: s });
}

/**
 * Words for people about ``err``: an ``ApiError`` or a websocket error frame's ``{code, message,
 * reason?, params?}`` goes through the catalogue by its reason, else its code (i18n.errorText);
 * anything else (a script error, never a server sentence) shows its message.
 */
export function friendly(err) {
  if (!err) return t('app.wrong');
  if (err instanceof ApiError || (typeof err === 'object' && typeof err.code === 'string')) {
    const wait = err instanceof ApiError ? err.retryAfter : err.retry_after;
    if (err.code === 'rate_limited' && typeof wait === 'number' && wait > 0) return waitText(wait);
    return errorText(err.code, err.message, err.reason, err.params);
  }
  return err.message || String(err);
}

export async function request(method, path, body, { auth = true, query, token } = {}) {
  const headers = { Accept: 'application/json' };
  // ``token``: another person's on this device (hot-seat, localSeats.js), never renewed here.
  const tok = token || session.token();
  if (auth && tok) headers.Authorization = `Bearer ${tok}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let url = path;
  if (query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) q.set(k, v);
    const s = q.toString();
    if (s) url += `?${s}`;
  }
  let res;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', FRIENDLY.network);
  }
  if (!token) session.renew(res.headers.get('X-Renewed-Token'));
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const e = data && data.error;
    // The wait: the error body's ``retry_after`` (seconds), else the ``Retry-After`` header.
    const header = res.headers.get('Retry-After');
    let wait = header && /^\d+$/.test(header) ? Number(header) : null;
    if (e && typeof e.retry_after === 'number' && e.retry_after > 0) wait = e.retry_after;
    if (e && e.code) {
      const params = e.params && typeof e.params === 'object' ? e.params : {};
      throw new ApiError(res.status, e.code, e.message || '', wait, e.reason || null, params);
    }
    if (data && data.detail) {
      const detail = Array.isArray(data.detail)
        ? data.detail.map((d) => d.msg || JSON.stringify(d)).join('; ') : String(data.detail);
      throw new ApiError(res.status, res.status === 422 ? 'validation_error' : `http_${res.status}`, detail);
    }
    throw new ApiError(res.status, `http_${res.status}`, `The server answered ${res.status} ${res.statusText}.`);
  }
  return data;
}

export const get = (path, opts) => request('GET', path, undefined, opts);
export const post = (path, body = {}, opts) => request('POST', path, body, opts);
export const patch = (path, body, opts) => request('PATCH', path, body, opts);
export const del = (path, opts) => request('DELETE', path, undefined, opts);

/** ``ws://host/path?query`` for the page's own origin. */
export function wsUrl(path, query) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query || {})) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return `${proto}//${location.host}${path}${s ? `?${s}` : ''}`;
}

// ---------------------------------------------------------------- endpoints

export const createPlayer = (name) => post('/api/players', { name }, { auth: false });
export const me = () => get('/api/me');
export const myMatches = () => get('/api/me/matches');
export const catalogue = () => get('/api/catalogue', { auth: false });
export const presets = () => get('/api/presets', { auth: false });

export const listLobbies = (query) => get('/api/lobbies', { query });
export const createLobby = (body) => post('/api/lobbies', body);
export const getLobby = (code) => get(`/api/lobbies/${encodeURIComponent(code)}`);
export const joinLobby = (code) => post(`/api/lobbies/${encodeURIComponent(code)}/join`);
export const leaveLobby = (code) => post(`/api/lobbies/${encodeURIComponent(code)}/leave`);
export const pickColour = (code, colour) => post(`/api/lobbies/${encodeURIComponent(code)}/colour`, { colour });
export const updateLobby = (code, body) => patch(`/api/lobbies/${encodeURIComponent(code)}`, body);
export const kick = (code, seat) => post(`/api/lobbies/${encodeURIComponent(code)}/kick`, { seat });
export const addBot = (code) => post(`/api/lobbies/${encodeURIComponent(code)}/bots`);
export const setSeatLevel = (code, seat, level) => post(`/api/lobbies/${encodeURIComponent(code)}/seats/${seat}/level`, { level });
export const removeBot = (code, seat) => del(`/api/lobbies/${encodeURIComponent(code)}/bots/${seat}`);
export const listBots = () => get('/api/bots');
export const inviteBot = (code, bot) => post(`/api/lobbies/${encodeURIComponent(code)}/invite`, { bot });
export const challengeBot = (bot, body) => post(`/api/bots/${encodeURIComponent(bot)}/challenge`, body);
export const getChallenge = (id) => get(`/api/challenges/${encodeURIComponent(id)}`);
export const cancelChallenge = (id) => post(`/api/challenges/${encodeURIComponent(id)}/cancel`);
export const startMatch = (code) => post(`/api/lobbies/${encodeURIComponent(code)}/start`);

export const getMatch = (id, code) => get(`/api/matches/${encodeURIComponent(id)}`, { query: { code } });
export const matchEvents = (id, since, code) =>
  get(`/api/matches/${encodeURIComponent(id)}/events`, { query: { since, code } });
export const postAction = (id, body, code, token) =>
  request('POST', `/api/matches/${encodeURIComponent(id)}/actions`, body, { query: { code }, token });
export const matchRecord = (id, code) =>
  get(`/api/matches/${encodeURIComponent(id)}/record`, { query: { code } });
/** A file the API answers with (a zip), fetched with the token; resolves to a Blob. */
export async function download(path) {
  const headers = {};
  const tok = session.token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  let res;
  try {
    res = await fetch(path, { headers });
  } catch {
    throw new ApiError(0, 'network', FRIENDLY.network);
  }
  if (!res.ok) {
    let e = null;
    try { e = (await res.json()).error; } catch { e = null; }
    throw new ApiError(res.status, (e && e.code) || `http_${res.status}`, (e && e.message) || '', null, (e && e.reason) || null, (e && e.params) || {});
  }
  return res.blob();
}

export const matchSeries = (id, code) =>
  get(`/api/matches/${encodeURIComponent(id)}/series`, { query: { code } });
export const rematch = (id) => post(`/api/matches/${encodeURIComponent(id)}/rematch`);

export const lobbyChat = (code) => get(`/api/lobbies/${encodeURIComponent(code)}/chat`);
export const matchChat = (id, code) => get(`/api/matches/${encodeURIComponent(id)}/chat`, { query: { code } });
export const muteInLobby = (code, player, muted) =>
  post(`/api/lobbies/${encodeURIComponent(code)}/mute`, { player, muted });
